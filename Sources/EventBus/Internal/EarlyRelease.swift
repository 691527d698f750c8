#if DEBUG
  import Dispatch

  #if canImport(Darwin)
    import Darwin
  #elseif canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// Debug builds only: watches one token-owned subscription for the mistake `_ = output.subscribe { … }`, which
  /// compiles without a word and ends the subscription at once.
  ///
  /// The token's `deinit` asks it whether the release looks like that mistake: the token was released, not cancelled,
  /// on the thread that subscribed, less than ``window`` after subscribing, and its handler never ran. A token kept by
  /// a screen that closes before any event fails the window; one kept in a variable while events arrive fails the
  /// handler test. The handler is wrapped to note its first call, in debug builds only, at subscribe time: the
  /// delivery loop is the same in every build, and release builds carry none of this.
  final class EarlyReleaseCheck {
    /// How soon after subscribing a release still counts as "at once".
    static let window: UInt64 = 1_000_000_000

    let callSite: CallSite
    private let thread = ThreadIdentity.current
    private let subscribedAt: UInt64
    private let window: UInt64
    /// 1 once the handler has been called; written by whichever thread delivers, read by the releasing one.
    private let delivered = AtomicWord()

    init(callSite: CallSite, window: UInt64 = EarlyReleaseCheck.window) {
      self.callSite = callSite
      self.window = window
      subscribedAt = DispatchTime.now().uptimeNanoseconds
    }

    /// Called before each call of the handler.
    func noteDelivery() {
      if delivered.load() == 0 {
        delivered.store(1)
      }
    }

    /// Called by the token's `deinit` when it was not cancelled before: warns if the release looks like a mistake.
    func tokenReleased() {
      guard delivered.load() == 0, ThreadIdentity.current == thread,
        DispatchTime.now().uptimeNanoseconds &- subscribedAt < window
      else { return }
      EarlyReleaseWarnings.warn(about: callSite)
    }
  }

  // The call site, thread, times and window are immutable; `delivered` is read and written only atomically.
  extension EarlyReleaseCheck: @unchecked Sendable {}

  /// The warnings about tokens released at once: one per call site, written to standard error.
  enum EarlyReleaseWarnings {
    private static let issued = LockedState<[CallSite: String]>([:])

    /// Writes the warning for `callSite` to standard error, unless it was written before.
    ///
    /// - Returns: Whether it wrote the warning, that is, whether this was the first for `callSite`.
    @discardableResult
    static func warn(about callSite: CallSite) -> Bool {
      let text = message(for: callSite)
      let isFirst = issued.withLock { issued in
        guard issued[callSite] == nil else { return false }
        issued[callSite] = text
        return true
      }
      guard isFirst else { return false }
      DebugWarnings.emit(text, about: callSite)
      return true
    }

    /// The warning written for `callSite`, or `nil` if there was none. For tests.
    static func warning(for callSite: CallSite) -> String? {
      issued.withLock { $0[callSite] }
    }

    static func message(for callSite: CallSite) -> String {
      "EventBus warning: the subscription made at \(callSite) ended before its handler ran once: its EventSubscription "
        + "was released, not cancelled, right after subscribing, as `_ = output.subscribe { … }` does. Keep the token "
        + "for as long as you want events, in a property or with `.store(in: &subscriptions)`; if ending it was "
        + "meant, call `cancel()`. (Debug builds only; once per call site.)"
    }
  }
#endif
