/// One contender's repeatable work at one N, as the clock sees it.
struct TimedWorkload {
  var contender: ContenderName
  /// Units of work one iteration does: N deliveries for a fan-out, one cycle for subscribe-cancel.
  var unitsPerIteration: Int
  /// Does `iterations` iterations.
  var run: (_ iterations: Int) -> Void
  /// Units the contender counted since it was made: deliveries its responders received, cycles it completed.
  ///
  /// The harness checks it against the iterations it ran, so a contender that skipped work fails the run
  /// instead of looking fast.
  var completedUnits: () -> Int
}
