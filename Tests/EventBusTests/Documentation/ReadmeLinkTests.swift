import Foundation
import Testing

/// The README is the first page a person sees on GitHub, where DocC's own links render as text: it links to the
/// rendered documentation, names every article's source beside it, and keeps the two set-up commands.
@Suite struct ReadmeLinkTests {
  static let renderedDocumentation = "https://swiftpackageindex.com/eventbus/EventBus/main/documentation/"

  static func readme() throws -> String {
    try String(
      contentsOf: DocumentationFiles.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
  }

  /// Every article of both catalogs, as (module, file name without `.md`), the catalogs' landing pages left out.
  static func articles() throws -> [(module: String, name: String)] {
    try ["EventBus", "Broadcasters"].flatMap { module in
      let catalog = DocumentationFiles.packageRoot.appendingPathComponent("Sources/\(module)/\(module).docc")
      return try FileManager.default.contentsOfDirectory(atPath: catalog.path)
        .filter { $0.hasSuffix(".md") && $0 != "\(module).md" }
        .map { (module, String($0.dropLast(3))) }
    }
  }

  @Test func everyArticleIsLinkedRenderedAndWithItsSource() throws {
    let readme = try Self.readme()
    let articles = try Self.articles()
    #expect(articles.count >= 10, "the catalogs were not found")
    for (module, name) in articles {
      let rendered = "](\(Self.renderedDocumentation)\(module.lowercased())/\(name.lowercased()))"
      let source = "([source](Sources/\(module)/\(module).docc/\(name).md))"
      #expect(readme.contains(rendered + " " + source), "\(name): no rendered link followed by its source")
    }
  }

  @Test func noLinkOpensARawArticleAsTheGuide() throws {
    let readme = try Self.readme()
    let rawLinks = readme.components(separatedBy: "](Sources/").dropFirst().filter { link in
      link.hasPrefix("EventBus/EventBus.docc/") || link.hasPrefix("Broadcasters/Broadcasters.docc/")
    }
    let sourceLinks = readme.components(separatedBy: "([source](Sources/").count - 1
    #expect(rawLinks.count == sourceLinks, "a link to a raw article that is not a [source] link")
  }

  @Test func theCompilerSectionLinksToHeadingsOfTheTroubleshootingArticle() throws {
    let readme = try Self.readme()
    let article = try String(
      contentsOf: DocumentationFiles.packageRoot.appendingPathComponent(
        "Sources/EventBus/EventBus.docc/RuntimeBehavior.md"), encoding: .utf8)
    let section = try #require(readme.components(separatedBy: "## When the compiler says…").dropFirst().first)
    let anchors = section.components(separatedBy: "runtimebehavior#").dropFirst().map {
      String($0.prefix { $0 != ")" })
    }
    #expect(anchors.contains("Troubleshooting"))
    #expect(anchors.count >= 3)
    let headings = article.split(separator: "\n").filter { $0.hasPrefix("#") }.map { heading in
      heading.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "-")
    }
    for anchor in anchors {
      #expect(headings.contains(anchor), "no heading in Runtime Behavior for #\(anchor)")
    }
  }

  @Test func theTwoSetUpCommandsAreKeptExactly() throws {
    let readme = try Self.readme()
    #expect(readme.contains("```sh\nswift run -c release Bench\n```"))
    #expect(readme.contains("```sh\nswift test --traits LiveObjects\n```"))
  }
}
