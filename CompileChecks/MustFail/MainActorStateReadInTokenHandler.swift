// expected-error: main actor-isolated property 'title' can not be referenced from a Sendable closure
// A token-owned handler without `on: .main` is a Sendable closure that runs on the sending thread: it cannot read the
// state of the @MainActor type that subscribed it.
import EventBus

@MainActor final class TitleLabel {
  var title = ""

  func bind(to output: Output<String>) -> EventSubscription {
    output.subscribe { line in print(self.title, line) }
  }
}
