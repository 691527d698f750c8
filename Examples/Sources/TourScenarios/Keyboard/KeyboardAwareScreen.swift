import Broadcasters
import EventBus

/// A screen that moves its content out of the keyboard's way. Several of them share one ``KeyboardBroadcaster``.
@MainActor
public final class KeyboardAwareScreen: KeyboardObserverEventResponder {
  /// The screen's name, as the transcript shows it.
  public let name: String
  /// How far the content is lifted above the bottom edge.
  public private(set) var bottomInset: Double = 0
  private let transcript: Transcript

  /// Creates a screen.
  ///
  /// - Parameters:
  ///   - name: The screen's name, as the transcript shows it.
  ///   - transcript: Where it writes what it receives.
  public init(name: String, transcript: Transcript) {
    self.name = name
    self.transcript = transcript
  }

  /// Lifts the content by the keyboard's height.
  public func keyboardWillShow(_ info: KeyboardUserInfo) {
    bottomInset = Double(info.endFrame.height)
    transcript.received(name, "keyboardWillShow(height: \(Int(bottomInset)))")
  }

  /// Puts the content back.
  public func keyboardWillHide(_ info: KeyboardUserInfo) {
    bottomInset = 0
    transcript.received(name, "keyboardWillHide")
  }
}
