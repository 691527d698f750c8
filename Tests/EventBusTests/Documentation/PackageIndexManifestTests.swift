import Foundation
import Testing

/// `.spi.yml` tells the Swift Package Index which targets' documentation to build: every module with a DocC catalog.
@Suite struct PackageIndexManifestTests {
  @Test func theManifestListsEveryModuleWithADocumentationCatalog() throws {
    let root = DocumentationFiles.packageRoot
    let manifest = try String(contentsOf: root.appendingPathComponent(".spi.yml"), encoding: .utf8)
    let lines = manifest.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(lines.contains("version: 1"))
    let prefix = "- documentation_targets: ["
    let line = try #require(lines.first { $0.hasPrefix(prefix) && $0.hasSuffix("]") })
    let listed = line.dropFirst(prefix.count).dropLast().split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let modules = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)
    let documented = modules.filter { module in
      FileManager.default.fileExists(atPath: root.appendingPathComponent("Sources/\(module)/\(module).docc").path)
    }
    #expect(listed.sorted() == documented.sorted())
    #expect(documented.sorted() == ["Broadcasters", "EventBus"])
  }
}
