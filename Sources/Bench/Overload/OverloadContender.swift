import BenchHarness
import EventBus

/// One contender of an overload scenario at one N: an `Output` and N slow subscribers, each subscribed with the
/// contender's buffering policy, on a serial queue of its own (`overload`) or on the main actor (`overload-main`).
final class OverloadContender: Sendable {
  let output = Output<OverloadEvent>()
  /// The subscriptions, for their `waitingCount` and `droppedCount`.
  let subscriptions: [ResponderSubscription]
  /// The handlers' work, skipped once the sender stops.
  let work: BusyWork
  /// Kept alive here: the output holds them weakly.
  private let subscribers: Subscribers

  private enum Subscribers {
    case queues([QueueSubscriber])
    case mainActor([MainActorSubscriber])
  }

  /// N subscribers of `scenario` with `policy`, each spinning `work` for every event.
  init(_ scenario: Scenario, policy: DeliveryContext.BufferingPolicy, responderCount: Int, work: BusyWork) {
    self.work = work
    let output = output
    switch scenario {
    case .overload:
      let subscribers = (0..<responderCount).map { QueueSubscriber(index: $0, work: work) }
      self.subscribers = .queues(subscribers)
      subscriptions = subscribers.map { subscriber in
        output.subscribe(subscriber, on: .queue(subscriber.queue, bufferingPolicy: policy)) { subscriber, event in
          subscriber.handle(event)
        }
      }
    case .overloadMain:
      let subscribers = MainActorHop.run { (0..<responderCount).map { _ in MainActorSubscriber(work: work) } }
      self.subscribers = .mainActor(subscribers)
      subscriptions = subscribers.map { subscriber in
        output.subscribe(subscriber, on: .main(bufferingPolicy: policy)) { subscriber, event in
          subscriber.handle(event)
        }
      }
    default:
      preconditionFailure("\(scenario.name) is not an overload scenario")
    }
  }

  /// The most events waiting for one subscriber right now. Allocates nothing: the sampler calls it while it watches
  /// the heap.
  var mostWaiting: Int {
    var most = 0
    for subscription in subscriptions {
      most = max(most, subscription.waitingCount)
    }
    return most
  }

  /// Events the subscribers' handlers received, all together; read once they have drained.
  var delivered: Int {
    switch subscribers {
    case .queues(let subscribers): subscribers.reduce(0) { $0 + $1.delivered }
    case .mainActor(let subscribers): MainActorHop.run { subscribers.reduce(0) { $0 + $1.delivered } }
    }
  }

  /// Events the subscribers' policies dropped, all together.
  var dropped: Int { subscriptions.reduce(0) { $0 + $1.droppedCount } }
}
