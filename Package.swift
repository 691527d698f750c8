// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "EventBus",
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
  products: [
    .library(name: "EventBus", targets: ["EventBus"]),
    .library(name: "Broadcasters", targets: ["Broadcasters"]),
  ],
  targets: [
    .target(name: "EventBus"),
    .target(name: "Broadcasters", dependencies: ["EventBus"]),
    .testTarget(name: "EventBusTests", dependencies: ["EventBus"]),
    .testTarget(name: "BroadcastersTests", dependencies: ["Broadcasters"]),
  ]
)

for target in package.targets {
  var settings = target.swiftSettings ?? []
  settings.append(.swiftLanguageMode(.v6))
  target.swiftSettings = settings
}
