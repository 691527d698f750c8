extension EventSink {
  /// Decodes every element of `payloads` once and sends the result; a payload that does not decode is reported as a
  /// ``DecodeFailure`` and iteration goes on.
  ///
  /// The decode-once step of a source over raw payloads (strings, bytes, messages of a database or broker client):
  /// each payload is decoded here, once, however many subscribers the broadcaster has.
  ///
  /// ```swift
  /// try await connection.listen(on: "orders") { notifications in
  ///   try await sink.send(contentsOf: notifications, named: "orders") { try OrderEvent(json: $0.payload) }
  /// }
  /// ```
  ///
  /// A `DecodeFailure` thrown by `decode` is reported as it is (with `name` filled in if it has none); any other error
  /// is reported as ``DecodeFailure/Reason/other(_:)`` with its description.
  ///
  /// - Parameters:
  ///   - payloads: The raw payloads, in upstream order.
  ///   - name: What carries the payloads, for the failure reports: a channel, a subject, a topic.
  ///   - decode: Turns a payload into an event, or throws.
  /// - Throws: What iterating `payloads` throws; decoding errors are reported, not thrown.
  public func send<Payloads: AsyncSequence>(
    contentsOf payloads: Payloads,
    named name: String? = nil,
    decode: (Payloads.Element) throws -> Event
  ) async throws {
    for try await payload in payloads {
      do {
        send(try decode(payload))
      } catch var failure as DecodeFailure {
        if failure.name == nil { failure.name = name }
        reportFailure(failure)
      } catch {
        reportFailure(DecodeFailure(name: name, reason: .other("\(error)")))
      }
    }
  }
}
