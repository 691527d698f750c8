import Broadcasters
import EventBus
import Foundation

/// `broadcaster`: this library's `KeyboardBroadcaster`. One NotificationCenter observer per keyboard notification
/// name and one decode per post, fanned out to every responder.
final class BroadcasterContender: ChurningContender, UpstreamContender {
  private let poster = KeyboardPoster()
  private let keyboard: KeyboardBroadcaster
  private let responders: [Responder]
  private let spare = Responder()
  private(set) var cycles = 0

  init(responderCount: Int) {
    keyboard = KeyboardBroadcaster(center: poster.center)
    responders = Responder.crowd(count: responderCount)
  }

  func subscribeAll() {
    for responder in responders {
      keyboard.subscribe(responder) { responder, event in responder.handle(event) }
    }
  }

  func send(events: Int) {
    poster.post(events)
  }

  func subscribeAndCancel(cycles count: Int) {
    for _ in 0..<count {
      keyboard.subscribe(spare) { responder, event in responder.handle(event) }.cancel()
    }
    cycles += count
  }

  var deliveries: Int { responders.deliveries + spare.deliveries }

  /// The upstream subscriptions the broadcaster holds: connections made less connections ended (G9).
  /// One connection observes each keyboard notification name once (`observerCount`), whatever N.
  var upstreamSubscriptions: Int { keyboard.connectCount - keyboard.disconnectCount }
}
