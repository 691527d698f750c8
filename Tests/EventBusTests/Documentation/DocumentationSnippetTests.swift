import Foundation
import Testing

/// The suites that hold the code of the DocC articles, one per article, nested here so that
/// `swift test --filter Documentation` runs all of them, and so that each article can name its types freely
/// (`ProfileViewModel`, `SignInScreen`) without clashing with another article's or another test's.
enum Documentation {}

/// Every ```swift block in every DocC article (`Sources/*/*.docc/*.md`) is code that a test compiles and runs.
///
/// The code lives in test files under `Tests/*/Documentation/` (and, for the Combine samples, which need a Combine
/// implementation, `Integration/Tests/*/Documentation/`, compiled by the Integration package), inside regions delimited by `// snippet: <name>` and
/// `// end-snippet` lines. A block passes when its lines, trimmed and with blank lines ignored, are exactly the body
/// of some region. A block that cannot compile on purpose (the `Package.swift` dependency line) is preceded by a line
/// `<!-- not-compiled: reason -->`; DocC renders nothing for the comment.
///
/// To change an article's code, change the snippet in the test, run the tests, and paste the region's body into the
/// article (indentation is free: lines are compared trimmed).
@Suite struct DocumentationSnippetTests {
  @Test func everySwiftBlockInTheArticlesIsTheBodyOfATestedSnippet() throws {
    let regions = try SnippetRegion.all()
    let blocks = try CodeBlock.all()
    let checked = blocks.filter { $0.language == "swift" && $0.notCompiledReason == nil }
    #expect(!checked.isEmpty, "no ```swift block found in \(DocumentationFiles.catalogPattern)")
    let bodies = Set(regions.map(\.body))
    for block in checked where !bodies.contains(block.lines) {
      Issue.record(
        Comment(rawValue: block.mismatchReport(against: regions)),
        sourceLocation: block.sourceLocation)
    }
  }

  @Test func everyCodeBlockNamesItsLanguageAndEveryExemptionHasAReason() throws {
    for block in try CodeBlock.all() {
      if block.language.isEmpty {
        let message =
          "\(block.article):\(block.line): a code block without a language; name it (```swift, ```sh, ```text) so "
          + "a Swift block cannot escape the snippet check"
        Issue.record(Comment(rawValue: message), sourceLocation: block.sourceLocation)
      }
      if let reason = block.notCompiledReason {
        #expect(
          block.language == "swift" && !reason.isEmpty,
          "\(block.article):\(block.line): `<!-- not-compiled: reason -->` must give a reason and precede a swift block",
          sourceLocation: block.sourceLocation)
      }
    }
    for marker in try DocumentationFiles.strayExemptionMarkers() {
      Issue.record("\(marker): `<!-- not-compiled: … -->` is not directly followed by a ```swift block")
    }
  }

  @Test func everyCompilerMessageAnArticleQuotesIsOneACompileCheckProduces() throws {
    // An article quotes the compiler in ```text blocks, one `error: …` or `warning: …` line per diagnostic. Each must
    // be, word for word, what a file under CompileChecks/ expects, so the compile checks prove the compiler still
    // says it.
    let expected = try CompileCheckExpectations.all()
    var quoted = 0
    for block in try CodeBlock.all() where block.language == "text" {
      for line in block.lines where line.hasPrefix("error: ") || line.hasPrefix("warning: ") {
        quoted += 1
        if !expected.contains(line) {
          Issue.record(
            Comment(
              rawValue:
                "\(block.article):\(block.line): `\(line)` is not the `// expected-…` line of any file in "
                + "CompileChecks/MustFail or CompileChecks/MustWarn; add a compile check that produces it"),
            sourceLocation: block.sourceLocation)
        }
      }
    }
    #expect(quoted > 0, "no compiler message is quoted in a ```text block of \(DocumentationFiles.catalogPattern)")
  }

  @Test func snippetRegionsAreWellFormedAndUniquelyNamed() throws {
    var seen: [String: String] = [:]
    for region in try SnippetRegion.all() {
      if let first = seen[region.name] {
        Issue.record("snippet `\(region.name)` is defined twice: \(first) and \(region.location)")
      }
      seen[region.name] = region.location
      #expect(!region.body.isEmpty, "snippet `\(region.name)` at \(region.location) is empty")
    }
    #expect(!seen.isEmpty, "no snippet region found in \(DocumentationFiles.snippetPattern)")
  }
}

// MARK: - Files

enum DocumentationFiles {
  static let catalogPattern = "Sources/*/*.docc/*.md"
  static let snippetPattern = "Tests/*/Documentation/*.swift or Integration/Tests/*/Documentation/*.swift"

  /// The package root: the nearest directory above this file that holds `Package.swift`. (If there is none, nothing
  /// is found and the tests fail saying so.)
  static let packageRoot: URL = {
    let file = URL(fileURLWithPath: #filePath)
    var directory = file.deletingLastPathComponent()
    while directory.path != "/" {
      if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
        return directory
      }
      directory.deleteLastPathComponent()
    }
    return file.deletingLastPathComponent()
  }()

