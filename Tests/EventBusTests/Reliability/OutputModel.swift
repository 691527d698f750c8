@testable import EventBus

/// What the randomised test does to an output, at the top level or from inside a handler.
///
/// Subscriptions are named by labels chosen when the sequence is generated, so removing operations while shrinking
/// never renames the others; an operation on a label that does not exist (yet, or any more) does nothing.
enum ModelOperation: Sendable, CustomStringConvertible {
  /// What a handler does when it receives a given event.
  enum Reaction: Sendable, CustomStringConvertible {
    case send(Int)
    case cancel(Int)
    case release(Int)
    case subscribe(Int, ModelKind)

    var description: String {
      switch self {
      case .send(let value): "send \(value)"
      case .cancel(let label): "cancel s\(label)"
      case .release(let label): "release s\(label)"
      case .subscribe(let label, let kind): "subscribe s\(label) (\(kind))"
      }
    }
  }

  case subscribe(Int, ModelKind)
  case cancel(Int)
  /// Drops the test's reference: the responder deinitialises, or the token is released.
  case release(Int)
  case send(Int)
  /// From now on, when subscriber `label` receives `event`, it does `reaction`: a reentrant send, or a membership
  /// change during delivery.
  case react(label: Int, event: Int, reaction: Reaction)

  var description: String {
    switch self {
    case .subscribe(let label, let kind): "subscribe s\(label) (\(kind))"
    case .cancel(let label): "cancel s\(label)"
    case .release(let label): "release s\(label)"
    case .send(let value): "send \(value)"
    case .react(let label, let event, let reaction): "s\(label), on receiving \(event): \(reaction)"
    }
  }
}

enum ModelKind: Sendable, CustomStringConvertible {
  case token, responder
  var description: String { self == .token ? "token" : "responder" }
}

/// The reference: who must receive what, from the guarantees of Runtime Behavior, with nothing but arrays and one thread.
///
/// - A send while a delivery runs is queued; queued events are delivered first in, first out (G2, G3).
/// - A delivery goes to the subscribers live when it begins, in subscription order, skipping any that end during it
///   (G1, G4, G5).
/// - With replay, a new subscriber first gets the window (the last n events whose delivery began), before any event
///   delivered after it joined; if a delivery is running, once the current round is over.
///
/// One concession to the caller's side: a subscribe that delivers its replay at once runs handlers before it has
/// returned the token or handle, and while its caller still holds the responder. Until it returns, that subscription
/// cannot be cancelled, nor its responder deinitialised; both the harness and the model end it as soon as subscribe
/// returns.
struct ReferenceModel {
  private struct Subscriber {
    var label: Int
    var isLive = true
    var received: [Int] = []
  }

  let replay: Int
  private var subscribers: [Subscriber] = []
  private var reactions: [Int: [(event: Int, reaction: ModelOperation.Reaction)]] = [:]
  private var queued: [Int] = []
  private var replays: [(label: Int, events: [Int])] = []
  private var window: [Int] = []
  private var isDelivering = false
  private var subscribing: Int?
  private var endWhenSubscribed = false
  /// How many reactions handlers carried out, to tell how much a sequence exercised.
  private(set) var reactionsFired = 0

  init(replay: Int) {
    self.replay = replay
  }

  mutating func apply(_ operation: ModelOperation) {
    switch operation {
    case .subscribe(let label, _): subscribe(label)
    case .cancel(let label), .release(let label): end(label)
    case .send(let value): send(value)
    case .react(let label, let event, let reaction): reactions[label, default: []].append((event, reaction))
    }
  }

  /// What each subscriber received, by label.
  var received: [Int: [Int]] {
    Dictionary(subscribers.map { ($0.label, $0.received) }, uniquingKeysWith: { first, _ in first })
  }

  var liveCount: Int { subscribers.filter(\.isLive).count }

  private func index(of label: Int) -> Int? {
    subscribers.firstIndex { $0.label == label }
  }

  private mutating func subscribe(_ label: Int) {
    guard index(of: label) == nil else { return }
    subscribers.append(Subscriber(label: label))
    guard replay > 0, !window.isEmpty else { return }
    replays.append((label, window))
    guard !isDelivering else { return }
    subscribing = label
    deliver()
    subscribing = nil
    if endWhenSubscribed {
      endWhenSubscribed = false
      end(label)
    }
  }

  private mutating func end(_ label: Int) {
    guard let index = index(of: label) else { return }
    if label == subscribing {
      endWhenSubscribed = true
    } else {
      subscribers[index].isLive = false
    }
  }

  private mutating func send(_ value: Int) {
    queued.append(value)
    if !isDelivering { deliver() }
  }

