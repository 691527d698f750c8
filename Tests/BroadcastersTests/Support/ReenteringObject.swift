import Broadcasters
import EventBus
import EventBusTestSupport

extension Reentry {
  /// Calls on `broadcaster`, emitting `event` upstream through the live connection of `source`.
  static func broadcaster<Event: Sendable>(
    _ broadcaster: Broadcaster<Event>, emitting event: Event, through source: SourceProbe<Event>
  ) -> Reentry {
    Reentry(
      subscriberCount: { [weak broadcaster] in broadcaster?.subscriberCount },
      send: { source.emit(event) },
      subscribe: { [weak broadcaster] in broadcaster?.subscribe { _ in } }
    )
  }
}