  /// The articles of every catalog, `Sources/<Module>/<Module>.docc/**/*.md`, sorted.
  static func articles() throws -> [URL] {
    try files(under: "Sources", inDirectoriesWithExtension: "docc", withExtension: "md")
  }

  /// The Swift files of every `Tests/<Target>/Documentation/` and `Integration/Tests/<Target>/Documentation/` folder,
  /// sorted.
  static func snippetFiles() throws -> [URL] {
    try ["Tests", "Integration/Tests"].flatMap { top in
      try files(under: top, inDirectoriesNamed: "Documentation", withExtension: "swift")
    }
  }

  /// `article:line` of each `<!-- not-compiled: … -->` whose next non-blank line is not a ```swift fence.
  static func strayExemptionMarkers() throws -> [String] {
    var stray: [String] = []
    for article in try articles() {
      let lines = try String(contentsOf: article, encoding: .utf8).components(separatedBy: "\n")
      for (index, line) in lines.enumerated() where CodeBlock.exemptionReason(in: line) != nil {
        let next = lines[(index + 1)...].first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        if next?.trimmingCharacters(in: .whitespaces).hasPrefix("```swift") != true {
          stray.append("\(relativePath(article)):\(index + 1)")
        }
      }
    }
    return stray
  }

  static func relativePath(_ url: URL) -> String {
    let root = packageRoot.standardizedFileURL.path + "/"
    let path = url.standardizedFileURL.path
    return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
  }

  private static func files(
    under top: String,
    inDirectoriesWithExtension directoryExtension: String? = nil,
    inDirectoriesNamed directoryName: String? = nil,
    withExtension fileExtension: String
  ) throws -> [URL] {
    let topURL = packageRoot.appendingPathComponent(top)
    var found: [URL] = []
    // Two levels down: Sources/<Module>/<Catalog>.docc, Tests/<Target>/Documentation,
    // Integration/Tests/<Target>/Documentation.
    for module in try contents(of: topURL) {
      for directory in try contents(of: module) {
        let matches =
          (directoryExtension.map { directory.pathExtension == $0 } ?? true)
          && (directoryName.map { directory.lastPathComponent == $0 } ?? true)
        guard matches else { continue }
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let file = enumerator?.nextObject() as? URL {
          if file.pathExtension == fileExtension { found.append(file) }
        }
      }
    }
    return found.sorted { $0.path < $1.path }
  }

  private static func contents(of directory: URL) throws -> [URL] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
    else { return [] }
    return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
  }
}

/// Lines as the comparison sees them: trimmed, blank ones dropped.
private func normalized(_ lines: some Sequence<Substring>) -> [String] {
  lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
}

// MARK: - Compile checks

/// What the files of `CompileChecks/MustFail` and `CompileChecks/MustWarn` say the compiler prints, as
/// `error: …` and `warning: …` lines: their leading `// expected-error: …` and `// expected-warning: …` comments.
enum CompileCheckExpectations {
  static func all() throws -> Set<String> {
    var expectations: Set<String> = []
    for kind in ["MustFail", "MustWarn"] {
      let directory = DocumentationFiles.packageRoot.appendingPathComponent("CompileChecks/\(kind)")
      for file in try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
      where file.pathExtension == "swift" {
        let text = try String(contentsOf: file, encoding: .utf8)
        for line in text.split(separator: "\n").prefix(while: { $0.hasPrefix("//") }) {
          guard line.hasPrefix("// expected-") else { continue }
          expectations.insert(String(line.dropFirst("// expected-".count)))
        }
      }
    }
    return expectations
  }
}

// MARK: - Code blocks

/// A fenced code block of an article.
struct CodeBlock {
  var article: String
  /// The line of the opening fence, 1-based.
  var line: Int
  /// The fence's info string up to the first space: `swift`, `sh`, or empty.
  var language: String
  /// The block's lines, normalised.
  var lines: [String]
  /// The reason given by a `<!-- not-compiled: reason -->` line right before the fence.
  var notCompiledReason: String?

  var sourceLocation: SourceLocation {
    SourceLocation(
      fileID: "EventBus/\(article)", filePath: DocumentationFiles.packageRoot.appendingPathComponent(article).path,
      line: line, column: 1)
  }

  static func all() throws -> [CodeBlock] {
    try DocumentationFiles.articles().flatMap { article in
      try blocks(in: String(contentsOf: article, encoding: .utf8), article: DocumentationFiles.relativePath(article))
    }
  }

