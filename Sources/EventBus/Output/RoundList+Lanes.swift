// How a round offers its event to the lanes of the list: each lane once, at the first of its entries the round
// reaches, with the list and the lane's places in it, found again after each change.

extension RoundList {
  /// The lane step of a round for the queued entry at `offset`: offers the event to the entry's lane if this is the
  /// first of its entries the round reached, and returns whether the entry takes the event inline. Counts in
  /// `lanesLeft` the lanes the round still has to walk for: not offered yet, or leaving the event to their entries.
  @inlinable @inline(__always)
  func takesInline(
    _ event: Event, at offset: Int, of entry: Output<Event>.EventEntry, lanesLeft: inout Int,
    _ holder: borrowing DeliveryHolder
  ) -> Bool {
    let index = Int(contents.pointee.laneIndexes[offset])
    if contents.pointee.lanes[index].offeredRound != contents.pointee.round {
      offer(event, to: entry, laneAt: index, holder)
      if !contents.pointee.lanes[index].deliversInline {
        lanesLeft &-= 1
      }
    }
    return contents.pointee.lanes[index].deliversInline
  }

  /// Starts a round: finds the lanes again if the list changed, and numbers the round if it has lanes. Returns how many
  /// lanes the round has to offer the event to.
  @inlinable @inline(__always)
  func beginRound(_: borrowing DeliveryHolder) -> Int {
    guard contents.pointee.roundHasLaneWork else { return 0 }
    if contents.pointee.lanesAreStale {
      findLanes()
    }
    let lanes = contents.pointee.lanes.count
    if lanes > 0 {
      contents.pointee.round &+= 1
    }
    return lanes
  }

  /// Whether the list has an entry delivered on the sending thread.
  @inlinable @inline(__always)
  var hasImmediateEntries: Bool { contents.pointee.hasImmediateEntries }

  /// Offers `event` to the lane of `entry`, at `index` of ``Contents/lanes``, with the list and the lane's places in
  /// it, and notes what it did: queued the event for all of its entries, or left it to them to take inline.
  ///
  /// The lane is reached through the entry, whose `lane` is immutable, so it is borrowed: a lane is also referenced
  /// weakly (by the storage), which sends its every retain and release through a side table.
  @inlinable @inline(never)
  func offer(
    _ event: Event, to entry: Output<Event>.EventEntry, laneAt index: Int, _: borrowing DeliveryHolder
  ) {
    // The route says what the entry is.
    let entry = unsafeDowncast(entry, to: Output<Event>.QueuedEntry.self)
    let queued = entry.lane.take(
      event, entries: list.pointee.entries, offsets: contents.pointee.lanes[index].offsets)
    if queued {
      contents.pointee.isShared = true
    }
    contents.pointee.lanes[index].offeredRound = contents.pointee.round
    contents.pointee.lanes[index].deliversInline = !queued
  }

  /// Finds each lane's entries in the list, in order, after the list changed.
  @usableFromInline @inline(never)
  func findLanes() {
    var lanes = ContiguousArray<LanePlan>()
    var laneIndexes = ContiguousArray<Int32>()
    var hasImmediateEntries = false
    for (offset, entry) in list.pointee.entries.enumerated() {
      guard let entry else { continue }
      switch entry.route {
      case .responder, .handler:
        hasImmediateEntries = true
      case .queue, .main:
        // The route says what the entry is.
        let lane = unsafeDowncast(entry, to: Output<Event>.QueuedEntry.self).lane
        if laneIndexes.isEmpty {
          laneIndexes = ContiguousArray(repeating: -1, count: list.pointee.entries.count)
        }
        let index = lanes.firstIndex { $0.lane === lane } ?? lanes.endIndex
        if index == lanes.endIndex {
          lanes.append(LanePlan(lane: lane, offsets: []))
        }
        lanes[index].offsets.append(Int32(truncatingIfNeeded: offset))
        laneIndexes[offset] = Int32(truncatingIfNeeded: index)
      }
    }
    contents.pointee.lanes = lanes
    contents.pointee.laneIndexes = laneIndexes
    contents.pointee.hasImmediateEntries = hasImmediateEntries
    contents.pointee.lanesAreStale = false
    contents.pointee.roundHasLaneWork = !lanes.isEmpty
  }
}
