// MARK: - Subscribing and cancelling

extension Output: MemberOwner {
  func add(_ entry: Entry, at location: CallSite) {
    guard replayCount == 0 else { return addReplaying(entry, at: location) }
    let addition = state.withLock { $0.roster.add(entry, at: location) }
    if addition.shouldPrune {
      pruneDeadEntries()
    }
    addition.membershipObserver?()
  }

  /// `add` for an output with a replay window: the new entry may have events to receive first. Kept out of `add`,
  /// whose unspecialised code would otherwise look up the generic action type's metadata on every subscribe.
  @inline(never)
  private func addReplaying(_ entry: Entry, at location: CallSite) {
    let thread = ThreadIdentity.current
    let action = state.withLock { $0.subscribe(entry, at: location, from: thread) }
    if let replay = action.replay {
      deliverRounds(.replay(replay, entry), by: thread)
    }
    if action.shouldPrune {
      pruneDeadEntries()
    }
    action.membershipObserver?()
  }

  /// Removes `entry`; called by its handle's or its mailbox's `cancel()`.
  ///
  /// Cancelling and pruning call the roster, not a method of the generic machine: on this unspecialised path that
  /// would cost a subscribe-and-cancel cycle 2,776 instructions instead of 2,435 (callgrind).
  func remove(_ entry: DeliveryMember) {
    let thread = ThreadIdentity.current
    if case .changed(let observer) = state.withLock({ $0.roster.cancel(entry, from: thread) }) {
      observer?()
    }
  }
}

// MARK: - Package interface for Broadcasters

extension Output {
  /// The number of subscriptions not yet removed. Unlike ``subscriberCount`` it does not look at responders, so
  /// it may still count one that deinitialised and has not been pruned yet.
  package var occupiedCount: Int {
    state.withLock { $0.roster.memberCount }
  }

  /// Sets the function called, with no lock held, after subscriptions were added or removed.
  ///
  /// A broadcaster uses it to connect on the first subscriber and disconnect after the last. Calls may arrive
  /// from several threads and in any order; read ``occupiedCount`` to learn the current state.
  package func setMembershipObserver(_ observer: (@Sendable () -> Void)?) {
    var observer = observer
    state.withLock { swap(&$0.membershipObserver, &observer) }
    _ = observer  // the old observer, released here with no lock held
  }

  /// Removes subscriptions whose responder has deinitialised.
  ///
  /// Weak references are read outside the lock: reading one retains the responder, and the matching release could
  /// run its `deinit`, which is user code.
  package func pruneDeadEntries() {
    let snapshot = state.withLock { $0.members }
    var dead: [DeliveryMember] = []
    for case let member? in snapshot where !unsafeDowncast(member, to: Entry.self).isTargetAlive {
      dead.append(member)
    }
    guard !dead.isEmpty else { return }
    if case .changed(let observer) = state.withLock({ $0.roster.removeDead(dead) }) {
      observer?()
    }
  }
}

extension Output: CustomDebugStringConvertible {
  /// The live subscriptions, with where each was made and its delivery context.
  public var debugDescription: String {
    let (snapshot, callSites) = state.withLock { ($0.members, $0.roster.callSites) }
    var lines: [String] = []
    for case let member? in snapshot {
      let entry = unsafeDowncast(member, to: Entry.self)
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
