// swift-tools-version:6.0
import PackageDescription

// Measures OpenCombine on the work of Bench's `fanout` and `source-fanout` scenarios. A package of its own so the
// root package keeps no dependencies (DESIGN.md §2).
let package = Package(
  name: "Peers",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
  dependencies: [
    .package(name: "EventBus", path: "../.."),
    .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
  ],
  targets: [
    .executableTarget(
      name: "Peers",
      dependencies: [
        .product(name: "Broadcasters", package: "EventBus"),
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "OpenCombineFoundation", package: "OpenCombine"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)])
  ]
)
