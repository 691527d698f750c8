// An actor responder: its handler is isolated to it, so it reads and changes the actor's state directly, with no
// lock and no await, on an output, through an operator, and on a broadcaster.
import Broadcasters
import EventBus
import Foundation

enum CartEvent: Sendable {
  case added(String)
  case cleared
}

actor CartStore {
  private(set) var items: [String] = []
  private(set) var ticks = 0

  func apply(_ event: CartEvent) {
    switch event {
    case .added(let item): items.append(item)
    case .cleared: items.removeAll()
    }
  }

  func subscribe(to output: Output<CartEvent>, ticks: Broadcaster<Date>) {
    output.subscribe(self) { store, event in store.apply(event) }
    output.map { _ in 1 }.subscribe(self) { store, count in store.ticks += count }
    let handle = ticks.subscribe(self) { store, _ in
      store.ticks += 1
      await Task.yield()
    }
    _ = handle.waitingCount + handle.droppedCount
  }
}
