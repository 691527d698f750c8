// MARK: - Channels

extension EventHub {
  /// The channel of one event type.
  struct Channel: Sendable {
    /// Always an `Output<Event>` for the event type it is stored under.
    let output: any ChannelOutput
    /// Subscribes in progress on this channel. While it is above zero the channel is not released, so a subscribe
    /// that found the channel cannot land in one that was dropped meanwhile.
    var subscribesInProgress = 0
  }

  /// Runs `body` with the channel of `Event`, creating the channel if needed, and releases the channel afterwards if
  /// `body` left it without subscribers.
  ///
  /// `body` runs with no lock held: subscribing can run user code (the deinit of a pruned responder).
  func withChannel<Event: Sendable, Result>(for type: Event.Type, _ body: (Output<Event>) -> Result) -> Result {
    let key = ObjectIdentifier(Event.self)
    let output = channels.withLock { channels -> Output<Event> in
      if let output = channels[key]?.output {
        channels[key]?.subscribesInProgress += 1
        return unsafeDowncast(output, to: Output<Event>.self)
      }
      let output = Output<Event>()
      output.setMembershipObserver { [weak self, weak output] in
        guard let self, let output else { return }
        self.releaseChannelIfUnused(key: key, output: output)
      }
      channels[key] = Channel(output: output, subscribesInProgress: 1)
      return output
    }
    let result = body(output)
    let released = channels.withLock { channels -> Channel? in
      channels[key]?.subscribesInProgress -= 1
      return Self.removeChannelIfUnused(key: key, output: output, from: &channels)
    }
    _ = released  // the output is freed here, outside the lock
    return result
  }

  /// Called by a channel after its subscriptions changed.
  private func releaseChannelIfUnused(key: ObjectIdentifier, output: any ChannelOutput) {
    let released = channels.withLock { channels in
      Self.removeChannelIfUnused(key: key, output: output, from: &channels)
    }
    _ = released  // the output is freed here, outside the lock
  }

  /// Removes the channel under `key` if it is still `output`, no subscribe is in progress on it and it has no
  /// subscriptions. The decision and the removal happen under the hub lock, so no subscribe can slip in between.
  private static func removeChannelIfUnused(
    key: ObjectIdentifier,
    output: any ChannelOutput,
    from channels: inout [ObjectIdentifier: Channel]
  ) -> Channel? {
    guard let channel = channels[key], channel.output === output, channel.subscribesInProgress == 0,
      channel.output.occupiedCount == 0
    else { return nil }
    return channels.removeValue(forKey: key)
  }
}

/// What the hub needs from a channel without knowing its event type.
protocol ChannelOutput: AnyObject, Sendable {
  var occupiedCount: Int { get }
  func pruneDeadEntries()
}

extension Output: ChannelOutput {}
