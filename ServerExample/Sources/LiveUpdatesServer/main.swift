import Foundation
import LiveUpdates
import Logging
import ServiceLifecycle

if CommandLine.arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
  print(ServerOptions.usage)
  exit(0)
}
let options: ServerOptions
do {
  options = try ServerOptions.parse(Array(CommandLine.arguments.dropFirst()))
    .resolvingAccess(environment: ProcessInfo.processInfo.environment)
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n\(ServerOptions.usage)\n".utf8))
  exit(2)
}
var logger = Logger(label: "live-updates \(options.process)")
logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
// SIGTERM or SIGINT: the server stops accepting, closes each client with 1001 and its last id, and the process exits
// within the grace period, cancelling what is left after it.
let clients = ClientRegistry()
// Shut down in reverse order: the clients are told first, then the server stops.
var configuration = ServiceGroupConfiguration(
  services: [
    makeLiveUpdatesServer(options, logger: logger, clients: clients),
    GoingAwayService(clients: clients, timeout: options.limits.shutdownGrace / 2),
  ], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
configuration.maximumGracefulShutdownDuration = options.limits.shutdownGrace
configuration.maximumCancellationDuration = .seconds(2)
do {
  try await ServiceGroup(configuration: configuration).run()
} catch {
  logger.error("stopped: \(error)")
  exit(1)
}
