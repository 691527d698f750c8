// swift-tools-version:6.0
import PackageDescription

// Measures OpenCombine and swift-async-algorithms on the work of Bench's `fanout` and `source-fanout` scenarios,
// with Bench's own timing loop (the root package's BenchHarness). A package of its own so the root package keeps no
// dependencies.
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
        .product(name: "Broadcasters", package: "EventBus"),
        .product(name: "BenchHarness", package: "EventBus"),
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "OpenCombineFoundation", package: "OpenCombine"),
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)])
  ]
)
