// expected-error: converting function value of type '@MainActor @Sendable (TitleLabel, String) -> ()' to '@Sendable (TitleLabel, String) -> Void' loses global actor 'MainActor'
// Marking the handler @MainActor does not make it run there: only `on: .main` takes a @MainActor handler.
import EventBus

@MainActor final class TitleLabel {
  var title = ""

  func bind(to output: Output<String>) {
    output.subscribe(self) { @MainActor label, title in label.title = title }
  }
}
