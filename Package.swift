// swift-tools-version:6.1
import PackageDescription

let package = Package(
  name: "EventBus",
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
  products: [
    .library(name: "EventBus", targets: ["EventBus"]),
    .library(name: "Broadcasters", targets: ["Broadcasters"]),
    // For test targets only: the leak check and the recorder. It links Testing and XCTest, never an app.
    .library(name: "EventBusTesting", targets: ["EventBusTesting"]),
    .executable(name: "Bench", targets: ["Bench"]),
  ],
  traits: [
    .trait(
      name: "LiveObjects",
      description: "Count the library's live objects by kind and event type (debug builds), for leak tests."
    )
  ],
  targets: [
    .target(
      name: "EventBus",
      dependencies: ["CEventBusAtomics"],
      // The Promela model of `Output`'s delivery latch, checked by Scripts/check-latch-model.sh.
      exclude: ["Output/DeliveryLatch.pml"],
      swiftSettings: [.define("EVENTBUS_LIVE_OBJECTS", .when(configuration: .debug, traits: ["LiveObjects"]))]
    ),
    // The atomic compare-and-swap of `Output`'s lock-free send, for every platform the package supports.
    .target(name: "CEventBusAtomics"),
    .target(name: "Broadcasters", dependencies: ["EventBus"]),
    .target(name: "EventBusTesting", dependencies: ["EventBus"]),
    .executableTarget(
      name: "Bench",
      dependencies: [
        "EventBus", "Broadcasters", "BenchHarness",
        .target(name: "CMallocStatistics", condition: .when(platforms: [.linux])),
      ]),
    // Bench's timing loop and report rows. Not a product: the peer comparison in Benchmarks/Peers compiles the same
    // sources through a symbolic link.
    .target(
      name: "BenchHarness",
      dependencies: [.target(name: "CMainQueueBlocks", condition: .when(platforms: [.linux]))]),
    // Counts the blocks handed to the main queue, for the main-actor scenarios (Linux only). Its debug information is
    // DWARF 4, as Swift's: the valgrind that counts Bench's instructions cannot read clang's default, DWARF 5. Part of
    // no library product, so the flag reaches no package that depends on this one.
    .target(
      name: "CMainQueueBlocks",
      cSettings: [.unsafeFlags(["-gdwarf-4"], .when(platforms: [.linux]))],
      linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
    // <malloc.h> for the Bench memory scenario; a header only, nothing is compiled or linked.
    .systemLibrary(name: "CMallocStatistics"),
    // What the test targets share: running threads together, with a watchdog, taking turns across targets.
    .target(name: "EventBusTestSupport", dependencies: ["EventBus"], path: "Tests/TestSupport"),
    // `-export-dynamic` puts every function's name in the dynamic symbol table, where `Thread.callStackSymbols` finds
    // it: the stack-depth tests count the named frames a debugger shows. A test target's flag reaches no package
    // that depends on this one.
    .testTarget(
      name: "EventBusTests", dependencies: ["EventBus", "EventBusTestSupport"],
      linkerSettings: [.unsafeFlags(["-Xlinker", "-export-dynamic"], .when(platforms: [.linux], configuration: .debug))]
    ),
    .testTarget(name: "BroadcastersTests", dependencies: ["Broadcasters", "EventBusTesting", "EventBusTestSupport"]),
    .testTarget(name: "EventBusTestingTests", dependencies: ["EventBusTesting", "Broadcasters", "EventBusTestSupport"]),
    .testTarget(name: "BenchTests", dependencies: ["Bench", "BenchHarness"]),
  ]
)

for target in package.targets where target.type != .system {
  var settings = target.swiftSettings ?? []
  settings.append(.swiftLanguageMode(.v6))
  target.swiftSettings = settings
}
