import Broadcasters
import EventBus
import Foundation
import Testing

/// Serialized: these tests count live objects for `KeyboardEvent`, which they all share. Each posts to a
/// `NotificationCenter` of its own. The documentation's keyboard broadcasters share the type too, from another suite
/// that runs beside this one: a count of zero is awaited until theirs are gone.
@Suite(.serialized) struct KeyboardBroadcasterTests {
  /// The acceptance test.
  @Test func aThousandWeakRespondersShareOneObserverPerNameAndOneDecodePerPostAndLeaveNoObserverBehind() async {
    let center = NotificationCenter()
    let source = NotificationSource.keyboard(center: center)
    let keyboard = KeyboardBroadcaster(source: source)
    var responders = (0..<1_000).map { _ in Recorder<KeyboardEvent>() }
    for responder in responders {
      keyboard.subscribe(responder)
    }
    // One observer per keyboard notification name, whatever the number of responders.
    #expect(source.observerCount == KeyboardNotification.all.count)
    #expect(keyboard.connectCount == 1)

    let posted = KeyboardEvent.everyKind + KeyboardEvent.everyKind.reversed()
    for event in posted {
      center.post(event)
    }
    // One decode per post: the sink counts each decoded event once, before the fan-out.
    #expect(keyboard.upstreamEventCount == posted.count)
    #expect(keyboard.decodeFailureCount == 0)
    #expect(responders.allSatisfy { $0.events == posted })

    responders.removeAll()
    // Nothing tells the broadcaster that the responders deinitialised (see `Broadcaster`): the next post does.
    #expect(source.observerCount == KeyboardNotification.all.count)
    center.post(KeyboardEvent.everyKind[0])
    #expect(source.observerCount == 0)
    #expect(!keyboard.isConnected)
    #expect(keyboard.disconnectCount == 1)
    center.post(KeyboardEvent.everyKind[0])
    #expect(keyboard.upstreamEventCount == posted.count + 1)  // the last post was not observed
    #expect(await eventually { LiveObjects.count("Output.Entry", for: KeyboardEvent.self) == 0 })
  }

  @Test func pruningAfterTheRespondersWentRemovesTheObservers() {
    let center = NotificationCenter()
    let source = NotificationSource.keyboard(center: center)
    let keyboard = KeyboardBroadcaster(source: source)
    do {
      let responders = (0..<10).map { _ in Recorder<KeyboardEvent>() }
      for responder in responders {
        keyboard.subscribe(responder)
      }
      #expect(source.observerCount == 6)
    }
    #expect(keyboard.subscriberCount == 0)
    #expect(source.observerCount == 6, "reading subscriberCount removed the observers")
    keyboard.pruneDeadSubscribers()
    #expect(source.observerCount == 0)
  }

