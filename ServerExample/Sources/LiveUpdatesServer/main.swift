import Foundation
import LiveUpdates
import Logging

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
try await makeLiveUpdatesServer(options, logger: logger).runService()
