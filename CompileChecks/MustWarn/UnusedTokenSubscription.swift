// expected-warning: result of call to 'subscribe(on:fileID:line:_:)' is unused
// expected-warning: result of call to 'subscribe(on:fileID:line:_:)' is unused
// expected-warning: result of call to 'subscribe(on:fileID:line:_:)' is unused
// expected-warning: result of call to 'subscribe(on:fileID:line:_:)' is unused
// A token-owned subscription ends when its token is released, so a token that is dropped at once is a bug the
// compiler points out, in every delivery context and on every kind of stream.
import Dispatch
import EventBus

@MainActor func subscribeAndDropTheTokens(to output: Output<Int>, queue: DispatchQueue) {
  output.subscribe { _ in }
  output.subscribe(on: .queue(queue)) { _ in }
  output.subscribe(on: .main) { _ in }
  output.readOnly.map { $0 * 2 }.subscribe { _ in }
}
