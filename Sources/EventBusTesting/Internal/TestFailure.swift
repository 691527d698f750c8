import Testing

#if canImport(XCTest)
  import XCTest
#endif

/// Where a test called one of the kit's waits: what an issue about it points at.
struct TestCallSite: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  var sourceLocation: SourceLocation {
    SourceLocation(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
  }
}

/// Fails the running test with `message` at `site`: a Swift Testing issue inside a Swift Testing test, an XCTest
/// failure otherwise (where XCTest exists).
enum TestFailure {
  static func record(_ message: String, at site: TestCallSite) {
    #if canImport(XCTest)
      if Test.current == nil {
        XCTFail(message, file: site.filePath, line: site.line)
        return
      }
    #endif
    Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
  }
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension Duration {
  /// `10 s`, `1.5 s`, `250 ms`: short enough for a failure message.
  var shortDescription: String {
    // `components` traps for seconds beyond `Int64`.
    guard self < .seconds(Int64.max), self > .seconds(Int64.min) else { return "\(self)" }
    let (seconds, attoseconds) = components
    if attoseconds == 0 { return "\(seconds) s" }
    if seconds == 0, attoseconds % 1_000_000_000_000_000 == 0 {
      return "\(attoseconds / 1_000_000_000_000_000) ms"
    }
    return "\(Double(seconds) + Double(attoseconds) / 1e18) s"
  }
}
