// expected-warning: result of call to 'subscribe(_:on:fileID:line:_:)' is unused
// expected-warning: result of call to 'subscribe(_:on:fileID:line:_:)' is unused
// expected-warning: result of call to 'subscribe(on:fileID:line:_:)' is unused
// The hub's token-owned subscribe warns when its token is dropped, like an Output's.
import EventBus

struct UserSignedIn: Sendable {
  let id: Int
}

@MainActor func subscribeAndDropTheTokens(to hub: EventHub) {
  hub.subscribe(UserSignedIn.self) { _ in }
  hub.subscribe(UserSignedIn.self, on: .main) { _ in }
  hub.events(of: UserSignedIn.self).subscribe { _ in }
}
