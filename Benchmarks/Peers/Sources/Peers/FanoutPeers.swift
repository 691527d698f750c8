import OpenCombine
import PeersHarness

/// The `fanout` scenario with OpenCombine: one event sent to N responders, each subscribed by a `sink` that holds
/// it weakly, as a view holds `[weak self]` in its sinks.
enum FanoutPeers {
  /// `opencombine-subject`: N sinks on one `PassthroughSubject`.
  static func subject(responderCount: Int) -> TimedWorkload {
    let subject = PassthroughSubject<Int, Never>()
    let responders = (0..<responderCount).map { _ in Responder() }
    let cancellables = responders.map { responder in
      subject.sink { [weak responder] sequence in responder?.handle(sequence) }
    }
    return TimedWorkload(
      name: "opencombine-subject", unitsPerIteration: responderCount,
      run: { events in
        for sequence in 0..<events {
          subject.send(sequence)
        }
        withExtendedLifetime(cancellables) {}
      },
      completedUnits: { responders.deliveries })
  }

  /// `opencombine-share`: N sinks on `share()` of a `PassthroughSubject`, one upstream subscription for them all.
  static func share(responderCount: Int) -> TimedWorkload {
    let subject = PassthroughSubject<Int, Never>()
    let shared = subject.share()
    let responders = (0..<responderCount).map { _ in Responder() }
    let cancellables = responders.map { responder in
      shared.sink { [weak responder] sequence in responder?.handle(sequence) }
    }
    return TimedWorkload(
      name: "opencombine-share", unitsPerIteration: responderCount,
      run: { events in
        for sequence in 0..<events {
          subject.send(sequence)
        }
        withExtendedLifetime(cancellables) {}
      },
      completedUnits: { responders.deliveries })
  }
}
