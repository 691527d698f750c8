// swift-tools-version:6.1
import PackageDescription

// A live-updates server across processes: WebSocket clients subscribe to a topic, `POST /topics/:name` on any process
// runs PostgreSQL's NOTIFY, and each process shares one LISTEN connection per topic among all its clients through a
// `Broadcaster`. A package of its own so that the root package keeps no dependencies; it uses the root by path, as an
// app does. `Scripts/check-server-example.sh` runs it against a real PostgreSQL.
let package = Package(
  name: "ServerExample",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "EventBus", path: ".."),
    // Without its default traits: the example reads no swift-configuration files, so that package is not built.
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
    .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    // Already in the graph through the three above; named for the check's HTTP client.
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
    // Signed tokens, the refusal counters and their Prometheus page, graceful shutdown, structured logs.
    .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
    .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
  ],
  targets: [
    .target(
      name: "LiveUpdates",
      dependencies: [
        .product(name: "EventBus", package: "EventBus"),
        .product(name: "Broadcasters", package: "EventBus"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "JWTKit", package: "jwt-kit"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    .executableTarget(
      name: "LiveUpdatesServer",
      dependencies: [
        "LiveUpdates",
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    // The check starts PostgreSQL's control commands through it, without the check's descriptors.
    .target(name: "CSpawnShim"),
    .executableTarget(
      name: "LiveUpdatesCheck",
      dependencies: [
        "LiveUpdates",
        "CSpawnShim",
        .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "JWTKit", package: "jwt-kit"),
      ]),
    .testTarget(
      name: "LiveUpdatesTests",
      dependencies: [
        "LiveUpdates",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "JWTKit", package: "jwt-kit"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ]),
  ]
)

for target in package.targets where target.name != "CSpawnShim" {
  var settings = target.swiftSettings ?? []
  settings.append(.swiftLanguageMode(.v6))
  target.swiftSettings = settings
}
