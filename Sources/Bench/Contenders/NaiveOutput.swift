/// The `Output` of the seed article: handlers in an array, called in turn.
///
/// What people write first. It holds its handlers (and what they capture) strongly, has no way to unsubscribe,
/// and is not thread-safe: two threads sending or subscribing at once race on the array.
final class NaiveOutput<Event> {
  private var handlers: [(Event) -> Void] = []

  func subscribe(_ handler: @escaping (Event) -> Void) {
    handlers.append(handler)
  }

  func send(_ event: Event) {
    for handler in handlers {
      handler(event)
    }
  }
}
