// Responders that may be called on any thread, written the two ways a user would: immutable, or with their mutable
// state behind a lock. Both subscribe on every context without a diagnostic.
import Dispatch
import EventBus
import Synchronization

enum CartEvent: Sendable, Equatable {
  case added(String)
  case cleared
}

// Immutable: only `let` properties of Sendable types.
final class CartAnalytics: Sendable {
  let sink: Output<String>

  init(sink: Output<String>) {
    self.sink = sink
  }

  func record(_ event: CartEvent) {
    sink.send("cart: \(event)")
  }
}

// Mutable state behind a Mutex, reached only inside withLock.
final class CartCounter: EventResponder {
  private let items = Mutex<[String]>([])

  var count: Int { items.withLock { $0.count } }

  func handle(event: CartEvent) {
    items.withLock { items in
      switch event {
      case .added(let item): items.append(item)
      case .cleared: items.removeAll()
      }
    }
  }
}

func subscribe(to cart: Output<CartEvent>, queue: DispatchQueue) -> [ResponderSubscription] {
  let analytics = CartAnalytics(sink: Output())
  let counter = CartCounter()
  let recorder = EventRecorder<CartEvent>()
  return [
    cart.subscribe(analytics) { analytics, event in analytics.record(event) },
    cart.subscribe(analytics, on: .queue(queue)) { analytics, event in analytics.record(event) },
    cart.subscribe(counter),
    cart.subscribe(counter, on: .queue(queue)),
    cart.subscribe(counter) { counter, event in counter.handle(event: event) },
    cart.removeDuplicates().subscribe(recorder),
  ]
}
