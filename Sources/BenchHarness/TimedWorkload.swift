/// One contender's repeatable work at one N, as the clock sees it.
///
/// ```swift
/// let workload = TimedWorkload(
///   name: "output", unitsPerIteration: n, run: { events in contender.send(events: events) },
///   completedUnits: { contender.deliveries })
/// ```
public struct TimedWorkload {
  /// The contender's report name.
  public var name: String
  /// Units of work one iteration does: N deliveries for a fan-out, one cycle for subscribe-cancel.
  public var unitsPerIteration: Int
  /// Does `iterations` iterations.
  public var run: (_ iterations: Int) -> Void
  /// Units the contender counted since it was made: deliveries its responders received, cycles it completed.
  ///
  /// The harness checks it against the iterations it ran, so a contender that skipped work fails the run
  /// instead of looking fast.
  public var completedUnits: () -> Int
  /// Something counted besides the time around every timed repetition, such as main-queue blocks; `nil` for none.
  public var counter: Counter?

  /// Creates a workload from its name, its units per iteration and two closures.
  ///
  /// - Parameters:
  ///   - name: The contender's report name.
  ///   - unitsPerIteration: Units of work one iteration does.
  ///   - run: Does the given number of iterations.
  ///   - completedUnits: Units the contender counted so far.
  ///   - counter: Something to count around every timed repetition, or `nil`.
  public init(
    name: String, unitsPerIteration: Int, run: @escaping (_ iterations: Int) -> Void,
    completedUnits: @escaping () -> Int, counter: Counter? = nil
  ) {
    self.name = name
    self.unitsPerIteration = unitsPerIteration
    self.run = run
    self.completedUnits = completedUnits
    self.counter = counter
  }

  /// A running total read before and after every timed repetition; its figure is the growth per unit.
  public struct Counter {
    /// The running total.
    public var read: () -> Int
    /// Units the figure is per, in one iteration: events, for blocks per event.
    public var unitsPerIteration: Int

    /// Creates a counter.
    public init(read: @escaping () -> Int, unitsPerIteration: Int) {
      self.read = read
      self.unitsPerIteration = unitsPerIteration
    }
  }
}
