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
  struct Waiter {
    let id: UInt64
    let count: Int
    let continuation: CheckedContinuation<Bool, Never>
    var timeout: Task<Void, Never>?
  }

  struct State {
    var events: [Event] = []
    var waiters: [Waiter] = []
    var nextWaiterID: UInt64 = 0
    /// The outputs of the streams recorded, for ``waitUntilDelivered()``.
    var outputs: [WeakOutput] = []
    /// The subscriptions that record, whose buffering policies may drop events (``droppedCount``).
    var subscriptions: [ResponderSubscription] = []
  }

  /// Weak: a recorder must not keep an output alive.
  struct WeakOutput {
    weak var output: (any EntryOwner)?
  }

  let state = LockedState(State())

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
      stream._subscribe(self, on: context.deliveryContext, at: site) { recorder, event in
        recorder.handle(event: event)
      })
  }

  /// Keeps `subscription`, for ``droppedCount``, and its output for ``waitUntilDelivered()``, and returns
  /// `subscription`.
  private func remembering(_ subscription: ResponderSubscription) -> ResponderSubscription {
    state.withLock { $0.subscriptions.append(subscription) }
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

  /// The events the buffering policies of this recorder's subscriptions dropped (a recording on
  /// `.queue(q, bufferingPolicy: …)` or `.main(bufferingPolicy: …)`): never recorded, and counted here, so that
  /// `count + droppedCount` is everything the recorded streams sent it.
  ///
  /// ```swift
  /// let recorder = EventRecorder(progress, on: .queue(background, bufferingPolicy: .latest))
  /// try await recorder.waitUntilDelivered()
  /// #expect(recorder.count + recorder.droppedCount == 100)
  /// ```
  public var droppedCount: Int {
    let subscriptions = state.withLock { $0.subscriptions }
    return subscriptions.reduce(0) { $0 + $1.droppedCount }
  }

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

}
