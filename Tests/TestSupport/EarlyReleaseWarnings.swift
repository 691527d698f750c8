import EventBus
import Testing

/// Runs `body`, which releases token-owned subscriptions unused on purpose, capturing the debug-build warnings about
/// the subscriptions made in `fileID` instead of printing them, and checks that each is that warning: a test run
/// then prints only the warnings no test asked for. Returns them.
@discardableResult
public func capturingEarlyReleaseWarnings(
  inFile fileID: String = #fileID,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> Void
) rethrows -> [String] {
  #if DEBUG
    let warnings = try DebugWarnings.capturing(inFile: fileID, body)
    check(warnings, inFile: fileID, sourceLocation: sourceLocation)
    return warnings
  #else
    try body()
    return []
  #endif
}

/// Runs `body`, which releases token-owned subscriptions unused on purpose, capturing the debug-build warnings about
/// the subscriptions made in `fileID` instead of printing them, and checks that each is that warning: a test run
/// then prints only the warnings no test asked for. Returns them.
@discardableResult
public func capturingEarlyReleaseWarnings(
  inFile fileID: String = #fileID,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () async throws -> Void
) async rethrows -> [String] {
  #if DEBUG
    let warnings = try await DebugWarnings.capturing(inFile: fileID, body)
    check(warnings, inFile: fileID, sourceLocation: sourceLocation)
    return warnings
  #else
    try await body()
    return []
  #endif
}

private func check(_ warnings: [String], inFile fileID: String, sourceLocation: SourceLocation) {
  for warning in warnings {
    #expect(
      warning.hasPrefix("EventBus warning: the subscription made at \(fileID):")
        && warning.contains("ended before its handler ran once"),
      "not an early-release warning about \(fileID): \(warning)", sourceLocation: sourceLocation)
  }
}
