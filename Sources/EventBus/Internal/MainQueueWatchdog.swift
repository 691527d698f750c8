#if DEBUG
  import Dispatch

  /// Debug builds only: warns, once a process, when `.main` deliveries have waited for ``patience`` and the main queue
  /// has never run one of the blocks that carry them.
  ///
  /// That is what a command-line tool with a synchronous `main.swift` looks like from inside: nothing serves the main
  /// queue, so `.main` deliveries sent from another thread never arrive, and nothing else says why. A main queue that
  /// has run blocks before is served; one blocked for a while later (a long synchronous step on the main actor) is not
  /// this trap, and gets no warning.
  ///
  /// Lanes report each block they put on the main queue (``scheduled()``) and each that starts (``started()``); both
  /// take a lock, in debug builds only, once a burst, not once an event. Until a block has started, a block sets a
  /// timer on a background queue if none is set, which looks once, after ``patience``.
  package enum MainQueueWatchdog {
    package struct State: Sendable {
      /// Blocks put on the main queue and not yet started.
      package var waiting = 0
      /// Blocks started, ever.
      package var startedCount: UInt = 0
      /// What `startedCount` was when watching began: 0, or where the watchdog's tests put it (``reset()``).
      package var baseline: UInt = 0
      /// Whether a timer is set.
      package var isArmed = false
      package var hasWarned = false

      /// Whether the main queue has run none of the blocks since watching began.
      package var isUnserved: Bool { startedCount == baseline }

      /// Notes a block put on the main queue. Returns whether to set the timer.
      package mutating func scheduled() -> Bool {
        waiting += 1
        guard !isArmed, !hasWarned, isUnserved else { return false }
        isArmed = true
        return true
      }

      /// Notes a block that started.
      package mutating func started() {
        waiting -= 1
        startedCount &+= 1
      }

      /// What the timer does when it fires.
      package enum Verdict: Equatable, Sendable {
        /// The main queue is served, or nothing waits: nothing to say.
        case done
        /// Blocks waited the whole time and the main queue has never run one: warn, once.
        case warn
      }

      /// The timer fired.
      package mutating func timerFired() -> Verdict {
        isArmed = false
        guard waiting > 0, !hasWarned, isUnserved else { return .done }
        hasWarned = true
        return .warn
      }
    }

    private static let state = LockedState(State())
    private static let settings = LockedState(Duration.seconds(5))

    /// How long `.main` deliveries wait, with no main-queue block started, before the warning. Five seconds, shorter
    /// in the watchdog's own tests.
    package static var patience: Duration {
      get { settings.withLock { $0 } }
      set { settings.withLock { $0 = newValue } }
    }

    /// Watches again from now, as if the main queue had never run a block: for the watchdog's own tests, with the
    /// main queue blocked. The count of waiting blocks stays, since blocks queued before may start after.
    package static func reset() {
      state.withLock { state in
        state.hasWarned = false
        state.baseline = state.startedCount
      }
    }

    /// Called by a lane when it puts a block on the main queue.
    static func scheduled() {
      if state.withLock({ $0.scheduled() }) {
        arm()
      }
    }

    /// Called by a lane's block on the main queue when it starts.
    static func started() {
      state.withLock { $0.started() }
    }

    private static func arm() {
      let delay = patience
      let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
      DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) {
        _ = timerFired()
      }
    }

    /// What the timer does when it fires; the watchdog's tests call it too, instead of waiting.
    package static func timerFired() -> State.Verdict {
      let verdict = state.withLock { $0.timerFired() }
      if verdict == .warn {
        DebugWarnings.emit(warning(after: patience), about: callSite)
      }
      return verdict
    }

    /// The call site warnings are reported about: this file, which a test captures.
    package static let callSite = CallSite(fileID: #fileID, line: #line)

    static func warning(after delay: Duration) -> String {
      """
      EventBus warning: .main deliveries have waited \(delay.components.seconds) seconds and the main queue has never run \
      one. A command-line tool whose main.swift returns to nothing never serves the main queue: end it with \
      dispatchMain(), make main async (@main with static func main() async), or run RunLoop.main.run(). Otherwise \
      the main thread is blocked. (Debug builds only; said once.)
      """
    }
  }
#endif
