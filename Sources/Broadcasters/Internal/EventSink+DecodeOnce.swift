extension EventSink {
  /// Sends `payload` decoded, or reports why it did not decode, under `name`, and sends nothing.
  ///
  /// The decode-once step that every notification source runs per payload, whatever the number of subscribers.
  /// `name` is only evaluated for a failure report.
  func send<Payload>(
    decoding payload: Payload,
    named name: @autoclosure () -> String,
    with decode: (Payload) throws -> Event
  ) {
    let event: Event
    do {
      event = try decode(payload)
    } catch {
      reportFailure(DecodeFailure(describing: error, name: name()))
      return
    }
    send(event)
  }
}

extension DecodeFailure {
  /// A failure report for `error`, thrown while decoding a payload called `name`.
  init(describing error: any Error, name: String) {
    if var failure = error as? DecodeFailure {
      failure.name = failure.name ?? name
      self = failure
    } else {
      self.init(name: name, reason: .other(String(describing: error)))
    }
  }
}
