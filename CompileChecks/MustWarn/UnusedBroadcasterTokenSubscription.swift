// expected-warning: result of call to 'subscribe(on:fileID:line:_:)' is unused
// expected-warning: result of call to 'subscribe(on:fileID:line:_:)' is unused
// expected-warning: result of call to 'subscribe(on:fileID:line:_:)' is unused
// A Broadcaster's token-owned subscribe warns when its token is dropped, like an Output's.
import Broadcasters
import Foundation

@MainActor func subscribeAndDropTheTokens(to ticks: Broadcaster<Date>, keyboard: KeyboardBroadcaster) {
  ticks.subscribe { _ in }
  ticks.subscribe(on: .main) { _ in }
  keyboard.subscribe { _ in }
}
