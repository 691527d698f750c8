// swift-tools-version:6.0
import PackageDescription

// Compiles the library's Combine bridges on Linux, against OpenCombine, and tests them there. The sources of the
// `CombineBridges` target are symbolic links to the very files the EventBus and Broadcasters modules compile against
// Apple's Combine (Sources/EventBus/Bridges/EventStream+Combine.swift,
// Sources/Broadcasters/EventSources/PublisherSource.swift); EVENTBUS_BRIDGE_MODULE tells them they are compiled
// outside those modules. A package of its own so that the root package keeps no dependencies; it also uses the root
// the way an app does, by path.
//
// For platforms without Combine: on Apple platforms the bridges are part of EventBus and Broadcasters themselves.
let package = Package(
  name: "Integration",
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
  dependencies: [
    .package(name: "EventBus", path: ".."),
    .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
  ],
  targets: [
    .target(
      name: "CombineBridges",
      dependencies: [
        .product(name: "EventBus", package: "EventBus"),
        .product(name: "Broadcasters", package: "EventBus"),
        .product(name: "OpenCombine", package: "OpenCombine"),
      ],
      swiftSettings: [.define("EVENTBUS_BRIDGE_MODULE")]),
    .testTarget(
      name: "CombineBridgesTests",
      dependencies: [
        "CombineBridges",
        .product(name: "EventBus", package: "EventBus"),
        .product(name: "Broadcasters", package: "EventBus"),
        .product(name: "OpenCombine", package: "OpenCombine"),
      ]),
  ]
)

for target in package.targets {
  var settings = target.swiftSettings ?? []
  settings.append(.swiftLanguageMode(.v6))
  target.swiftSettings = settings
}
