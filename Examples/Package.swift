// swift-tools-version:6.0
import PackageDescription

// A guided tour of EventBus, as a consumer sees it: it depends on the repository's root package by path, exactly as
// the README's local installation line says, and uses its public API only.
//
//   swift run            # prints every scenario, step by step
//   swift test           # checks what each scenario delivers
let package = Package(
  name: "Examples",
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
  products: [
    .executable(name: "EventBusTour", targets: ["EventBusTour"])
  ],
  dependencies: [
    .package(name: "EventBus", path: "..")
  ],
  targets: [
    .target(
      name: "TourScenarios",
      dependencies: [
        .product(name: "EventBus", package: "EventBus"),
        .product(name: "Broadcasters", package: "EventBus"),
      ]),
    .executableTarget(name: "EventBusTour", dependencies: ["TourScenarios"]),
    .testTarget(
      name: "TourScenariosTests",
      dependencies: [
        "TourScenarios",
        .product(name: "EventBus", package: "EventBus"),
        .product(name: "Broadcasters", package: "EventBus"),
      ]),
  ]
)

for target in package.targets {
  var settings = target.swiftSettings ?? []
  settings.append(.swiftLanguageMode(.v6))
  target.swiftSettings = settings
}
