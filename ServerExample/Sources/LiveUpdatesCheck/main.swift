import Foundation
import LiveUpdates
import Logging

let options: CheckOptions
do {
  options = try CheckOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n\(CheckOptions.usage)\n".utf8))
  exit(2)
}
var logger = Logger(label: "server-example check")
logger.logLevel = .error
// The servers' token key: the check's requests carry a token signed with it (none if the servers run without tokens).
if let key = ProcessInfo.processInfo.environment[AccessSettings.keyVariable] {
  try await CheckToken.install(key: key)
}

do {
  try await Database.with(options.postgres, logger: logger) { _ in }
} catch {
  say("not ok - cannot connect to PostgreSQL as \(options.postgres.username): \(String(reflecting: error))")
  say("server-example: 0 passed, 1 failed")
  exit(1)
}
let report: Report
if options.adversarial {
  let key = ProcessInfo.processInfo.environment[AccessSettings.keyVariable] ?? ""
  report = await AdversarialCheck(options: options, key: key).run()
} else {
  report = await Check(options: options, logger: logger).run()
}
say(report.summary)
exit(report.failed == 0 ? 0 : 1)
