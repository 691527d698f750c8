/// `async-stream` in `actor`: one `AsyncStream` per actor, as a store fed by
/// `Task { for await event in stream { await store.apply(event) } }`. Every event is yielded to each stream; a
/// consumer that was waiting resumes in its task and takes what its stream has buffered, one call to the actor each.
final class AsyncStreamActorContender: ActorContender {
  private let continuations: [AsyncStream<ActorEvent>.Continuation]

  init(responders: [ActorResponder]) {
    continuations = responders.map { responder in
      let (stream, continuation) = AsyncStream.makeStream(of: ActorEvent.self)
      Task {
        for await event in stream {
          await responder.apply(event)
        }
      }
      return continuation
    }
  }

  /// Ends the streams, and so the consumer tasks.
  deinit {
    for continuation in continuations {
      continuation.finish()
    }
  }

  func send(_ event: ActorEvent) {
    for continuation in continuations {
      continuation.yield(event)
    }
  }
}
