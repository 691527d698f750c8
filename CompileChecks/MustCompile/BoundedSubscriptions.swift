// Bounded subscriptions read as the unbounded ones do: the policy is part of the delivery context (`.queue`,
// `.main`), or one labelled argument for an actor, whose handler stays isolated to it; onLag is optional, and a
// main-actor onLag runs on the main actor.
import Dispatch
import EventBus

@MainActor final class ProgressBar {
  var fraction = 0.0
  var skipped = 0
}

final class Sink: Sendable {
  func write(_ line: String) {}
}

actor Indexer {
  private(set) var indexed: [String] = []
  func index(_ line: String) { indexed.append(line) }
}

@MainActor func subscribe(progress: Output<Double>, bar: ProgressBar) -> ResponderSubscription {
  progress.subscribe(bar, on: .main(bufferingPolicy: .latest, onLag: { bar.skipped += $0 })) { bar, fraction in
    bar.fraction = fraction
  }
}

func subscribe(log: Output<String>, sink: Sink, queue: DispatchQueue, indexer: Indexer) -> [any EventCancellable] {
  let token = log.subscribe(on: .queue(queue, bufferingPolicy: .bufferingOldest(10))) { line in sink.write(line) }
  let handle = log.subscribe(sink, on: .queue(queue, bufferingPolicy: .bufferingNewest(1_000))) { sink, line in
    sink.write(line)
  }
  let actorHandle = log.subscribe(indexer, bufferingPolicy: .bufferingNewest(100)) { indexer, line in
    indexer.index(line)
  }
  let unbounded = log.subscribe(indexer) { indexer, line in indexer.index(line) }
  _ = token.droppedCount + handle.droppedCount + actorHandle.waitingCount + unbounded.droppedCount
  return [token, handle, actorHandle, unbounded]
}
