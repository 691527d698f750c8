/// The deadlines and the body limit of an HTTP connection, until it is upgraded to a WebSocket.
public struct HTTPConnectionLimits: Sendable, Equatable {
  /// Which deadline closed a connection, as counted in `/metrics`.
  public enum Expiry: String, Sendable, CaseIterable {
    /// Its request head did not arrive in time.
    case requestHead = "request_head_timeout"
    /// It sent nothing for too long between requests.
    case idle = "idle_timeout"
  }

  /// How long a request head may take to arrive: from the connection's start, or from the first byte of a request
  /// after an earlier one.
  public var requestHeadTimeout: Duration
  /// How long a connection may send nothing between two requests.
  public var idleTimeout: Duration
  /// The largest request body read; one larger is answered 413, and its connection closed without reading the rest.
  public var maximumBodySize: Int

  public init(requestHeadTimeout: Duration, idleTimeout: Duration, maximumBodySize: Int) {
    self.requestHeadTimeout = requestHeadTimeout
    self.idleTimeout = idleTimeout
    self.maximumBodySize = maximumBodySize
  }
}
