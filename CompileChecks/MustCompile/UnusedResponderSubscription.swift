// A responder-owned subscription lives as long as its responder, so dropping the ResponderSubscription it returns is
// the normal way to use it: no warning, whatever the stream, the context or the kind of responder.
import Broadcasters
import Dispatch
import EventBus
import Foundation

struct UserSignedIn: Sendable {
  let id: Int
}

final class Log: Sendable {
  let name: String

  init(name: String) {
    self.name = name
  }
}

final class SignInLog: EventResponder {
  func handle(event: UserSignedIn) {}
}

final class TickLog: EventResponder {
  func handle(event: Date) {}
}

@MainActor final class Screen: MainActorEventResponder {
  var lastUserID: Int?

  func handle(event: UserSignedIn) {
    lastUserID = event.id
  }
}

@MainActor final class KeyboardScreen: KeyboardObserverEventResponder {
  var bottomInset = 0.0

  func keyboardWillShow(_ info: KeyboardUserInfo) {
    bottomInset = Double(info.endFrame.height)
  }
}

@MainActor func subscribeAndDropTheHandles(
  output: Output<UserSignedIn>,
  hub: EventHub,
  ticks: Broadcaster<Date>,
  keyboard: KeyboardBroadcaster,
  queue: DispatchQueue
) {
  let log = Log(name: "sign-ins")
  let signInLog = SignInLog()
  let tickLog = TickLog()
  let screen = Screen()

  output.subscribe(log) { _, _ in }
  output.subscribe(log, on: .queue(queue)) { _, _ in }
  output.subscribe(screen, on: .main) { screen, event in screen.lastUserID = event.id }
  output.subscribe(signInLog)
  output.subscribe(signInLog, on: .queue(queue))
  output.subscribe(screen)
  output.readOnly.map(\.id).removeDuplicates().subscribe(log) { _, _ in }

  hub.subscribe(UserSignedIn.self, log) { _, _ in }
  hub.subscribe(UserSignedIn.self, screen, on: .main) { screen, event in screen.lastUserID = event.id }
  hub.subscribe(UserSignedIn.self, signInLog)
  hub.subscribe(UserSignedIn.self, screen)

  ticks.subscribe(log) { _, _ in }
  ticks.subscribe(log, on: .main) { _, _ in }
  ticks.subscribe(tickLog)
  keyboard.subscribe(KeyboardScreen())
}
