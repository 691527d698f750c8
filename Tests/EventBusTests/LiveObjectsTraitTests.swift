import Foundation
import Testing

/// Plain `swift test` builds without the `LiveObjects` trait, where every live-object count reads 0. A test that
/// expects zero holds in both builds (and checks weak references as well); a test that reads any other count must be
/// skipped without the trait, saying why, rather than fail.
@Suite struct LiveObjectsTraitTests {
  /// Each `@Test` of the test targets: the file, its line, its attributes and its text up to the next `@Test`.
  struct TestDeclaration {
    var file: String
    var path: String
    var line: Int
    var attributes: Substring
    var body: Substring
  }

  static let traitName = ".countsLiveObjects"
  static let reads = ["LiveObjects.count(", "LiveObjects.total("]

  @Test func everyTestThatExpectsALiveObjectCountOtherThanZeroIsSkippedWithoutTheTrait() throws {
    var checkedReads = 0
    for test in try Self.declarations() {
      let unguarded = Self.readsNotComparedWithZero(in: test.body)
      checkedReads += Self.reads.reduce(0) { $0 + test.body.components(separatedBy: $1).count - 1 }
      guard !unguarded.isEmpty, !test.attributes.contains(Self.traitName) else { continue }
      Issue.record(
        """
        \(test.file):\(test.line): the test reads a live-object count it does not compare with 0 \
        (\(unguarded.joined(separator: "; "))), which fails without the LiveObjects trait: \
        add `@Test(\(Self.traitName))` so that it is skipped, saying why
        """,
        sourceLocation: SourceLocation(
          fileID: "EventBusTests/\(test.file)", filePath: test.path, line: test.line, column: 1))
    }
    #expect(checkedReads > 0, "found no live-object read in the test sources")
  }

  /// Every read of a count in `body` that is not directly followed by `== 0` or `!= 0`, as written.
  static func readsNotComparedWithZero(in body: Substring) -> [String] {
    var found: [String] = []
    for read in reads {
      var rest = body[...]
      while let start = rest.range(of: read) {
        guard let end = closingParenthesis(in: rest[start.upperBound...]) else { break }
        let call = rest[start.lowerBound...end]
        let after = rest[rest.index(after: end)...].drop { $0 == " " }
        let comparedWithZero =
          (after.hasPrefix("== 0") || after.hasPrefix("!= 0")) && !(after.dropFirst(4).first?.isNumber ?? false)
        if !comparedWithZero { found.append(String(call)) }
        rest = rest[rest.index(after: end)...]
      }
    }
    return found
  }

  /// The index of the parenthesis that closes a call whose arguments begin at `text`'s start.
  static func closingParenthesis(in text: Substring) -> Substring.Index? {
    var depth = 1
    for index in text.indices {
      switch text[index] {
      case "(": depth += 1
      case ")":
        depth -= 1
        if depth == 0 { return index }
      default: break
      }
    }
    return nil
  }

  static func declarations() throws -> [TestDeclaration] {
    let root = DocumentationFiles.packageRoot
    let ownPath = URL(fileURLWithPath: #filePath).standardizedFileURL.path
    let enumerator = FileManager.default.enumerator(
      at: root.appendingPathComponent("Tests"), includingPropertiesForKeys: nil)
    var files: [URL] = []
    while let file = enumerator?.nextObject() as? URL {
      if file.pathExtension == "swift", file.standardizedFileURL.path != ownPath { files.append(file) }
    }
    var declarations: [TestDeclaration] = []
    for file in files.sorted(by: { $0.path < $1.path }) {
      let text = try String(contentsOf: file, encoding: .utf8)
      let starts = text.ranges(of: "@Test").map(\.lowerBound)
      for (position, start) in starts.enumerated() {
        let end = position + 1 < starts.count ? starts[position + 1] : text.endIndex
        let chunk = text[start..<end]
        let attributes = chunk.range(of: "func ").map { chunk[..<$0.lowerBound] } ?? chunk
        declarations.append(
          TestDeclaration(
            file: DocumentationFiles.relativePath(file),
            path: file.path,
            line: text[..<start].reduce(1) { $1 == "\n" ? $0 + 1 : $0 },
            attributes: attributes,
            body: chunk))
      }
    }
    return declarations
  }
}
