extension DeliveryLane {
  /// Where `lane`'s entries are in `list`, whether they are all of its entries delivered through a lane, and whether
  /// they are all of its entries.
  static func offsets(
    of lane: DeliveryLane, in list: EntryList
  ) -> (offsets: ContiguousArray<Int32>, coverEveryQueuedEntry: Bool, coverEveryEntry: Bool) {
    var offsets = ContiguousArray<Int32>()
    var otherQueued = 0
    var others = 0
    for (offset, entry) in list.enumerated() {
      guard let entry else { continue }
      let eventEntry = unsafeDowncast(entry, to: Output<Event>.EventEntry.self)
      if eventEntry.isIn(lane) {
        offsets.append(Int32(truncatingIfNeeded: offset))
      } else {
        others += 1
        if eventEntry.route == .queued {
          otherQueued += 1
        }
      }
    }
    return (offsets, otherQueued == 0, others == 0)
  }
}
