import EventBus

/// A main-actor object that reacts to the keyboard with one method per kind of keyboard event.
///
/// Implement only the methods you need; the others do nothing.
///
/// ```swift
/// final class SignInViewController: UIViewController, KeyboardObserverEventResponder {
///   func keyboardWillShow(_ info: KeyboardUserInfo) { scrollView.contentInset.bottom = info.endFrame.height }
///   func keyboardWillHide(_ info: KeyboardUserInfo) { scrollView.contentInset.bottom = 0 }
/// }
/// keyboard.subscribe(signInViewController)   // held weakly, delivered on the main actor
/// ```
@MainActor
public protocol KeyboardObserverEventResponder: AnyObject, Sendable {
  /// The keyboard is about to appear.
  func keyboardWillShow(_ info: KeyboardUserInfo)
  /// The keyboard appeared.
  func keyboardDidShow(_ info: KeyboardUserInfo)
  /// The keyboard is about to disappear.
  func keyboardWillHide(_ info: KeyboardUserInfo)
  /// The keyboard disappeared.
  func keyboardDidHide(_ info: KeyboardUserInfo)
  /// The keyboard's frame is about to change.
  func keyboardWillChangeFrame(_ info: KeyboardUserInfo)
  /// The keyboard's frame changed.
  func keyboardDidChangeFrame(_ info: KeyboardUserInfo)
}

extension KeyboardObserverEventResponder {
  /// Does nothing; implement it to react.
  public func keyboardWillShow(_ info: KeyboardUserInfo) {}
  /// Does nothing; implement it to react.
  public func keyboardDidShow(_ info: KeyboardUserInfo) {}
  /// Does nothing; implement it to react.
  public func keyboardWillHide(_ info: KeyboardUserInfo) {}
  /// Does nothing; implement it to react.
  public func keyboardDidHide(_ info: KeyboardUserInfo) {}
  /// Does nothing; implement it to react.
  public func keyboardWillChangeFrame(_ info: KeyboardUserInfo) {}
  /// Does nothing; implement it to react.
  public func keyboardDidChangeFrame(_ info: KeyboardUserInfo) {}

  /// Calls the method for `event`'s kind.
  ///
  /// - Parameter event: The keyboard event.
  public func handle(keyboardEvent event: KeyboardEvent) {
    switch event {
    case .willShow(let info): keyboardWillShow(info)
    case .didShow(let info): keyboardDidShow(info)
    case .willHide(let info): keyboardWillHide(info)
    case .didHide(let info): keyboardDidHide(info)
    case .willChangeFrame(let info): keyboardWillChangeFrame(info)
    case .didChangeFrame(let info): keyboardDidChangeFrame(info)
    }
  }
}

extension EventStream where Event == KeyboardEvent {
  /// Subscribes a ``KeyboardObserverEventResponder``, held weakly: each keyboard event calls the method for its kind,
  /// on the main actor.
  ///
  /// When the notification is posted on the main thread (as UIKit posts it) and nothing is waiting for this
  /// responder, the method runs at once, inside the keyboard's animation; otherwise it is queued on the main queue.
  ///
  /// - Parameters:
  ///   - responder: The responder. Never retained.
  ///   - fileID: The file of the call, recorded for `debugDescription`; leave the default.
  ///   - line: The line of the call, recorded for `debugDescription`; leave the default.
  /// - Returns: A handle that can end the subscription early. Dropping it does not end the subscription.
  @discardableResult
  public func subscribe<Responder: KeyboardObserverEventResponder>(
    _ responder: Responder,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> ResponderSubscription {
    subscribe(responder, on: .main, fileID: fileID, line: line) { responder, event in
      responder.handle(keyboardEvent: event)
    }
  }
}
