import EventBus

/// An upstream that can drop, such as a database or broker connection: runs a session that connects and forwards
/// events, and when the session ends while the broadcaster still has subscribers, waits out a backoff and runs a new
/// one.
///
/// The session is your code: connect with your client, subscribe, call ``Session/connected()`` once the
/// subscription is in place, then forward events until the connection ends. Return or throw when it does.
///
/// ```swift
/// let source = ReconnectingSource<OrderEvent>(onChange: logConnectionChange) { session in
///   let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
///   defer { _ = connection.close() }
///   try await connection.listen(on: "orders") { notifications in
///     session.connected()
///     try await session.sink.send(contentsOf: notifications, named: "orders") { try OrderEvent(json: $0.payload) }
///   }
/// }
/// let orders = Broadcaster(source: source)
/// ```
///
/// The broadcaster's first subscriber starts the first session; its last one cancels the session's task, which must
/// then end. Sessions never overlap, across reconnects and across a disconnect and connect of the broadcaster: a new
/// one starts only after the previous one has returned.
///
/// ## Losses
/// A session that had connected and then ends while subscribers remain is a *loss*: whatever the upstream sent until
/// the next session connects is gone, unless the upstream itself keeps it. The source counts losses in
/// ``statistics``, reports each to `onChange`, and tells the next session that it ``Session/followsLoss``, so it can
/// tell subscribers they missed events (to fetch the current state, for example). It replays nothing.
///
/// A session that ends before calling ``Session/connected()`` is a failed attempt. The attempt after a loss waits
/// ``ReconnectBackoff/initial``; each failed attempt multiplies the wait by ``ReconnectBackoff/multiplier``, up to
/// ``ReconnectBackoff/maximum``. So at a cold start, where the first attempt already failed, the first wait is
/// `initial × multiplier`: see ``ReconnectBackoff`` for the rule, and for `jitter: 0` in tests.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public struct ReconnectingSource<Event: Sendable>: EventSource {
  private let backoff: ReconnectBackoff
  private let wait: @Sendable (Duration) async throws -> Void
  private let onChange: (@Sendable (UpstreamChange) -> Void)?
  private let runSession: @Sendable (Session) async throws -> Void
  private let machine = LockedState(ReconnectStateMachine())
  private let iterations = SerialIterations()

  /// Creates a source that runs `session` to connect, and runs it again after each end while it has subscribers; its
  /// backoff waits on `ContinuousClock`.
  ///
  /// - Parameters:
  ///   - backoff: How long to wait before each new session.
  ///   - onChange: Called with each connection, loss and failed attempt, on the session's task, with no lock held.
  ///   - session: Connects, calls ``Session/connected()`` once subscribed, sends events through ``Session/sink``,
  ///     and returns or throws when the connection ends. It must end soon after its task is cancelled.
  public init(
    backoff: ReconnectBackoff = ReconnectBackoff(),
    onChange: (@Sendable (UpstreamChange) -> Void)? = nil,
    session: @escaping @Sendable (Session) async throws -> Void
  ) {
    self.init(backoff: backoff, clock: ContinuousClock(), onChange: onChange, session: session)
  }

  /// Creates a source that runs `session` to connect, and runs it again after each end while it has subscribers; its
  /// backoff waits on `clock`.
  ///
  /// ```swift
  /// let source = ReconnectingSource<OrderEvent>(backoff: backoff, clock: clock) { session in … }
  /// ```
  ///
  /// - Parameters:
  ///   - backoff: How long to wait before each new session.
  ///   - clock: What the backoff waits on. A test passes a clock it advances by hand, to see the waits without
  ///     waiting them out.
  ///   - onChange: Called with each connection, loss and failed attempt, on the session's task, with no lock held.
  ///   - session: Connects, calls ``Session/connected()`` once subscribed, sends events through ``Session/sink``,
  ///     and returns or throws when the connection ends. It must end soon after its task is cancelled.
  public init(
    backoff: ReconnectBackoff = ReconnectBackoff(),
    clock: some Clock<Duration>,
    onChange: (@Sendable (UpstreamChange) -> Void)? = nil,
    session: @escaping @Sendable (Session) async throws -> Void
  ) {
    self.backoff = backoff
    wait = { try await clock.sleep(for: $0) }
    self.onChange = onChange
    self.runSession = session
  }

  /// The connections, losses and failed attempts so far, over every connection of the broadcaster.
  public var statistics: ReconnectStatistics {
    machine.withLock { $0.statistics }
  }

  /// Starts a task that runs sessions, one after another, until it is cancelled.
  ///
  /// - Parameter sink: Where the sessions send their events.
  /// - Returns: The task.
  public func start(emitting sink: EventSink<Event>) -> Task<Void, Never> {
    let (backoff, wait, onChange, runSession, machine) = (backoff, wait, onChange, runSession, machine)
    return iterations.start {
      machine.withLock { $0.start() }
      while true {
        let (number, followsLoss) = machine.withLock { $0.beginSession() }
        let session = Session(
          sink: sink, number: number, followsLoss: followsLoss, machine: machine, onChange: onChange)
        var failure: (any Error)?
        do {
          try await runSession(session)
        } catch {
          failure = error
        }
        let stopped = Task.isCancelled
        let randomFraction = Double.random(in: 0..<1)
        let change = machine.withLock {
          $0.sessionEnded(error: failure, stopped: stopped, backoff: backoff, randomFraction: randomFraction)
        }
        guard let change, let delay = change.retryDelay else { return }
        onChange?(change)
        do {
          try await wait(delay)
        } catch {
          return
        }
      }
    }
  }

  /// Cancels the task, which ends the running session; returns without waiting for it.
  ///
  /// - Parameter task: The task `start(emitting:)` returned.
  public func stop(_ task: Task<Void, Never>) {
    task.cancel()
  }
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension ReconnectingSource {
  /// One attempt to connect and forward events: what a session receives.
  public struct Session: Sendable {
    /// Where the session sends its events and reports payloads it could not decode.
    public let sink: EventSink<Event>
    /// Whether this session follows a lost connection: events sent since the loss were missed. Tell subscribers, if
    /// they can recover (by fetching the current state).
    public let followsLoss: Bool
    private let number: Int
    private let machine: LockedState<ReconnectStateMachine>
    private let onChange: (@Sendable (UpstreamChange) -> Void)?

    init(
      sink: EventSink<Event>,
      number: Int,
      followsLoss: Bool,
      machine: LockedState<ReconnectStateMachine>,
      onChange: (@Sendable (UpstreamChange) -> Void)?
    ) {
      self.sink = sink
      self.number = number
      self.followsLoss = followsLoss
      self.machine = machine
      self.onChange = onChange
    }

    /// Reports that the upstream subscription is in place (after `LISTEN`, `SUBSCRIBE`): from now on, the end of
    /// the session is a loss, not a failed attempt, and the backoff starts again from its initial wait. Later calls
    /// do nothing.
    public func connected() {
      if let change = machine.withLock({ $0.connected(session: number) }) {
        onChange?(change)
      }
    }
  }
}
