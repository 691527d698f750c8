// MARK: - Subscribing and cancelling

extension Output: EntryOwner {
  func add(_ entry: EventEntry, at location: CallSite) {
    LiveObjects.subscribed("Output.Entry", object: ObjectIdentifier(entry), at: location)
    guard replayCount == 0 else { return addReplaying(entry, at: location) }
    let change = state.withLock { $0.subscribers.add(entry, at: location) }
    if change.shouldPrune {
      pruneDeadEntries()
    }
    change.membershipObserver?()
  }

  /// `add` for an output with a replay window: the new entry may have events to receive first. Kept out of `add`,
  /// whose unspecialised code would otherwise look up the generic step type's metadata on every subscribe.
  @inline(never)
  private func addReplaying(_ entry: EventEntry, at location: CallSite) {
    let thread = ThreadIdentity.current
    let step = state.withLock {
      DeliverySteps.subscribe(entry, at: location, from: thread, machine: &$0.machine, subscribers: &$0.subscribers)
    }
    if step.change.shouldPrune {
      pruneDeadEntries()
    }
    deliverRounds(step, by: thread)
  }

  /// Removes `entry`; called by its handle's or its own `cancel()`.
  ///
  /// Cancelling and pruning call the subscriber list, not a method of the generic machine: on this unspecialised
  /// path that would cost a generic metadata lookup per cancel.
  func remove(_ entry: Entry) {
    let thread = ThreadIdentity.current
    let change = state.withLock { $0.subscribers.cancel(entry, from: thread) }
    change.membershipObserver?()
  }
}

// MARK: - Package interface for Broadcasters

extension Output {
  /// The number of subscriptions not yet removed. Unlike ``subscriberCount`` it does not look at responders, so
  /// it may still count one that deinitialised and has not been pruned yet.
  package var occupiedCount: Int {
    state.withLock { $0.subscribers.count }
  }

  /// Sets the function called, with no lock held, after subscriptions were added or removed.
  ///
  /// A broadcaster uses it to connect on the first subscriber and disconnect after the last. Calls may arrive
  /// from several threads and in any order; read ``occupiedCount`` to learn the current state.
  package func setMembershipObserver(_ observer: (@Sendable () -> Void)?) {
    let old = state.withLock { replacing(&$0.subscribers.membershipObserver, with: observer) }
    _ = old  // released here, with no lock held
  }

  /// Removes subscriptions whose responder has deinitialised.
  ///
  /// Weak references are read outside the lock: reading one retains the responder, and the matching release could
  /// run its `deinit`, which is user code.
  package func pruneDeadEntries() {
    let entries = state.withLock { $0.subscribers.entries }
    var dead: [Entry] = []
    for case let entry? in entries where !unsafeDowncast(entry, to: EventEntry.self).isTargetAlive {
      dead.append(entry)
    }
    guard !dead.isEmpty else { return }
    let change = state.withLock { $0.subscribers.removeDead(dead) }
    change.membershipObserver?()
  }
}

extension Output: CustomDebugStringConvertible {
  /// The live subscriptions, with where each was made and its delivery context.
  public var debugDescription: String {
    let (entries, callSites) = state.withLock { ($0.subscribers.entries, $0.subscribers.callSites) }
    var lines: [String] = []
    for case let entry? in entries {
      let entry = unsafeDowncast(entry, to: EventEntry.self)
      guard entry.isTargetAlive else { continue }
      lines.append(
        "  #\(lines.count + 1) \(entry.targetDescription) at \(callSites.site(entry.callSite))"
          + " (\(entry.contextDescription))"
      )
    }
    let header =
      "Output<\(Event.self)>: \(lines.count) subscriber\(lines.count == 1 ? "" : "s")"
      + (replayCount > 0 ? ", replay \(replayCount)" : "")
    return ([header] + lines).joined(separator: "\n")
  }
}
