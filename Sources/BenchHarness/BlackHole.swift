/// Takes a value the optimiser must assume is used, so the work that made it cannot be removed.
///
/// As swift-collections' benchmark `blackHole`: not inlined, and not optimised, so its caller cannot see that
/// it does nothing with the value.
///
/// - Parameter value: Any value.
@inline(never)
@_optimize(none)
public func blackHole<T>(_ value: T) {}
