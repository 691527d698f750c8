import BenchHarness
import Dispatch
import EventBus

/// `overload` and `overload-main`: one thread sends to N slow subscribers as fast as it can, for a fixed time, and
/// the figures say what waited, what it took of the heap, and what each buffering policy dropped.
///
/// Each contender is one buffering policy, which all N subscribers are subscribed with. Each contender and N is one
/// run, one at a time (runs side by side would share the processors, and the heap is the whole process's):
///
/// 1. The output and its N subscribers are made and subscribed: each on a serial queue of its own (`overload`) or on
///    the main actor (`overload-main`), each handler spinning for ``busyMicroseconds`` an event (``BusyWork``), so
///    that every subscriber is slower than the sender.
/// 2. A sampler thread is started (``OverloadSampler``), then the heap in use is read: the base of `peak_heap_bytes`.
/// 3. The measuring thread sends for ``sendingMilliseconds`` (``quickSendingMilliseconds`` with `--quick`), reading
///    every subscriber's `waitingCount` every ``sendsPerSample`` sends; the sampler reads it, and the heap, every
///    millisecond.
/// 4. The sender stops and reads both once more; the handlers skip their busy work from then on, and
///    `Output.waitUntilDelivered()` returns once every event sent has been delivered or dropped.
/// 5. The counts are read: `sent` by the sender, `delivered` by the handlers, `dropped` from each subscription's
///    `droppedCount`. The run fails unless sent × N = delivered + dropped.
///
/// `peak_heap_bytes` is the largest heap reading less the base: the events that waited, and the buffers and blocks
/// that carried them. An unbounded subscriber's grows with the run; a bounded one's stops at what its policy keeps.
enum OverloadScenario {
  /// How long the sender sends, in milliseconds.
  static let sendingMilliseconds = 1_000
  /// How long the sender sends with `--quick`, in milliseconds.
  static let quickSendingMilliseconds = 250
  /// How long a handler spins for each event, in microseconds: a few times what a send costs at N = 100.
  static let busyMicroseconds = 20
  /// How many events the bounded policies keep: `newest-100` and `oldest-100`.
  static let bound = 100
  /// How often the sender reads the subscribers' `waitingCount`, in sends.
  static let sendsPerSample = 256
  /// How often the sender reads the clock, in sends.
  static let sendsPerClockReading = 16
  /// How long the subscribers may take to drain before the run fails, in seconds.
  static let drainTimeoutSeconds = 60

  /// `1 s, 250 ms with --quick`, for the summaries.
  static var durationDescription: String {
    let words = { (milliseconds: Int) in
      milliseconds.isMultiple(of: 1_000) ? "\(milliseconds / 1_000) s" : "\(milliseconds) ms"
    }
    return "\(words(sendingMilliseconds)), \(words(quickSendingMilliseconds)) with --quick"
  }

  /// `20 µs`, for the summaries.
  static var busyWorkDescription: String { "\(busyMicroseconds) µs" }

  /// How a table's figure was taken, after the scenario's summary; `nil` for a metric the scenarios do not report.
  static func howTaken(_ metric: Metric) -> String? {
    switch metric {
    case .peakHeapBytes: "the largest heap reading, sending and draining, less the heap before"
    case .peakWaiting: "the largest waitingCount of one subscriber, read every \(sendsPerSample) sends and every ms"
    case .sent: "events the sender sent"
    case .delivered: "handler calls; sent × N = delivered + dropped"
    case .dropped: "droppedCount over the N subscriptions; sent × N = delivered + dropped"
    default: nil
    }
  }

  /// What one run counted.
  struct Figures: Equatable, Sendable {
    /// Events the sender sent.
    var sent: Int
    /// Handler calls, all subscribers together.
    var delivered: Int
    /// Events the policies dropped, all subscribers together.
    var dropped: Int
    /// The most events waiting for one subscriber, sampled.
    var peakWaiting: Int
    /// The most the heap grew above its size before the run; `nil` where the platform cannot tell.
    var peakHeapBytes: Int?

    /// The figure of `metric`; `nil` for a metric the scenarios do not report, and for the heap where it is not read.
    func value(of metric: Metric) -> Int? {
      switch metric {
      case .sent: sent
      case .delivered: delivered
      case .dropped: dropped
      case .peakWaiting: peakWaiting
      case .peakHeapBytes: peakHeapBytes
      default: nil
      }
    }
  }

