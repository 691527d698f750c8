import Dispatch
// OpenCombine predates Sendable; a subject locks internally, and each sink runs on the main queue alone.
@preconcurrency import OpenCombine
import OpenCombineDispatch
import PeersHarness

/// Bench's main-actor scenarios with OpenCombine: events sent from the measuring thread to N responders on the main
/// actor, with Bench's own batches, responders and main-queue block count (`MainActorWorkload`).
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
enum MainActorPeers {
  /// `opencombine-receive-on`: one `PassthroughSubject`, and for every responder its own
  /// `receive(on: DispatchQueue.main)` and `sink`, holding the responder weakly, as a screen subscribes to a view
  /// model's publisher. `receive(on:)` schedules every value on the queue as one block.
  static func receiveOn(responderCount: Int, pattern: SendingPattern) -> TimedWorkload {
    let subject = PassthroughSubject<MainActorEvent, Never>()
    let (responders, completion) = MainActorHop.run { MainActorResponder.crowd(count: responderCount) }
    let cancellables = responders.map { responder in
      subject.receive(on: DispatchQueue.main.ocombine).sink { [weak responder] event in
        guard let responder else { return }
        MainActor.assumeIsolated { responder.handle(event) }
      }
    }
    return MainActorWorkload.make(
      name: "opencombine-receive-on", pattern: pattern, responders: responders, completion: completion,
      send: { event in
        subject.send(event)
        withExtendedLifetime(cancellables) {}
      })
  }
}
