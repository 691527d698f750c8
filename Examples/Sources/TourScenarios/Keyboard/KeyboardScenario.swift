import Broadcasters
import EventBus
import Foundation

/// What the keyboard scenario measured.
public struct KeyboardScenarioResult: Sendable, Equatable {
  /// How many times the broadcaster connected to NotificationCenter while three screens listened.
  public var connectCount: Int
  /// How many notifications the broadcaster decoded: one per notification, not one per screen.
  public var decodedNotifications: Int
  /// How many notifications could not be decoded and reached nobody.
  public var decodeFailures: Int
  /// Whether the broadcaster was still connected after the last screen went away.
  public var isConnectedAfterScreensLeft: Bool
}

/// Scenario 2: several screens share one ``KeyboardBroadcaster``, fed by keyboard notifications posted on a private
/// NotificationCenter, as UIKit would post them.
///
/// Three screens subscribe; the broadcaster connects once. Each notification is decoded once and reaches all three. A
/// notification with a broken `userInfo` is counted and reaches nobody. When the screens go away, the broadcaster
/// disconnects.
///
/// - Parameter transcript: Where the screens write what they receive.
/// - Returns: What the broadcaster counted.
@MainActor
@discardableResult
public func runKeyboardScenario(transcript: Transcript) async -> KeyboardScenarioResult {
  transcript.begin("2. Keyboard: three screens, one KeyboardBroadcaster")
  let center = NotificationCenter()  // private: the tour posts the keyboard notifications itself
  let keyboard = KeyboardBroadcaster(center: center)
  var screens: [KeyboardAwareScreen]? = ["SignInForm", "ChatComposer", "SearchBar"].map {
    KeyboardAwareScreen(name: $0, transcript: transcript)
  }
  for screen in screens ?? [] { keyboard.subscribe(screen) }
  transcript.note("3 screens subscribed; connectCount \(keyboard.connectCount)")

  let keyboardFrame = CGRect(x: 0, y: 500, width: 390, height: 300)
  let shown = KeyboardUserInfo(beginFrame: keyboardFrame.offsetBy(dx: 0, dy: 300), endFrame: keyboardFrame)
  transcript.note("the system posts keyboardWillShow")
  center.post(KeyboardEvent.willShow(shown).notification())
  await settle()
  transcript.note("decoded \(keyboard.upstreamEventCount) notification for \(keyboard.subscriberCount) screens")

  transcript.note("the system posts a keyboardWillShow with no userInfo")
  center.post(name: KeyboardEvent.willShow(shown).notificationName, object: nil)
  await settle()
  transcript.note("decode failures \(keyboard.decodeFailureCount); nobody received it")

  let hidden = KeyboardUserInfo(beginFrame: keyboardFrame, endFrame: keyboardFrame.offsetBy(dx: 0, dy: 300))
  transcript.note("the system posts keyboardWillHide")
  center.post(KeyboardEvent.willHide(hidden).notification())
  await settle()

  screens = nil  // the screens close; their subscriptions end with them
  keyboard.pruneDeadSubscribers()  // the broadcaster notices that nobody is left, and disconnects
  let result = KeyboardScenarioResult(
    connectCount: keyboard.connectCount,
    decodedNotifications: keyboard.upstreamEventCount,
    decodeFailures: keyboard.decodeFailureCount,
    isConnectedAfterScreensLeft: keyboard.isConnected)
  transcript.note(
    "screens closed; connected \(result.isConnectedAfterScreensLeft), connectCount \(keyboard.connectCount), "
      + "disconnectCount \(keyboard.disconnectCount)")
  return result
}
