import Testing

/// Every Bench suite, one test at a time. The `memory` scenario and the heap tests read the heap of the whole
/// process, which a test allocating beside them would move.
@Suite(.serialized) enum BenchTestSuite {}
