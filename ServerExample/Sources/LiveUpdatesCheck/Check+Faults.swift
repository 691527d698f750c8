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
    await checkNothingLost(after: "the restart", clients: clients)

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
    await checkNothingLost(after: "the outage", clients: clients)

    // A terminated LISTEN connection, on the second process this time.
    let second = options.servers[1].process
    let terminated =
      (try? await Database.with(options.postgres, logger: logger) {
        try await $0.terminate(applicationName: "live-updates \(second) listen")
      }) ?? 0
    report.check(terminated == 1, "pg_terminate_backend ended \(second)'s LISTEN connection")
    _ = await sampleListenConnections()
    await checkNothingLost(after: "the terminated LISTEN connection", clients: clients)

    // A process killed: its clients reconnect to another one with their last id. The publishers' keep-alive
    // connections to it break, and they POST to the others.
    let killed = faults.killedServer
    let living = options.servers.filter { $0.process != killed }
    report.check(await run(faults.killServer), "server \(killed) killed (SIGKILL)")
    try? await Task.sleep(for: .seconds(2))
    ledger.state.withLock { $0.stopsPublishing = true }
    await publishing.value
    // Each client holds a connection that has had its `subscribed` frame, and the processes still running count
    // every client as theirs: none is left on the killed one, none is between two connections.
    var served: [String: Int] = [:]
    let survivors = await waitUntil(.seconds(30)) {
      guard clients.allSatisfy(\.isSubscribed) else { return false }
      let now = await statistics()
      served = Dictionary(uniqueKeysWithValues: living.map { ($0.process, now[$0.process]?.clients ?? -1) })
      return served.values.reduce(0, +) == clients.count
    }
    report.check(
      survivors, "every client is served again, those of \(killed) by another process: \(served) clients",
      otherwise: "\(clients.count { !$0.isSubscribed }) of \(clients.count) clients without a subscribed connection")
    _ = await sampleListenConnections()
  }
  /// Every client has received every event of its topic committed so far, once, in order: checked after each fault
  /// but the last, which the whole run's count covers, so that a loss is pinned to the fault that caused it.
  private func checkNothingLost(after fault: String, clients: [LoadClient]) async {
    await checkNothingLost(
      clients, "after \(fault), every client received every event of its topic committed so far exactly once, in order")
  }

  /// Counts every client's events against the table (``account(_:topics:within:)``) and checks that each received
  /// every committed event of its topic once, in order, and, unless `resetsAllowed`, no `reset` frame. `claim` says
  /// what that means at this point of the run; the count of committed events follows it.
  @discardableResult
  func checkNothingLost(
    _ clients: [LoadClient], _ claim: String, within timeout: Duration = .seconds(60), resetsAllowed: Bool = true
  ) async -> Accounting {
    let accounting = await account(clients, topics: topics, within: timeout)
    report.check(
      accounting.lost == 0 && accounting.duplicated == 0 && accounting.outOfOrder == 0
        && (resetsAllowed || accounting.resets == 0),
      claim + " (\(accounting.committed) committed)",
      otherwise: "\(accounting.lost) lost, \(accounting.duplicated) duplicated, \(accounting.outOfOrder) out of "
        + "order, \(accounting.resets) resets; " + accounting.wrong.joined(separator: "; "))
    return accounting
  }
}
