/// Records the events of any ``EventStream`` so a test can assert on them, and waits for events that arrive later.
///
/// ```swift
/// @Test func loadingShowsTheSpinnerThenTheItems() async {
///   let viewModel = CatalogViewModel(loader: .stub(["Tea"]))
///   let recorder = EventRecorder(viewModel.output)
///   viewModel.start()
///   #expect(recorder.events == [.loading(true), .items(["Tea"]), .loading(false)])
/// }
/// ```
///
/// For a subscription delivered on a queue or the main actor, wait for the events first:
///
/// ```swift
/// let recorder = EventRecorder(output, on: .queue(background))
/// output.send(1)
/// #expect(await recorder.waitForEvents(count: 1, timeout: .seconds(2)))
/// ```
///
/// Create the recorder before the code under test sends: it records what is sent from then on. A recorder created on
/// the output of a view model that ``EventView/bind(to:fileID:line:)`` has already started has missed what `start()`
/// sent; in a debug build it writes an `EventBus warning:` line that says so.
///
/// The recorder subscribes itself as a responder: recording ends when it is released, or when the
/// ``ResponderSubscription`` returned by ``record(from:on:fileID:line:)-(_,DeliveryContext,_,_)`` is cancelled. One
/// recorder can record from several streams into one list. Every method may be called from any thread.
public final class EventRecorder<Event: Sendable>: EventResponder, Sendable {
  private struct Waiter {
    let id: UInt64
    let count: Int
    let continuation: CheckedContinuation<Bool, Never>
    var timeout: Task<Void, Never>?
  }

  private struct State {
    var events: [Event] = []
    var waiters: [Waiter] = []
    var nextWaiterID: UInt64 = 0
    /// The outputs of the streams recorded, for ``waitUntilDelivered()``.
    var outputs: [WeakOutput] = []
  }

  /// Weak: a recorder must not keep an output alive.
  private struct WeakOutput {
    weak var output: (any EntryOwner)?
  }

  private let state = LockedState(State())

  /// Creates a recorder that records nothing yet; call ``record(from:on:fileID:line:)-(_,DeliveryContext,_,_)`` or pass
  /// it to `subscribe`.
  public init() {}

  /// Creates a recorder that records the events of `stream`, as
  /// ``record(from:on:fileID:line:)-(_,DeliveryContext,_,_)`` does.
  public convenience init<Stream: EventStream<Event>>(
    _ stream: Stream,
    on context: DeliveryContext = .immediate,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init()
    record(from: stream, on: context, fileID: fileID, line: line)
  }

  /// Creates a recorder that records the events of `stream` on the main actor, as
  /// ``record(from:on:fileID:line:)-(_,MainActorContext,_,_)`` does.
  public convenience init<Stream: EventStream<Event>>(
    _ stream: Stream,
    on context: MainActorContext,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    self.init()
    record(from: stream, on: context, fileID: fileID, line: line)
  }

