/// Races a wait for deliveries against a time limit, for the kit's `waitUntilDelivered(timeout:)`.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
enum DeliveryTimeout {
  static func wait(
    for stream: String,
    subscribers: Int,
    timeout: Duration,
    at site: TestCallSite,
    _ wait: @escaping @Sendable () async throws -> Void
  ) async -> Bool {
    let delivered = await race(timeout: timeout, wait)
    if delivered == false {
      TestFailure.record(
        "\(stream): not every subscriber had handled what was sent within \(timeout.shortDescription) "
          + "(\(subscribers) subscriber\(subscribers == 1 ? "" : "s"))",
        at: site)
    }
    return delivered == true
  }

  /// `true` when `wait` returned first, `false` when `timeout` passed first, `nil` when the task was cancelled.
  static func race(timeout: Duration, _ wait: @escaping @Sendable () async throws -> Void) async -> Bool? {
    let outcome = await withTaskGroup(of: Bool?.self) { group -> Bool? in
      group.addTask {
        do {
          try await wait()
          return true
        } catch {
          return nil
        }
      }
      group.addTask {
        do {
          try await Task.sleep(nanoseconds: timeout.clampedNanoseconds)
          return false
        } catch {
          return nil
        }
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
    return Task.isCancelled ? nil : outcome
  }
}
