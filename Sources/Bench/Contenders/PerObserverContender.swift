import Broadcasters
import Foundation

/// `per-observer`: what apps do today. Every responder adds its own NotificationCenter observer, holding itself
/// weakly, and decodes the keyboard `userInfo` itself with the same `KeyboardUserInfo(userInfo:)` the
/// broadcaster uses.
final class PerObserverContender: ChurningContender, UpstreamContender {
  private let poster = KeyboardPoster()
  private let responders: [Responder]
  private let spare = Responder()
  /// The observer tokens, one per responder; reserved up front so `memory` counts only what observing costs.
  private var observers: [any NSObjectProtocol] = []
  private(set) var cycles = 0

  init(responderCount: Int) {
    responders = Responder.crowd(count: responderCount)
    observers.reserveCapacity(responderCount)
  }

  deinit {
    for observer in observers {
      poster.center.removeObserver(observer)
    }
  }

  func subscribeAll() {
    for responder in responders {
      observers.append(observe(for: responder))
    }
  }

  private func observe(for responder: Responder) -> any NSObjectProtocol {
    poster.center.addObserver(forName: KeyboardPoster.name, object: nil, queue: nil) { [weak responder] notification in
      guard let userInfo = notification.userInfo, let keyboard = try? KeyboardUserInfo(userInfo: userInfo) else {
        return
      }
      responder?.handle(.willShow(keyboard))
    }
  }

  func send(events: Int) {
    poster.post(events)
  }

  func subscribeAndCancel(cycles count: Int) {
    for _ in 0..<count {
      poster.center.removeObserver(observe(for: spare))
    }
    cycles += count
  }

  var deliveries: Int { responders.deliveries + spare.deliveries }

  /// One observer per responder: the tokens this contender holds, each registered with the centre and not removed.
  /// (swift-foundation's `NotificationCenter` cannot be asked, nor subclassed to count: its observer methods are
  /// not `open`.)
  var upstreamSubscriptions: Int { observers.count }
}
