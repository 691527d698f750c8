// expected-error: call to main actor-isolated instance method 'render' in a synchronous nonisolated context [#ActorIsolatedCall]
// On the default context the handler runs on the sending thread, so it cannot call into a @MainActor responder.
import EventBus

@MainActor final class Screen {
  var lines: [String] = []

  func render(_ line: String) {
    lines.append(line)
  }

  func bind(to output: Output<String>) {
    output.subscribe(self) { screen, line in screen.render(line) }
  }
}