  /// Starts recording the events of `stream`.
  ///
  /// - Parameters:
  ///   - stream: What to record.
  ///   - context: Where the events are recorded; `.immediate` by default.
  ///   - fileID: The file of the call, for `debugDescription`; leave the default, and `line`'s.
  ///   - line: The line of the call.
  /// - Returns: A handle that stops this recording when cancelled. Dropping it does not stop it.
  @discardableResult
  public func record<Stream: EventStream<Event>>(
    from stream: Stream,
    on context: DeliveryContext = .immediate,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> ResponderSubscription {
    let site = CallSite(fileID: fileID, line: line)
    Self.warnIfLate(recordingFrom: stream, at: site)
    return remembering(
      stream._subscribe(self, on: context, at: site) { recorder, event in
        recorder.handle(event: event)
      })
  }

  /// Starts recording the events of `stream` on the main actor, as a `.main` subscriber would receive them. Otherwise
  /// as ``record(from:on:fileID:line:)-(_,DeliveryContext,_,_)``.
  @discardableResult
  public func record<Stream: EventStream<Event>>(
    from stream: Stream,
    on context: MainActorContext,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> ResponderSubscription {
    let site = CallSite(fileID: fileID, line: line)
    Self.warnIfLate(recordingFrom: stream, at: site)
    return remembering(
      stream._subscribe(self, on: DeliveryContext(kind: .mainActor), at: site) { recorder, event in
        recorder.handle(event: event)
      })
  }

  /// Keeps the output of `subscription` for ``waitUntilDelivered()``, and returns `subscription`.
  private func remembering(_ subscription: ResponderSubscription) -> ResponderSubscription {
    guard let output = subscription.entryOwner else { return subscription }
    let live = state.withLock { state in
      // Taken out as strong references and released after unlocking, as anything a lock holder lets go.
      let live = state.outputs.compactMap(\.output)
      if !live.contains(where: { $0 === output }) {
        state.outputs = live.map { WeakOutput(output: $0) } + [WeakOutput(output: output)]
      }
      return live
    }
    _ = live
    return subscription
  }

  /// Returns once every event sent before the call to the streams this recorder records has been delivered to
  /// every subscriber, the recorder included, in every delivery context: see ``Output/waitUntilDelivered()``.
  ///
  /// ```swift
  /// let recorder = EventRecorder(output, on: .queue(background))
  /// output.send(1)
  /// output.send(2)
  /// try await recorder.waitUntilDelivered()
  /// #expect(recorder.events == [1, 2])  // and nothing more is on its way
  /// ```
  ///
  /// Unlike ``waitForEvents(count:timeout:)-(_,Duration)``, it needs no count: when it returns, everything sent so far is recorded,
  /// so a test also sees that no other event came. It has no timeout either; give the test a time limit instead
  /// (Swift Testing's `.timeLimit` trait).
  ///
  /// - Throws: `CancellationError` when the task is cancelled first; the wait then leaves nothing behind.
  public func waitUntilDelivered() async throws {
    let outputs = state.withLock { $0.outputs.compactMap(\.output) }
    for output in outputs {
      try await output.waitUntilDelivered()
    }
  }

  /// Debug builds: warns when `stream` is the output of a view model that `bind(to:)` has already started, so the
  /// recording may lack what `start()` sent. Release builds: nothing.
  private static func warnIfLate<Stream: EventStream<Event>>(recordingFrom stream: Stream, at site: CallSite) {
    #if DEBUG
      guard let output = stream as? Output<Event>, output.replayCount == 0, let start = output.bindingStart else {
        return
      }
      DebugWarnings.emit(
        "EventBus warning: the EventRecorder made at \(site) records an output whose view model bind(to:) already "
          + "started, at \(start): it does not have what start() sent. Create the recorder before bind(to:). "
          + "(Debug builds only.)",
        about: site)
    #endif
  }

  /// The recorded events, oldest first.
  public var events: [Event] { state.withLock { $0.events } }

  /// The number of recorded events.
  public var count: Int { state.withLock { $0.events.count } }

  /// Records `event`. The subscriptions made by ``record(from:on:fileID:line:)-(_,DeliveryContext,_,_)`` call it; a
  /// test may call it directly.
  ///
  /// - Parameter event: The event to append.
  public func handle(event: Event) {
    let satisfied = state.withLock { state -> [Waiter] in
      state.events.append(event)
      let count = state.events.count
      guard state.waiters.contains(where: { $0.count <= count }) else { return [] }
      let satisfied = state.waiters.filter { $0.count <= count }
      state.waiters.removeAll { $0.count <= count }
      return satisfied
    }
    for waiter in satisfied {
      waiter.timeout?.cancel()
      waiter.continuation.resume(returning: true)
    }
  }

  /// Waits until at least `count` events have been recorded, or 5 seconds have passed.
  ///
  /// ```swift
  /// #expect(await recorder.waitForEvents(count: 3))
  /// #expect(recorder.events == [1, 2, 3])
  /// ```
  ///
  /// As ``waitForEvents(count:timeout:)-(_,Duration)`` with its default timeout. In a test, prefer
  /// `expectEvents(count:timeout:)` from `EventBusTesting`, which fails the test saying what arrived.
  ///
  /// - Parameter count: How many events to wait for, counting those already recorded.
  /// - Returns: `true` when `count` events were recorded in time; `false` on timeout or when the waiting task is
  ///   cancelled.
  public func waitForEvents(count: Int) async -> Bool {
    await waitForEvents(count: count, timeoutNanoseconds: 5_000_000_000)
  }

  /// Waits until at least `count` events have been recorded, or `timeout` has passed.
  ///
  /// ```swift
  /// #expect(await recorder.waitForEvents(count: 3, timeout: .seconds(2)))
  /// #expect(recorder.events == [1, 2, 3])
  /// ```
  ///
  /// Returns at once when enough events are already there. Suspends without blocking a thread, so events delivered
  /// on the main actor arrive while a main-actor test waits. It only answers; in a test, `expectEvents(count:timeout:)`
  /// from `EventBusTesting` waits the same way and, on a timeout, fails the test with what arrived:
  /// `received 1 of 2: [loading(true)]`.
  ///
  /// - Parameters:
  ///   - count: How many events to wait for, counting those already recorded.
  ///   - timeout: The longest wait, in real time. Zero or a negative duration does not wait: the result says whether
  ///     the events are already there. One too long to count in nanoseconds (585 years) waits without a time limit,
  ///     until the events arrive or the task is cancelled.
  /// - Returns: `true` when `count` events were recorded in time; `false` on timeout or when the waiting task is
  ///   cancelled.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  public func waitForEvents(count: Int, timeout: Duration) async -> Bool {
    await waitForEvents(count: count, timeoutNanoseconds: Self.nanoseconds(forTimeout: timeout))
  }

  /// Waits until at least `count` events have been recorded, or `timeout` seconds have passed; the `Duration` form,
  /// ``waitForEvents(count:timeout:)-(_,Duration)``, replaces it.
  ///
  /// - Parameters:
  ///   - count: How many events to wait for, counting those already recorded.
  ///   - timeout: The longest wait, in seconds; 5 by default. `.infinity`, or any wait too long to count in
  ///     nanoseconds, waits without a time limit, until the events arrive or the task is cancelled. Zero, a negative
  ///     value or NaN does not wait: the result says whether the events are already there.
  /// - Returns: `true` when `count` events were recorded in time; `false` on timeout or when the waiting task is
  ///   cancelled.
  @available(*, deprecated, message: "pass the timeout as a Duration: waitForEvents(count:timeout: .seconds(5))")
  public func waitForEvents(count: Int, timeout: Double = 5) async -> Bool {
    await waitForEvents(count: count, timeoutNanoseconds: Self.nanoseconds(forTimeout: timeout))
  }

  /// Waits for the first recorded event that matches `predicate`, counting those already recorded, and returns it;
  /// `nil` when none came within `timeout` or the waiting task was cancelled.
  ///
  /// ```swift
  /// let loaded = await recorder.waitForEvent(timeout: .seconds(2)) { if case .items = $0 { true } else { false } }
  /// #expect(loaded == .items(["Tea"]))
  /// ```
  ///
  /// `predicate` runs on the waiting task, never under the recorder's lock, once for each recorded event until one
  /// matches. In a test, `expectEvent(timeout:where:)` from `EventBusTesting` also fails the test on a timeout, listing
  /// what arrived.
  ///
  /// - Parameters:
  ///   - timeout: The longest wait, in real time; 5 seconds by default.
  ///   - predicate: Whether an event is the one to wait for.
  /// - Returns: The first matching event, or `nil`.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  public func waitForEvent(
    timeout: Duration = .seconds(5),
    where predicate: (Event) throws -> Bool
  ) async rethrows -> Event? {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    var looked = 0
    while true {
      let events = self.events
      if looked < events.count {
        if let match = try events[looked...].first(where: predicate) { return match }
        looked = events.count
      }
      let remaining = ContinuousClock.now.duration(to: deadline)
      guard remaining > .zero,
        await waitForEvents(count: looked + 1, timeoutNanoseconds: Self.nanoseconds(forTimeout: remaining))
      else { return nil }
    }
  }

