import ServiceLifecycle
import Synchronization

/// The WebSocket clients open now, each with how to close it with 1001, "going away", and its last id.
public final class ClientRegistry: Sendable {
  private let closers = Mutex<(next: Int, byID: [Int: @Sendable () async -> Void])>((0, [:]))

  public init() {}

  /// Registers a client's close; returns the id to ``unregister(_:)`` it with when it ends.
  public func register(_ close: @escaping @Sendable () async -> Void) -> Int {
    closers.withLock { closers in
      closers.next += 1
      closers.byID[closers.next] = close
      return closers.next
    }
  }

  public func unregister(_ id: Int) {
    _ = closers.withLock { $0.byID.removeValue(forKey: id) }
  }

  /// How many clients are open.
  public var count: Int { closers.withLock { $0.byID.count } }

  /// Closes every client open now, all at once, and returns once each close frame went out.
  public func closeAll() async {
    let closes = closers.withLock { Array($0.byID.values) }
    await withTaskGroup(of: Void.self) { group in
      for close in closes {
        group.addTask { await close() }
      }
    }
  }
}

/// The first service to shut down: on SIGTERM it closes every client with 1001 and its last id (so that each resumes
/// on another process), before the server stops and the database pool closes. It waits at most `timeout` for the
/// close frames; the service group's grace period bounds the rest.
public struct GoingAwayService: Service {
  let clients: ClientRegistry
  let timeout: Duration

  public init(clients: ClientRegistry, timeout: Duration) {
    self.clients = clients
    self.timeout = timeout
  }

  public func run() async throws {
    try? await gracefulShutdown()
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await clients.closeAll() }
      group.addTask { [timeout] in try? await Task.sleep(for: timeout) }
      await group.next()
      group.cancelAll()
    }
  }
}
