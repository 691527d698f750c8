// expected-error: main actor-isolated property 'title' can not be mutated from a Sendable closure
// `.queue(.main)` runs the handler on the main queue, but the compiler cannot know that: a handler that touches a
// @MainActor responder's state needs `on: .main`, whose handler is @MainActor.
import Dispatch
import EventBus

@MainActor final class TitleLabel {
  var title = ""

  func bind(to output: Output<String>) {
    output.subscribe(self, on: .queue(.main)) { label, title in label.title = title }
  }
}