  /// Waits until at least `count` events have been recorded, or `timeoutNanoseconds` have passed (`nil`: no limit).
  private func waitForEvents(count: Int, timeoutNanoseconds: UInt64?) async -> Bool {
    let id = state.withLock { state in
      state.nextWaiterID += 1
      return state.nextWaiterID
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let isSatisfied = state.withLock { state -> Bool in
          if state.events.count >= count { return true }
          state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
          return false
        }
        if isSatisfied {
          continuation.resume(returning: true)
          return
        }
        guard let nanoseconds = timeoutNanoseconds else {
          // No time limit: only the events or cancellation end the wait.
          if Task.isCancelled {
            giveUp(waiter: id)
          }
          return
        }
        let timeoutTask = Task { [weak self] in
          try? await Task.sleep(nanoseconds: nanoseconds)
          self?.giveUp(waiter: id)
        }
        let isWaiting = state.withLock { state -> Bool in
          guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return false }
          state.waiters[index].timeout = timeoutTask
          return true
        }
        if !isWaiting {
          // Satisfied between the two locks: the timer has nothing left to do.
          timeoutTask.cancel()
        }
        if Task.isCancelled {
          giveUp(waiter: id)
        }
      }
    } onCancel: {
      giveUp(waiter: id)
    }
  }

  /// A timeout as nanoseconds to sleep: 0 for zero and negative durations, `nil` (no limit) for anything beyond
  /// `UInt64.max` nanoseconds (585 years).
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  static func nanoseconds(forTimeout timeout: Duration) -> UInt64? {
    guard timeout > .zero else { return 0 }
    // Checked before `components`, which traps for seconds beyond `Int64`.
    guard timeout < .seconds(18_446_744_074) else { return nil }
    let (seconds, attoseconds) = timeout.components
    let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    // Rounded up: a wait never ends before its timeout.
    let fraction = UInt64((attoseconds + 999_999_999) / 1_000_000_000)
    let (total, overflowAgain) = whole.addingReportingOverflow(fraction)
    return overflow || overflowAgain ? nil : total
  }

  /// A timeout in seconds as nanoseconds to sleep: 0 for zero, negative and NaN, `nil` (no limit) for infinity and for
  /// anything beyond `UInt64.max` nanoseconds (585 years), where converting would trap.
  static func nanoseconds(forTimeout timeout: Double) -> UInt64? {
    guard timeout > 0 else { return 0 }
    let nanoseconds = (timeout * 1e9).rounded(.up)
    guard nanoseconds < Double(UInt64.max) else { return nil }
    return UInt64(nanoseconds)
  }

  /// Resumes the waiter `id` with `false`, unless it has already been resumed.
  private func giveUp(waiter id: UInt64) {
    let waiter = state.withLock { state -> Waiter? in
      guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
      return state.waiters.remove(at: index)
    }
    guard let waiter else { return }
    waiter.timeout?.cancel()
    waiter.continuation.resume(returning: false)
  }
}