  static func blocks(in text: String, article: String) -> [CodeBlock] {
    var blocks: [CodeBlock] = []
    var open: (line: Int, fence: String, language: String, reason: String?, body: [Substring])?
    var lastNonBlank: Substring = ""
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = rawLine.trimmingCharacters(in: .whitespaces)
      if var block = open {
        if line.hasPrefix(block.fence) && line.allSatisfy({ $0 == block.fence.first }) {
          blocks.append(
            CodeBlock(
              article: article, line: block.line, language: block.language, lines: normalized(block.body),
              notCompiledReason: block.reason))
          open = nil
        } else {
          block.body.append(rawLine)
          open = block
        }
        continue
      }
      if let fence = Self.openingFence(line) {
        let info = line.dropFirst(fence.count).trimmingCharacters(in: .whitespaces)
        let language = String(info.prefix { !$0.isWhitespace })
        open = (index + 1, fence, language, exemptionReason(in: lastNonBlank), [])
      }
      if !line.isEmpty { lastNonBlank = rawLine }
    }
    return blocks
  }

  /// The reason in a `<!-- not-compiled: reason -->` line, or `nil` if the line is not one.
  static func exemptionReason(in line: some StringProtocol) -> String? {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    let prefix = "<!-- not-compiled:"
    let suffix = "-->"
    guard trimmed.hasPrefix(prefix), trimmed.hasSuffix(suffix) else { return nil }
    return trimmed.dropFirst(prefix.count).dropLast(suffix.count).trimmingCharacters(in: .whitespaces)
  }

  private static func openingFence(_ line: String) -> String? {
    for character in ["`", "~"] {
      let run = line.prefix { String($0) == character }
      if run.count >= 3 { return String(run) }
    }
    return nil
  }

  /// Says which snippet comes closest and where it first differs, so the fix is obvious.
  func mismatchReport(against regions: [SnippetRegion]) -> String {
    let firstLine = lines.first ?? "(empty block)"
    var report =
      "\(article):\(line): the swift block starting `\(firstLine)` is not the body of any snippet region in "
      + "\(DocumentationFiles.snippetPattern). Copy it from a tested `// snippet:` region, or mark it "
      + "`<!-- not-compiled: reason -->`."
    func commonPrefix(_ region: SnippetRegion) -> Int {
      zip(lines, region.body).prefix { $0 == $1 }.count
    }
    if let closest = regions.max(by: { commonPrefix($0) < commonPrefix($1) }), commonPrefix(closest) > 0 {
      let index = commonPrefix(closest)
      let article = index < lines.count ? "`\(lines[index])`" : "(end of block)"
      let snippet = index < closest.body.count ? "`\(closest.body[index])`" : "(end of snippet)"
      report +=
        " Closest: snippet `\(closest.name)` at \(closest.location), which differs at line \(index + 1) of the "
        + "block: article has \(article), snippet has \(snippet)."
    }
    return report
  }
}

// MARK: - Snippet regions

/// The code between a `// snippet: <name>` line and the next `// end-snippet` line of a test file.
struct SnippetRegion {
  var name: String
  /// `file:line` of the opening marker.
  var location: String
  /// The region's lines, normalised.
  var body: [String]

  static let startMarker = "// snippet:"
  static let endMarker = "// end-snippet"

  static func all() throws -> [SnippetRegion] {
    var regions: [SnippetRegion] = []
    for file in try DocumentationFiles.snippetFiles() {
      regions += try self.regions(
        in: String(contentsOf: file, encoding: .utf8), file: DocumentationFiles.relativePath(file))
    }
    return regions
  }

  /// Reads the regions of one file, recording an issue for a marker out of place.
  static func regions(in text: String, file: String) -> [SnippetRegion] {
    var regions: [SnippetRegion] = []
    var open: (name: String, line: Int, body: [Substring])?
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = rawLine.trimmingCharacters(in: .whitespaces)
      if line.hasPrefix(startMarker) {
        if let open {
          Issue.record("\(file):\(index + 1): snippet opened inside snippet `\(open.name)` (line \(open.line))")
        }
        let name = line.dropFirst(startMarker.count).trimmingCharacters(in: .whitespaces)
        if name.isEmpty { Issue.record("\(file):\(index + 1): a snippet needs a name") }
        open = (name, index + 1, [])
      } else if line == endMarker {
        if let region = open {
          regions.append(
            SnippetRegion(name: region.name, location: "\(file):\(region.line)", body: normalized(region.body)))
        } else {
          Issue.record("\(file):\(index + 1): `\(endMarker)` without an open snippet")
        }
        open = nil
      } else if open != nil {
        open?.body.append(rawLine)
      }
    }
    if let open {
      Issue.record("\(file):\(open.line): snippet `\(open.name)` is never closed with `\(endMarker)`")
    }
    return regions
  }
}

// MARK: - Helpers for the article suites

extension Documentation {
  /// Returns once the main queue has run everything queued on it before this call, including the deliveries that
  /// `.main` subscriptions queued: each subscriber's events are handed to the main queue in order.
  static func mainQueueRoundTrip() async {
    await EventBusTests.mainQueueRoundTrip()
  }

  /// Waits on the main actor, letting the main queue run, until `condition` holds or `timeout` has passed, so that a
  /// delivery that never comes fails the test's expectation instead of hanging it.
  @MainActor static func waitUntil(
    timeoutSeconds: Double = 120,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: @MainActor () -> Bool
  ) async {
    let deadline = DispatchTime.now() + timeoutSeconds
    while !condition() {
      guard DispatchTime.now() < deadline else {
        Issue.record(
          "waited \(Int(timeoutSeconds)) s for the condition polled here; it never held", sourceLocation: sourceLocation
        )
        return
      }
      try? await Task.sleep(nanoseconds: 1_000_000)
    }
  }

}
