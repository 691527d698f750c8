import Dispatch

/// The per-subscriber queue behind `.queue(_:)` and `.main` delivery (G11).
///
/// One drain block at a time runs on the target queue and hands the subscriber its events one by one, in order, so
/// order holds even on a concurrent queue. Cancelling drops what is still waiting: each event is checked just
/// before it runs (G4).
@usableFromInline
final class Mailbox<Event: Sendable>: Sendable {
  private struct State: Sendable {
    var pending = RingBuffer<Event>()
    var isDraining = false
    var isCancelled = false
  }

  private enum Admission {
    case dropped
    case queued
    case scheduleDrain
    case deliverInline
  }

  let queue: DispatchQueue
  private let runsInlineOnMainQueue: Bool
  private let state = LockedState(State())

  init(queue: DispatchQueue, runsInlineOnMainQueue: Bool) {
    self.queue = queue
    self.runsInlineOnMainQueue = runsInlineOnMainQueue
    LiveObjects.created("Mailbox", for: Event.self)
  }

  /// The mailbox of a queued delivery `context`: the main queue for `.main`, or the given queue. Immediate delivery
  /// needs none; given it, the mailbox delivers on the main queue.
  convenience init(context: DeliveryContext) {
    switch context.kind {
    case .immediate, .mainActor:
      self.init(queue: .main, runsInlineOnMainQueue: true)
    case .queue(let queue):
      self.init(queue: queue, runsInlineOnMainQueue: false)
    }
  }

  /// `main`, or `queue` and its label, for `debugDescription`.
  var contextDescription: String {
    queue === DispatchQueue.main ? "main" : "queue \(queue.label)"
  }

  deinit {
    LiveObjects.destroyed("Mailbox", for: Event.self)
  }

  /// Hands `event` to `entry` on the mailbox's queue, or at once when on the main queue (the main actor) with nothing
  /// waiting for this subscriber.
  @usableFromInline
  func enqueue(_ event: Event, for entry: Output<Event>.EventEntry) {
    let inlineAllowed = runsInlineOnMainQueue && MainQueue.isCurrent
    let admission = state.withLock { state -> Admission in
      if state.isCancelled { return .dropped }
      if state.isDraining {
        state.pending.append(event)
        return .queued
      }
      state.isDraining = true
      if inlineAllowed { return .deliverInline }
      state.pending.append(event)
      return .scheduleDrain
    }
    switch admission {
    case .dropped, .queued:
      return
    case .deliverInline:
      guard entry.deliver(event) else {
        entry.cancel()
        return
      }
      drain(for: entry)
    case .scheduleDrain:
      queue.async { self.drain(for: entry) }
    }
  }

  /// Drops everything waiting; later events are refused.
  func cancel() {
    let dropped = state.withLock { state in
      state.isCancelled = true
      return replacing(&state.pending, with: RingBuffer())
    }
    // Events are released here, outside the lock: their deinit is user code.
    _ = dropped
  }

  private func drain(for entry: Output<Event>.EventEntry) {
    while let event = nextEvent() {
      guard entry.deliver(event) else {
        // The responder deinitialised: nothing can ever be delivered again.
        entry.cancel()
        return
      }
    }
  }

  private func nextEvent() -> Event? {
    state.withLock { state in
      if !state.isCancelled, let event = state.pending.popFirst() {
        return event
      }
      state.isDraining = false
      return nil
    }
  }
}
