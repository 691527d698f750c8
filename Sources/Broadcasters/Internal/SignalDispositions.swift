import EventBus

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// The process-wide dispositions of the signals that signal sources observe.
///
/// A dispatch signal source only observes a signal; the signal's disposition still applies. So while a signal is
/// observed it must not run its previous disposition (`SIGTERM`'s default terminates the process), and when nobody
/// observes it any more the previous disposition must come back. The first acquirer of a signal saves the previous
/// disposition and replaces it; the last releaser restores it.
///
/// The replacement differs by platform. On Darwin, kqueue sees a signal even when it is ignored, so it is `SIG_IGN`.
/// On Linux, libdispatch reads signals from a `signalfd`, which only sees signals that are blocked, not ignored: it
/// installs a handler of its own (which blocks the signal and re-sends it to its manager thread), but only the first
/// time the process registers a source for that signal. So the first connection installs `SIG_IGN` until the source
/// is registered, and the handler libdispatch then installed is remembered and reinstalled by later connections;
/// with `SIG_IGN` instead, a reconnected source would never see the signal.
enum SignalDispositions {
  private struct State: Sendable {
    var observers: [Int32: Observation] = [:]
    /// Linux: the handler libdispatch installed for each signal, once seen.
    var dispatchHandlers: [Int32: SignalAction] = [:]
  }

  private struct Observation: Sendable {
    var count: Int
    var previous: SignalAction
  }

  private static let state = LockedState(State())

  /// Takes `signal` over, before a dispatch source is created for it.
  static func acquire(_ signal: Int32) {
    state.withLock { state in
      if state.observers[signal] != nil {
        state.observers[signal]?.count += 1
        return
      }
      let replacement = state.dispatchHandlers[signal] ?? .ignore
      let previous = replacement.install(for: signal)
      state.observers[signal] = Observation(count: 1, previous: previous)
    }
  }

  /// Remembers the handler libdispatch installed, once a dispatch source for `signal` is registered (Linux).
  static func noteRegistered(_ signal: Int32) {
    #if !canImport(Darwin)
      state.withLock { state in
        guard state.dispatchHandlers[signal] == nil, let observation = state.observers[signal] else { return }
        let current = SignalAction.current(for: signal)
        if !current.isIgnoreOrDefault, !current.hasSameHandler(as: observation.previous) {
          state.dispatchHandlers[signal] = current
        }
      }
    #endif
  }

  /// Gives `signal` back, after its dispatch source was cancelled.
  static func release(_ signal: Int32) {
    state.withLock { state in
      guard let observation = state.observers[signal] else { return }
      if observation.count > 1 {
        state.observers[signal]?.count -= 1
      } else {
        state.observers[signal] = nil
        _ = observation.previous.install(for: signal)
      }
    }
  }
}

/// A saved `sigaction`.
private struct SignalAction {
  var action: sigaction

  static var ignore: SignalAction {
    var action = sigaction()
    #if canImport(Darwin)
      action.__sigaction_u.__sa_handler = SIG_IGN
    #else
      action.__sigaction_handler.sa_handler = SIG_IGN
    #endif
    sigemptyset(&action.sa_mask)
    return SignalAction(action: action)
  }

  static func current(for signal: Int32) -> SignalAction {
    var current = sigaction()
    sigaction(signal, nil, &current)
    return SignalAction(action: current)
  }

  /// Installs this action and returns the one it replaced.
  func install(for signal: Int32) -> SignalAction {
    var replacement = action
    var previous = sigaction()
    sigaction(signal, &replacement, &previous)
    return SignalAction(action: previous)
  }

  private var handlerAddress: UInt {
    #if canImport(Darwin)
      unsafeBitCast(action.__sigaction_u.__sa_handler, to: UInt.self)
    #else
      unsafeBitCast(action.__sigaction_handler.sa_handler, to: UInt.self)
    #endif
  }

  var isIgnoreOrDefault: Bool {
    handlerAddress == SignalAction.ignore.handlerAddress || handlerAddress == 0
  }

  func hasSameHandler(as other: SignalAction) -> Bool {
    handlerAddress == other.handlerAddress
  }
}

// A plain C struct: the handler is a C function pointer (or `SIG_IGN` / `SIG_DFL`), the mask and flags are values.
// It is only copied, under `SignalDispositions`' lock, and handed to `sigaction`.
extension SignalAction: @unchecked Sendable {}
