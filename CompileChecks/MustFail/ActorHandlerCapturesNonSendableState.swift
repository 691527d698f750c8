// expected-error: capture of 'log' with non-Sendable type 'Log' in a '@Sendable' closure
// An actor responder's handler runs on the actor, not where it was written: it cannot capture state that is not
// Sendable.
import EventBus

final class Log {
  var lines: [String] = []
}

actor Store {
  var count = 0
}

func subscribe(store: Store, log: Log, to output: Output<Int>) {
  output.subscribe(store) { store, value in
    store.count += value
    log.lines.append("\(value)")
  }
}
