// swift-tools-version:6.0
import PackageDescription

// Measures OpenCombine and swift-async-algorithms on the work of Bench's `fanout`, `source-fanout` and main-actor
// scenarios, with Bench's own timing loop. A package of its own so the root package keeps no dependencies.
//
// `PeersHarness` and `PeersMainQueueBlocks` are symbolic links to the root package's `Sources/BenchHarness` and
// `Sources/CMainQueueBlocks`: Bench's timing code is no product of the root package, so this package compiles the same
// sources itself, under target names of its own (target names are unique across a package graph). The C target's own
// module map keeps its module name, `CMainQueueBlocks`, which the harness imports.
let package = Package(
  name: "Peers",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
  dependencies: [
    .package(name: "EventBus", path: "../.."),
    .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
    .package(url: "https://github.com/apple/swift-async-algorithms.git", from: "1.1.4"),
  ],
  targets: [
    .executableTarget(
      name: "Peers",
      dependencies: [
        "PeersHarness",
        .product(name: "Broadcasters", package: "EventBus"),
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "OpenCombineDispatch", package: "OpenCombine"),
        .product(name: "OpenCombineFoundation", package: "OpenCombine"),
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ]),
    .target(
      name: "PeersHarness",
      dependencies: [.target(name: "PeersMainQueueBlocks", condition: .when(platforms: [.linux]))]),
    .target(name: "PeersMainQueueBlocks", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
  ]
)

for target in package.targets {
  var settings = target.swiftSettings ?? []
  settings.append(.swiftLanguageMode(.v6))
  target.swiftSettings = settings
}
