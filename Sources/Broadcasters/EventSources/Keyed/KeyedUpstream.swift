/// An upstream that carries many keys over one session: one database connection with a `LISTEN` per channel, one
/// broker connection with a subscription per subject. What a ``KeyedSource`` drives.
///
/// The source calls these requirements from one task at a time, in order, never while holding a lock: it opens a
/// session, attaches the keys that have subscribers, detaches those that no longer do, and closes the session after
/// its last key. When ``waitForEnd(of:)`` returns or throws, the session is lost: the source closes it, waits out its
/// backoff, opens a new one and attaches every live key again.
///
/// ```swift
/// struct ChannelUpstream: KeyedUpstream {
///   let client: PubSubClient
///   func openSession() async throws -> PubSubConnection { try await client.connect() }
///   func attach(_ channel: String, to connection: PubSubConnection, emitting sink: EventSink<Message>) async throws {
///     try await connection.subscribe(channel) { payload in sink.send(Message(payload)) }
///   }
///   func detach(_ channel: String, from connection: PubSubConnection) async throws {
///     try await connection.unsubscribe(channel)
///   }
///   func waitForEnd(of connection: PubSubConnection) async throws { try await connection.closed() }
///   func closeSession(_ connection: PubSubConnection) async { await connection.close() }
/// }
/// ```
public protocol KeyedUpstream<Key, Event>: Sendable {
  /// What names one stream of events in the upstream: a channel, a subject, a topic.
  associatedtype Key: Hashable & Sendable
  /// The events the upstream's keys carry, decoded.
  associatedtype Event: Sendable
  /// One live connection to the upstream.
  associatedtype Session: Sendable

  /// Connects. The source calls it when a key gets its first subscriber and no session is open.
  ///
  /// - Returns: The session, which the other requirements receive.
  /// - Throws: When the upstream cannot be reached: the attempt failed, and the source tries again after its backoff.
  func openSession() async throws -> Session

  /// Subscribes the session to `key` (`LISTEN`, `SUBSCRIBE`), and from then on sends the key's events to `sink`.
  ///
  /// Returns once the subscription is in place: events published after that must reach `sink`. Each attach of a key
  /// comes with a sink of its own; a sink whose key was detached ignores what it is sent.
  ///
  /// - Parameters:
  ///   - key: The key to subscribe to.
  ///   - session: The live session.
  ///   - sink: Where the key's events go, decoded once for every subscriber of the key.
  /// - Throws: When the session failed: the source treats the session as lost.
  func attach(_ key: Key, to session: Session, emitting sink: EventSink<Event>) async throws

  /// Unsubscribes the session from `key` (`UNLISTEN`, `UNSUBSCRIBE`).
  ///
  /// - Parameters:
  ///   - key: A key attached to `session`.
  ///   - session: The live session.
  /// - Throws: When the session failed: the source treats the session as lost.
  func detach(_ key: Key, from session: Session) async throws

  /// Returns or throws when the session ends, on its own (the connection dropped) or after ``closeSession(_:)``.
  ///
  /// - Parameter session: The session to watch.
  /// - Throws: Why the session ended, for ``UpstreamChange/lost(error:retryingIn:)``.
  func waitForEnd(of session: Session) async throws

  /// Closes the session, whether it is still live or already lost. Must not wait for events being delivered.
  ///
  /// - Parameter session: The session to close.
  func closeSession(_ session: Session) async
}