  private mutating func deliver() {
    isDelivering = true
    while true {
      if !replays.isEmpty {
        let (label, events) = replays.removeFirst()
        for event in events {
          guard let index = index(of: label), subscribers[index].isLive else { break }
          receive(event, at: index)
        }
      } else if !queued.isEmpty {
        let event = queued.removeFirst()
        window.append(event)
        if window.count > replay { window.removeFirst() }
        let liveAtStart = subscribers.indices.filter { subscribers[$0].isLive }
        for index in liveAtStart where subscribers[index].isLive {
          receive(event, at: index)
        }
      } else {
        break
      }
    }
    isDelivering = false
  }

  private mutating func receive(_ event: Int, at index: Int) {
    subscribers[index].received.append(event)
    for (trigger, reaction) in reactions[subscribers[index].label, default: []] where trigger == event {
      reactionsFired += 1
      switch reaction {
      case .send(let value): send(value)
      case .cancel(let target), .release(let target): end(target)
      case .subscribe(let target, _): subscribe(target)
      }
    }
  }
}

/// An event of the randomised test; its own type, so the live-object counters of its runs can be read exactly.
struct ModelEvent: Sendable {
  var value: Int
}

/// The same operations on a real `Output`, on the calling thread.
final class RealSystem: @unchecked Sendable {
  // Only the thread that calls `apply` touches this state: every handler runs synchronously on it (immediate
  // delivery, and nobody else sends).
  private struct Subscriber {
    var kind: ModelKind
    var token: EventSubscription?
    var responder: Recorder<ModelEvent>?
    var handle: ResponderSubscription?
    var endWhenSubscribed = false
  }

  /// A bound on handler calls, so a bug that delivers without end fails instead of hanging.
  private static let handlerCallLimit = 100_000

  let output: Output<ModelEvent>
  private var subscribers: [Int: Subscriber] = [:]
  private var reactions: [Int: [(event: Int, reaction: ModelOperation.Reaction)]] = [:]
  private(set) var received: [Int: [Int]] = [:]
  private var handlerCalls = 0

  init(replay: Int) {
    output = Output(replay: replay)
  }

  func apply(_ operation: ModelOperation) {
    switch operation {
    case .subscribe(let label, let kind): subscribe(label, kind)
    case .cancel(let label): cancel(label)
    case .release(let label): release(label)
    case .send(let value): output.send(ModelEvent(value: value))
    case .react(let label, let event, let reaction): reactions[label, default: []].append((event, reaction))
    }
  }

  /// Ends every subscription and lets go of every responder.
  func tearDown() {
    for label in subscribers.keys { cancel(label) }
    subscribers = [:]
  }

  private func subscribe(_ label: Int, _ kind: ModelKind) {
    guard subscribers[label] == nil else { return }
    received[label] = []
    switch kind {
    case .token:
      subscribers[label] = Subscriber(kind: kind)
      let token = output.subscribe { [unowned self] event in self.handle(event.value, by: label) }
      subscribers[label]?.token = token
    case .responder:
      let responder = Recorder<ModelEvent>()
      subscribers[label] = Subscriber(kind: kind, responder: responder)
      let handle = output.subscribe(responder) { [unowned self] _, event in self.handle(event.value, by: label) }
      subscribers[label]?.handle = handle
    }
    if subscribers[label]?.endWhenSubscribed == true {
      cancel(label)
    }
  }

  private func cancel(_ label: Int) {
    guard let subscriber = subscribers[label] else { return }
    guard subscriber.token != nil || subscriber.handle != nil else {
      subscribers[label]?.endWhenSubscribed = true  // subscribe has not returned yet
      return
    }
    subscriber.token?.cancel()
    subscriber.handle?.cancel()
  }

  private func release(_ label: Int) {
    guard let subscriber = subscribers[label] else { return }
    if subscriber.kind == .token, subscriber.token == nil {
      subscribers[label]?.endWhenSubscribed = true  // subscribe has not returned yet
      return
    }
    // The references leave the bookkeeping first; the last one goes when `subscriber` does, at the end.
    subscribers[label]?.token = nil
    subscribers[label]?.responder = nil
    withExtendedLifetime(subscriber) {}
  }

  private func handle(_ event: Int, by label: Int) {
    received[label, default: []].append(event)
    handlerCalls += 1
    guard handlerCalls < Self.handlerCallLimit else { return }
    for (trigger, reaction) in reactions[label, default: []] where trigger == event {
      switch reaction {
      case .send(let value): output.send(ModelEvent(value: value))
      case .cancel(let target): cancel(target)
      case .release(let target): release(target)
      case .subscribe(let target, let kind): subscribe(target, kind)
      }
    }
  }
}
