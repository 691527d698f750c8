// MARK: - Delivery

extension Output {
  /// Hands `event` to every entry of `slots` not skipped. Returns whether a responder was found deinitialised.
  ///
  /// The hot loop of the library, inlined into the caller's module and specialised for its event type. Two choices
  /// in it were measured with callgrind, per delivery for Bench's `output` and `output-token` at N = 100:
  /// - `slots` holds every entry for the whole loop, so each entry is borrowed rather than retained and released:
  ///   that saves two atomic operations per subscriber (215 instead of 267 instructions; 44 instead of 96).
  /// - An entry delivered immediately is read here and its handler called from here, chosen by its `route`, rather
  ///   than through a virtual call into the entry, whose prologue and epilogue cost as much as the loop itself (197
  ///   instead of 214 instructions; 34 instead of 43). Queued entries, rare and costly anyway, still take that call.
  @inlinable @inline(__always)
  static func deliver(_ event: Event, to slots: UnsafeBufferPointer<DeliveryMember?>) -> Bool {
    assert(MemoryLayout<Entry?>.stride == MemoryLayout<UnsafeRawPointer?>.stride)
    guard let base = UnsafeRawPointer(slots.baseAddress) else { return false }
    var deadFound = false
    // Each slot is an `Entry?`: one nullable object pointer, read as a raw pointer and borrowed.
    for offset in 0..<slots.count {
      guard
        let object = base.load(
          fromByteOffset: offset &* MemoryLayout<UnsafeRawPointer?>.stride, as: UnsafeRawPointer?.self)
      else { continue }
      Unmanaged<Entry>.fromOpaque(object)._withUnsafeGuaranteedRef { entry in
        guard !entry.isSkipped else { return }
        switch entry.route {
        case .responder:
          if !unsafeDowncast(entry, to: ResponderEntry.self).deliverNow(event) {
            entry.isDead = true
            deadFound = true
          }
        case .handler:
          unsafeDowncast(entry, to: HandlerEntry.self).handler(event)
        case .mailbox:
          if !entry.receive(event) {
            entry.isDead = true
            deadFound = true
          }
        }
      }
    }
    return deadFound
  }

  /// Delivers `event` to the published list, borrowed with no lock: the caller holds the delivery, so the list
  /// cannot change until it lets go (`DeliveryRoster`).
  @inlinable @inline(__always)
  func deliverToPublished(_ event: Event) -> Bool {
    Self.deliver(event, to: latch.publishedElements.pointee)
  }

  /// Delivers rounds until the machine has nothing left for this thread. Called by the one thread that holds the
  /// delivery (or by a `send` that found another thread holding it, with `.idle`), with no lock held.
  @inlinable
  func deliverRounds(_ first: consuming Machine.NextAction, by thread: ThreadIdentity) {
    var next = first
    while true {
      switch consume next {
      case .idle:
        return
      case .deliver(let event, let snapshot):
        // The snapshot is released at the end of this case, with no lock held: it may hold the last reference to a
        // removed entry (and so to its handler's captures), whose deinit is user code.
        let deadFound = snapshot.withUnsafeBufferPointer { Self.deliver(event, to: $0) }
        next = finishRound(deadFound: deadFound, by: thread)
      case .replay(let events, let member):
        // Every member of an output's list is one of its entries. `leftovers` is released at the end of this case,
        // with no lock held, for the same reason.
        let deadFound = Self.deliver(events, to: unsafeDowncast(member, to: Entry.self))
        var leftovers = Machine.Leftovers()
        next = state.withLock {
          $0.finishReplay(to: member, deadFound: deadFound, by: thread, leftovers: &leftovers)
        }
        leftovers.membershipObserver?()
      }
    }
  }

  /// Reports, as the holder of the delivery, `thread`, the end of a round over the published list, and returns what to
  /// do next. The observer and what the round left over (an event out of the replay window, a replaced list) are
  /// called and released here, with no lock held.
  @inlinable
  func finishRound(deadFound: Bool, by thread: ThreadIdentity) -> Machine.NextAction {
    var leftovers = Machine.Leftovers()
    let next = state.withLock { $0.finishRound(deadFound: deadFound, by: thread, leftovers: &leftovers) }
    leftovers.membershipObserver?()
    return next
  }

  /// Hands a replay window to one entry that just subscribed. Returns whether its responder was found deinitialised.
  @usableFromInline
  static func deliver(_ events: ContiguousArray<Event>, to entry: Entry) -> Bool {
    for event in events where !entry.isSkipped && !entry.isDead {
      if !entry.receive(event) {
        entry.isDead = true
        return true
      }
    }
    return false
  }
}
