/// Counts the library's internal objects that are alive, by kind and event type, when a build opts in.
///
/// Tests use it to prove that every way a subscription can end frees what it allocated (G6). Counting by event type
/// lets a test that uses its own event type read its own count while other tests run in parallel. Counting takes a
/// process-wide lock on every creation and destruction, so it is compiled in only for debug builds with the package
/// trait `LiveObjects` (`swift test --traits LiveObjects`); otherwise nothing is counted and `count` reads 0.
///
/// A leak check (the `EventBusTesting` product) also opens a *scope* around a test: every object created while the
/// scope's task-local value is set, by the test's task and the tasks it starts, is remembered with its kind, event type
/// and, for a subscription, where it was subscribed, until it is destroyed. What is still remembered when the scope
/// ends has leaked. Scopes are per task, so tests running in parallel do not see each other's objects.
package enum LiveObjects {
  /// Whether this build counts live objects.
  package static var isEnabled: Bool {
    #if EVENTBUS_LIVE_OBJECTS
      return true
    #else
      return false
    #endif
  }

  /// One object created in a scope and not destroyed yet.
  package struct Survivor: Sendable, Hashable {
    /// What it is: `Output`, `Output.Entry`, `DeliveryLane`, `Broadcaster`, `Broadcaster.FanOut`,
    /// `Broadcaster.Connection`.
    package var kind: String
    /// The event type, as `String(reflecting:)` spells it.
    package var eventType: String
    /// Where it was subscribed, for a subscription or a lane; `nil` for the others.
    package var site: CallSite?
  }

  /// The scope the current task creates objects in, if a leak check is running.
  @TaskLocal package static var scope: UInt64?

  private struct ObjectKey: Hashable {
    var kind: String
    var object: ObjectIdentifier
  }

  private struct Registry {
    var counts: [String: Int] = [:]
    var lastScope: UInt64 = 0
    var openScopes: Set<UInt64> = []
    /// The objects created in an open scope, by kind and identity.
    var survivors: [ObjectKey: (scope: UInt64, survivor: Survivor)] = [:]
    /// Who waits for a scope's survivors to go, by scope: resumed by the destruction of the last one, or on timeout.
    var releaseWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]

    func hasSurvivors(in scope: UInt64) -> Bool {
      survivors.values.contains { $0.scope == scope }
    }
  }

  #if EVENTBUS_LIVE_OBJECTS
    private static let registry = LockedState(Registry())
  #endif

  /// The number of live objects of `kind` (for example `"Output.Entry"`) for events of type `eventType`.
  package static func count(_ kind: String, for eventType: Any.Type) -> Int {
    #if EVENTBUS_LIVE_OBJECTS
      let key = "\(kind)<\(String(reflecting: eventType))>"
      return registry.withLock { $0.counts[key, default: 0] }
    #else
      return 0
    #endif
  }

  /// Every live object of every kind for events of type `eventType`.
  package static func total(for eventType: Any.Type) -> Int {
    #if EVENTBUS_LIVE_OBJECTS
      let suffix = "<\(String(reflecting: eventType))>"
      return registry.withLock { registry in
        registry.counts.filter { $0.key.hasSuffix(suffix) }.values.reduce(0, +)
      }
    #else
      return 0
    #endif
  }

  /// Opens a scope; run the code to check with ``scope`` set to the result, then call ``endScope(_:)``.
  package static func beginScope() -> UInt64 {
    #if EVENTBUS_LIVE_OBJECTS
      return registry.withLock { registry in
        registry.lastScope += 1
        registry.openScopes.insert(registry.lastScope)
        return registry.lastScope
      }
    #else
      return 0
    #endif
  }

  /// Closes `scope` and returns the objects created in it that are still alive, in a stable order.
  package static func endScope(_ scope: UInt64) -> [Survivor] {
    #if EVENTBUS_LIVE_OBJECTS
      let survivors = registry.withLock { registry -> [Survivor] in
        registry.openScopes.remove(scope)
        let keys = registry.survivors.filter { $0.value.scope == scope }.map(\.key)
        return keys.compactMap { registry.survivors.removeValue(forKey: $0)?.survivor }
      }
      return survivors.sorted { lhs, rhs in
        (lhs.kind, lhs.eventType, lhs.site?.description ?? "") < (rhs.kind, rhs.eventType, rhs.site?.description ?? "")
      }
    #else
      return []
    #endif
  }

  /// Suspends until every object created in `scope` has been destroyed, or `timeout` nanoseconds have passed, or the
  /// task is cancelled; without polling: the destruction of the last one resumes it.
  ///
  /// What a test started on another queue or task (a queued delivery, a source's task ending after its cancellation)
  /// may let go of the objects a moment after the test returns; a leak check waits for that before it looks.
  package static func waitForRelease(of scope: UInt64, timeoutNanoseconds: UInt64) async {
    #if EVENTBUS_LIVE_OBJECTS
      await withTaskGroup(of: Void.self) { group in
        group.addTask {
          await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
              let isReleased = registry.withLock { registry -> Bool in
                guard registry.hasSurvivors(in: scope), !Task.isCancelled else { return true }
                registry.releaseWaiters[scope] = continuation
                return false
              }
              if isReleased {
                continuation.resume()
              }
            }
          } onCancel: {
            registry.withLock { $0.releaseWaiters.removeValue(forKey: scope) }?.resume()
          }
        }
        group.addTask {
          try? await Task.sleep(nanoseconds: timeoutNanoseconds)
        }
        await group.next()
        group.cancelAll()
      }
    #endif
  }

  @inline(__always)
  package static func created(_ kind: String, for eventType: Any.Type, object: ObjectIdentifier) {
    #if EVENTBUS_LIVE_OBJECTS
      let type = String(reflecting: eventType)
      let key = "\(kind)<\(type)>"
      let scope = Self.scope
      registry.withLock { registry in
        registry.counts[key, default: 0] += 1
        if let scope, registry.openScopes.contains(scope) {
          registry.survivors[ObjectKey(kind: kind, object: object)] =
            (scope, Survivor(kind: kind, eventType: type, site: nil))
        }
      }
    #endif
  }

  /// Records where the object was subscribed, if a scope remembers it; the first site given stays.
  @inline(__always)
  package static func subscribed(_ kind: String, object: ObjectIdentifier, at site: CallSite) {
    #if EVENTBUS_LIVE_OBJECTS
      registry.withLock { registry in
        let key = ObjectKey(kind: kind, object: object)
        if registry.survivors[key]?.survivor.site == nil {
          registry.survivors[key]?.survivor.site = site
        }
      }
    #endif
  }

  @inline(__always)
  package static func destroyed(_ kind: String, for eventType: Any.Type, object: ObjectIdentifier) {
    #if EVENTBUS_LIVE_OBJECTS
      let key = "\(kind)<\(String(reflecting: eventType))>"
      let released = registry.withLock { registry -> CheckedContinuation<Void, Never>? in
        registry.counts[key, default: 0] -= 1
        guard !registry.survivors.isEmpty,
          let scope = registry.survivors.removeValue(forKey: ObjectKey(kind: kind, object: object))?.scope,
          registry.releaseWaiters[scope] != nil, !registry.hasSurvivors(in: scope)
        else { return nil }
        return registry.releaseWaiters.removeValue(forKey: scope)
      }
      // Resumed after unlocking: the waiter's task may run at once, and it takes the lock too.
      released?.resume()
    #endif
  }
}
