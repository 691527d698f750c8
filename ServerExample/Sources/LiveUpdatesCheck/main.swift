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

let database: Database
do {
  database = try await Database.connect(options.postgres, logger: logger)
} catch {
  print("not ok - cannot connect to PostgreSQL as \(options.postgres.username): \(String(reflecting: error))")
  print("server-example: 0 passed, 1 failed")
  exit(1)
}
let check = Check(options: options, database: database, logger: logger)
let report =
  switch options.design {
  case .shared: await check.runShared()
  case .perClient: await check.runPerClient()
  }
try? await database.connection.close().get()
print(report.summary)
exit(report.failed == 0 ? 0 : 1)