  @Test func aMissingUserInfoKeyIsNotDeliveredIsCountedAndReportedWithTheKeyAndLaterPostsArrive() {
    let center = NotificationCenter()
    let keyboard = KeyboardBroadcaster(center: center)
    let failures = Log<DecodeFailure>()
    keyboard.onDecodeFailure = { failures.append($0) }
    let responder = Recorder<KeyboardEvent>()
    keyboard.subscribe(responder)

    var userInfo = KeyboardUserInfo.rising(to: 300).userInfo
    userInfo[KeyboardNotification.UserInfoKey.frameEnd] = nil
    center.post(name: KeyboardNotification.willShow, object: nil, userInfo: userInfo)

    #expect(responder.events.isEmpty)
    #expect(keyboard.decodeFailureCount == 1)
    #expect(
      failures.elements == [
        DecodeFailure(name: "UIKeyboardWillShowNotification", key: "UIKeyboardFrameEndUserInfoKey", reason: .missingKey)
      ])
    center.post(KeyboardEvent.everyKind[0])
    #expect(responder.events == [KeyboardEvent.everyKind[0]])
  }

  @Test func aMistypedUserInfoKeyIsNotDeliveredIsCountedAndReportedWithTheReasonAndLaterPostsArrive() {
    let center = NotificationCenter()
    let keyboard = KeyboardBroadcaster(center: center)
    let failures = Log<DecodeFailure>()
    keyboard.onDecodeFailure = { failures.append($0) }
    let responder = Recorder<KeyboardEvent>()
    keyboard.subscribe(responder)

    var userInfo = KeyboardUserInfo.rising(to: 300).userInfo
    userInfo[KeyboardNotification.UserInfoKey.animationDuration] = "fast"
    center.post(name: KeyboardNotification.didHide, object: nil, userInfo: userInfo)

    #expect(responder.events.isEmpty)
    #expect(keyboard.decodeFailureCount == 1)
    let failure = failures.elements.first
    #expect(failure?.name == "UIKeyboardDidHideNotification")
    #expect(failure?.key == "UIKeyboardAnimationDurationUserInfoKey")
    #expect(failure?.reason == .wrongType(expected: "Double", found: "String"))
    center.post(KeyboardEvent.everyKind[5])
    #expect(responder.events == [KeyboardEvent.everyKind[5]])
    #expect(keyboard.decodeFailureCount == 1)
  }

  @Test func aKeyboardNotificationWithoutUserInfoIsReportedNotDelivered() {
    let center = NotificationCenter()
    let keyboard = KeyboardBroadcaster(center: center)
    let failures = Log<DecodeFailure>()
    keyboard.onDecodeFailure = { failures.append($0) }
    let responder = Recorder<KeyboardEvent>()
    keyboard.subscribe(responder)
    center.post(name: KeyboardNotification.willHide, object: nil)
    #expect(responder.events.isEmpty)
    #expect(failures.elements == [DecodeFailure(name: "UIKeyboardWillHideNotification", reason: .other("no userInfo"))])
  }

  @Test func aKeyboardObserverEventResponderReceivesEachKindInItsMethodOnTheMainActor() async {
    @MainActor final class Screen: KeyboardObserverEventResponder {
      var calls: [String] = []
      func keyboardWillShow(_ info: KeyboardUserInfo) {
        MainActor.preconditionIsolated()
        calls.append("willShow \(Int(info.endFrame.height))")
      }
      func keyboardDidChangeFrame(_ info: KeyboardUserInfo) {
        calls.append("didChangeFrame \(Int(info.endFrame.height))")
      }
      func keyboardDidHide(_ info: KeyboardUserInfo) {
        calls.append("didHide")
      }
    }
    let center = NotificationCenter()
    let keyboard = KeyboardBroadcaster(center: center)
    let screen = await MainActor.run { Screen() }
    keyboard.subscribe(screen)
    for event in KeyboardEvent.everyKind {
      center.post(event)
    }
    await Documentation.waitUntil { screen.calls.count >= 3 }
    #expect(await screen.calls == ["willShow 300", "didChangeFrame 340", "didHide"])
  }

  @Test func aReleasedKeyboardBroadcasterRemovesItsObserversAndFreesEverything() async {
    let center = NotificationCenter()
    let responder = Recorder<KeyboardEvent>()
    let source = NotificationSource.keyboard(center: center)
    weak var weakKeyboard: KeyboardBroadcaster?
    do {
      let keyboard = KeyboardBroadcaster(source: source)
      weakKeyboard = keyboard
      keyboard.subscribe(responder)
      center.post(KeyboardEvent.everyKind[0])
      #expect(source.observerCount == 6)
    }
    #expect(weakKeyboard == nil)
    #expect(source.observerCount == 0)
    center.post(KeyboardEvent.everyKind[1])
    #expect(responder.events == [KeyboardEvent.everyKind[0]])
    #expect(await eventually { LiveObjects.total(for: KeyboardEvent.self) == 0 })
  }

  @Test func theReportedNumberFrameIsNotDeliveredAndTheProcessSurvives() {
    let center = NotificationCenter()
    let keyboard = KeyboardBroadcaster(center: center)
    let failures = Log<DecodeFailure>()
    keyboard.onDecodeFailure = { failures.append($0) }
    let delivered = Log<KeyboardEvent>()
    let token = keyboard.subscribe { delivered.append($0) }
    let info = KeyboardUserInfo(beginFrame: .zero, endFrame: CGRect(x: 0, y: 500, width: 390, height: 300))
    for value: Any in [5, 1.5, true, NSValue(point: .zero)] {
      var userInfo = info.userInfo
      userInfo[KeyboardNotification.UserInfoKey.frameEnd] = value
      center.post(name: KeyboardNotification.willShow, object: nil, userInfo: userInfo)
    }
    #expect(keyboard.decodeFailureCount == 4)
    #expect(delivered.count == 0)
    #expect(
      failures.elements.map(\.reason) == [
        .wrongType(expected: "CGRect", found: "Int"), .wrongType(expected: "CGRect", found: "Double"),
        .wrongType(expected: "CGRect", found: "Bool"),
        .wrongType(expected: "CGRect", found: "NSValue(\(String(cString: NSValue(point: .zero).objCType)))"),
      ])
    token.cancel()
  }
}
