// expected-error: conformance of 'EditNameViewModel' to protocol 'EventViewModel' crosses into main actor-isolated code and can cause data races [#ConformanceIsolation]
// A view model with main-actor state conforms with `@MainActor EventViewModel`, an isolated conformance.
import EventBus

enum EditNameEvent: Sendable {
  case nameChanged(String)
}

@MainActor final class EditNameViewModel: EventViewModel {
  let output = Output<String>()
  private var name = ""

  func handle(event: EditNameEvent) {
    if case .nameChanged(let newName) = event {
      name = newName
      output.send(name)
    }
  }
}
