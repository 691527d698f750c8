// Token-owned subscriptions: kept in a property, a set or an array, cancelled explicitly; the @Sendable handler
// captures only Sendable values.
import Dispatch
import EventBus
import Synchronization

struct Reading: Sendable {
  let celsius: Double
}

final class Thermometer: Sendable {
  let readings = Output<Reading>()
  let maximum = Mutex(-Double.infinity)
  private let subscriptions = Mutex<Set<EventSubscription>>([])

  func start(on queue: DispatchQueue) {
    let subscription = readings.subscribe(on: .queue(queue)) { [weak self] reading in
      self?.maximum.withLock { $0 = Swift.max($0, reading.celsius) }
    }
    subscriptions.withLock { subscription.store(in: &$0) }
  }

  func stop() {
    subscriptions.withLock { $0.removeAll() }
  }
}

func watch(_ thermometer: Thermometer, hub: EventHub) -> [EventSubscription] {
  var subscriptions: [EventSubscription] = []
  thermometer.readings.subscribe { reading in hub.post(reading) }.store(in: &subscriptions)
  thermometer.readings.map(\.celsius).filter { $0 > 30 }.subscribe { _ in }.store(in: &subscriptions)
  let fromHub = hub.subscribe(Reading.self) { _ in }
  fromHub.cancel()
  subscriptions.append(fromHub)
  return subscriptions
}
