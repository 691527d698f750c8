import Broadcasters
import Foundation
// OpenCombine predates Sendable; its subjects lock internally, so sending from the observer block is safe.
@preconcurrency import OpenCombine
import OpenCombineFoundation
import PeersHarness

/// The `source-fanout` scenario with OpenCombine: one NotificationCenter post with a keyboard `userInfo` reaching N
/// responders, decoded once with the same `KeyboardUserInfo(userInfo:)` Bench's contenders use.
enum SourceFanoutPeers {
  /// `opencombine-subject`: one observer decodes and sends into a `PassthroughSubject` that N sinks hold.
  static func subject(responderCount: Int) -> TimedWorkload {
    let center = NotificationCenter()
    let subject = PassthroughSubject<KeyboardEvent, Never>()
    let observer = center.addObserver(forName: KeyboardNotification.willShow, object: nil, queue: nil) {
      notification in
      guard let userInfo = notification.userInfo, let keyboard = try? KeyboardUserInfo(userInfo: userInfo) else {
        return
      }
      subject.send(.willShow(keyboard))
    }
    return workload("opencombine-subject", subject.eraseToAnyPublisher(), center, responderCount, keeping: observer)
  }

  /// `opencombine-share`: NotificationCenter's publisher, decoded, then `share()`d by N sinks: one observer for all.
  static func share(responderCount: Int) -> TimedWorkload {
    let center = NotificationCenter()
    let shared = center.ocombine.publisher(for: KeyboardNotification.willShow)
      .compactMap { notification in
        notification.userInfo.flatMap { try? KeyboardUserInfo(userInfo: $0) }.map(KeyboardEvent.willShow)
      }
      .share()
    return workload("opencombine-share", shared.eraseToAnyPublisher(), center, responderCount, keeping: nil)
  }

  private static func workload(
    _ name: String, _ events: AnyPublisher<KeyboardEvent, Never>, _ center: NotificationCenter, _ responderCount: Int,
    keeping observer: (any NSObjectProtocol)?
  ) -> TimedWorkload {
    let responders = (0..<responderCount).map { _ in Responder() }
    let cancellables = responders.map { responder in
      events.sink { [weak responder] event in
        if case .willShow = event {
          responder?.handle(1)
        }
      }
    }
    let userInfo = KeyboardUserInfo(
      beginFrame: CGRect(x: 0, y: 844, width: 390, height: 336), endFrame: CGRect(x: 0, y: 508, width: 390, height: 336)
    ).userInfo
    return TimedWorkload(
      name: name, unitsPerIteration: responderCount,
      run: { posts in
        for _ in 0..<posts {
          center.post(name: KeyboardNotification.willShow, object: nil, userInfo: userInfo)
        }
        withExtendedLifetime((cancellables, observer)) {}
      },
      completedUnits: { responders.deliveries })
  }
}
