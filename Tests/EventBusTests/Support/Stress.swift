import Foundation

/// Stress sizes are multiplied by `EVENTBUS_STRESS_SCALE` (default 1). CI sets 0.25 under the sanitizers, which run
/// five to twenty times slower.
let stressScale: Double = {
  guard let text = ProcessInfo.processInfo.environment["EVENTBUS_STRESS_SCALE"] else { return 1 }
  guard let scale = Double(text), scale > 0 else {
    fatalError("EVENTBUS_STRESS_SCALE must be a positive number, not \"\(text)\"")
  }
  return scale
}()

/// `n` scaled by `EVENTBUS_STRESS_SCALE`, at least 1.
func stress(_ n: Int) -> Int {
  max(1, Int((Double(n) * stressScale).rounded()))
}

/// A small, fast, seedable generator (SplitMix64), so a randomised test can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}
