/// Where a subscription was made, shown by `debugDescription` so a leaked or unexpected subscriber can be found.
///
/// Filled in from `#fileID` and `#line` by the `subscribe` methods; you rarely create one yourself.
public struct CallSite: Sendable, Hashable, CustomStringConvertible {
  /// The file, as `#fileID` spells it (`Module/File.swift`).
  public let fileID: StaticString
  // 32 bits is plenty for a line number and keeps every subscriber entry 8 bytes smaller.
  private let storedLine: UInt32

  /// The line of the `subscribe` call.
  public var line: Int { Int(storedLine) }

  /// Creates a location; the defaults capture the caller's file and line.
  public init(fileID: StaticString = #fileID, line: UInt = #line) {
    self.fileID = fileID
    self.storedLine = UInt32(truncatingIfNeeded: line)
  }

  /// `Module/File.swift:line`.
  public var description: String { "\(fileID):\(line)" }

  /// Whether both name the same file and line.
  public static func == (lhs: CallSite, rhs: CallSite) -> Bool {
    lhs.description == rhs.description
  }

  /// Hashes the file and line.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(description)
  }
}
