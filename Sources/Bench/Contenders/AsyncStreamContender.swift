import BenchHarness

/// `async-stream`: one `AsyncStream` per responder, as a screen that runs
/// `Task { for await event in stream { handle(event) } }` on the main actor. Every event is yielded to each
/// stream; a consumer that was waiting resumes as a main-actor job and takes what its stream has buffered.
final class AsyncStreamContender: MainActorContender {
  private let continuations: [AsyncStream<MainActorEvent>.Continuation]

  @MainActor
  init(responders: [MainActorResponder]) {
    continuations = responders.map { responder in
      let (stream, continuation) = AsyncStream.makeStream(of: MainActorEvent.self)
      Task { @MainActor in
        for await event in stream {
          responder.handle(event)
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

  func send(_ event: MainActorEvent) {
    for continuation in continuations {
      continuation.yield(event)
    }
  }
}
