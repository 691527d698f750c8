import Foundation
import LiveUpdates

extension Check {
  /// While publishers POST to both processes: a PostgreSQL restart, an outage, a terminated LISTEN connection, and a
  /// server process killed, whose clients come back to the other one with their last id.
  func runFaults(_ faults: CheckOptions.Faults, clients: [LoadClient]) async {
    say("# faults, while events are POSTed")
    let publishing = publishUntilStopped(tag: "fault")
    try? await Task.sleep(for: .seconds(1))

    // A restart: every LISTEN connection and pool connection is cut; the servers reconnect and catch up.
    let beforeRestart = await statistics()
    report.check(await run(faults.restartPostgres), "PostgreSQL restarted")
    let reconnectedAfterRestart = await waitUntil(.seconds(30)) {
      let now = await statistics()
      return options.servers.allSatisfy {
        (now[$0.process]?.reconnects ?? 0) > (beforeRestart[$0.process]?.reconnects ?? 0)
      }
    }
    report.check(reconnectedAfterRestart, "after the restart every process reconnected its LISTEN connection")
    try? await Task.sleep(for: .seconds(2))

    // An outage: POSTs are refused with 503 within the deadline, none acknowledged.
    let refusedBefore = ledger.state.withLock { $0.refusalTimes.count }
    report.check(await run(faults.stopPostgres), "PostgreSQL stopped for \(faults.outage)")
    try? await Task.sleep(for: faults.outage)
    let refusals = ledger.state.withLock { Array($0.refusalTimes.dropFirst(refusedBefore)) }
    report.check(await run(faults.startPostgres), "PostgreSQL started again")
    let slowest = refusals.max() ?? .zero
    report.check(
      !refusals.isEmpty && slowest <= .seconds(2),
      "during the outage \(refusals.count) POSTs were answered 503, the slowest in \(slowest.milliseconds) (bound 2 s)")
    let reconnectedAfterOutage = await waitUntil(.seconds(30)) {
      await statistics().values.allSatisfy { $0.listenConnections == 1 }
    }
    report.check(reconnectedAfterOutage, "after the outage every process holds its LISTEN connection again")
    try? await Task.sleep(for: .seconds(1))

    // A terminated LISTEN connection, on the second process this time.
    let second = options.servers[1].process
    let terminated =
      (try? await Database.with(options.postgres, logger: logger) {
        try await $0.terminate(applicationName: "live-updates \(second) listen")
      }) ?? 0
    report.check(terminated == 1, "pg_terminate_backend ended \(second)'s LISTEN connection")
    _ = await sampleListenConnections()
    try? await Task.sleep(for: .seconds(1))

    // A process killed: its clients reconnect to the other one with their last id.
    let killed = faults.killedServer
    report.check(await run(faults.killServer), "server \(killed) killed (SIGKILL)")
    try? await Task.sleep(for: .seconds(2))
    ledger.state.withLock { $0.stopsPublishing = true }
    await publishing.value
    let survivors = await waitUntil(.seconds(30)) {
      clients.allSatisfy { $0.isSubscribed }
    }
    report.check(survivors, "every client is served again, those of \(killed) by another process")
    _ = await sampleListenConnections()
  }
}