  /// The figures of each of `contenders` at `responderCount`, each run sending for `sending`, its handlers spinning
  /// `busyWork` an event.
  ///
  /// - Throws: ``MeasurementFailure`` if the subscribers did not drain within ``drainTimeoutSeconds``, or if what
  ///   they received and dropped is not every event sent to each of them.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  static func measure(
    _ scenario: Scenario, contenders: [ContenderName], responderCount: Int, sending: Duration,
    busyWork: Duration = .microseconds(busyMicroseconds)
  ) throws(MeasurementFailure) -> [Figures] {
    var figures: [Figures] = []
    for name in contenders {
      figures.append(
        try run(scenario, contender: name, responderCount: responderCount, sending: sending, busyWork: busyWork))
    }
    return figures
  }

  /// The rows of `figures`, metric by metric in the scenario's order, contender by contender.
  static func rows(
    _ scenario: Scenario, contenders: [ContenderName], responderCount: Int, figures: [Figures]
  ) -> [ResultRow] {
    scenario.metrics.flatMap { metric in
      zip(contenders, figures).compactMap { name, figures in
        figures.value(of: metric).map { value in
          ResultRow(
            scenario: scenario, metric: metric, contender: name, n: responderCount,
            figure: Statistics.Summary(exactly: Double(value)))
        }
      }
    }
  }

  /// One run: see the type's steps.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  static func run(
    _ scenario: Scenario, contender name: ContenderName, responderCount: Int, sending: Duration, busyWork: Duration
  ) throws(MeasurementFailure) -> Figures {
    guard let policy = name.overloadPolicy else {
      preconditionFailure("\(name.name) takes no part in the overload scenarios")
    }
    let work = BusyWork(nanoseconds: UInt64(busyWork.nanoseconds))
    let contender = OverloadContender(scenario, policy: policy, responderCount: responderCount, work: work)
    let readsHeap = HeapUsage.isAvailable
    let sampler = OverloadSampler(contender, readsHeap: readsHeap)
    let heapBefore = readsHeap ? HeapUsage.bytesInUse() : nil
    sampler.start()
    let sent = send(to: contender, for: sending, sampler: sampler, readsHeap: readsHeap)
    work.skip()
    let drained = waitUntilDelivered(contender.output, timeout: .seconds(drainTimeoutSeconds))
    let peaks = sampler.stop()
    let what = "contender '\(name.name)' of \(scenario.name) at N = \(responderCount)"
    guard drained else {
      throw MeasurementFailure(message: "the subscribers of \(what) did not drain within \(drainTimeoutSeconds) s")
    }
    let delivered = contender.delivered
    let dropped = contender.dropped
    guard sent * responderCount == delivered + dropped else {
      throw MeasurementFailure(
        message: "\(what) sent \(sent) events to each of \(responderCount) subscribers, which received \(delivered) "
          + "and dropped \(dropped): \(delivered + dropped) in all, expected \(sent * responderCount)")
    }
    var peakHeapBytes: Int?
    if let heapBefore, let peak = peaks.heapBytes {
      peakHeapBytes = max(0, peak - heapBefore)
    }
    return Figures(
      sent: sent, delivered: delivered, dropped: dropped, peakWaiting: peaks.waiting, peakHeapBytes: peakHeapBytes)
  }

  /// Sends events to `contender` as fast as the thread can for `duration`, noting the waiting counts with `sampler`
  /// every ``sendsPerSample`` sends, and both readings once more at the end; returns the events sent.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  private static func send(
    to contender: OverloadContender, for duration: Duration, sampler: OverloadSampler, readsHeap: Bool
  ) -> Int {
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: duration)
    let output = contender.output
    var sent = 0
    repeat {
      for _ in 0..<sendsPerClockReading {
        output.send(OverloadEvent(sequence: sent))
        sent &+= 1
      }
      if sent.isMultiple(of: sendsPerSample) {
        sampler.note(waiting: contender.mostWaiting)
      }
    } while clock.now < end
    // The end of sending is where an unbounded backlog is longest.
    sampler.note(waiting: contender.mostWaiting, heapBytes: readsHeap ? HeapUsage.bytesInUse() : nil)
    return sent
  }

  /// Waits, blocking the calling thread, until `output.waitUntilDelivered()` returns; `false` if that took longer than
  /// `timeout`, which means events were lost. Never call it from a task: it blocks the thread.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  private static func waitUntilDelivered(_ output: Output<OverloadEvent>, timeout: Duration) -> Bool {
    let delivered = LockedState(false)
    let done = DispatchSemaphore(value: 0)
    let task = Task {
      // The wait throws only when the task is cancelled, after the timeout, and the result is `false` then anyway.
      if (try? await output.waitUntilDelivered()) != nil {
        delivered.withLock { $0 = true }
      }
      done.signal()
    }
    guard done.wait(timeout: .now() + .nanoseconds(Int(timeout.nanoseconds))) == .success else {
      task.cancel()
      return false
    }
    return delivered.withLock { $0 }
  }
}
