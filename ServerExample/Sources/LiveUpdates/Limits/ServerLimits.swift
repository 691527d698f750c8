/// The limits of a process: none of them can lock it, and each is in `--help` and in the guide. The limits per client
/// do not apply to operator tokens.
public struct ServerLimits: Sendable, Equatable {
  /// The most topics kept; idle ones are evicted, least recently used first, when a new topic needs room.
  public var topics = TopicFeeds.defaultLimit
  /// The most WebSockets one client (a token's subject; an address without a token) holds at once.
  public var connectionsPerClient = 64
  /// Events a client may POST per second, on average.
  public var publishRate = 20.0
  /// Events a client may POST at once after a pause.
  public var publishBurst = 40
  /// How long a client's socket may stay unable to take writes before the client is closed (1008).
  public var slowClientDeadline = Duration.seconds(10)
  /// The kernel's send buffer per WebSocket (`SO_SNDBUF`): what a client that does not read can hold, at most.
  public var sendBufferBytes = 65_536
  /// How long a connection may take to send its request head (from its start, or from the first byte of a later
  /// request) before it is closed, as NGINX's `client_header_timeout`.
  public var requestHeadTimeout = Duration.seconds(10)
  /// How long a connection may send nothing between requests before it is closed, as NGINX's `keepalive_timeout`.
  public var idleTimeout = Duration.seconds(60)
  /// How long a graceful shutdown (SIGTERM) may take: clients are closed with 1001 first, then whatever is left is
  /// cancelled.
  public var shutdownGrace = Duration.seconds(10)

  public init() {}

  /// The deadlines of a connection before it is a WebSocket, and the largest body it may send.
  public var connection: HTTPConnectionLimits {
    HTTPConnectionLimits(
      requestHeadTimeout: requestHeadTimeout, idleTimeout: idleTimeout, maximumBodySize: TopicEvent.maximumPayloadSize)
  }

  /// The options of the limits, as `--help` lists them.
  public static let usage = """
      --max-topics N          topics kept per process; idle ones are evicted, least recently used first (10000)
      --max-connections-per-client N
                              WebSockets one token (one address without tokens) may hold at once; more: 429 (64);
                              operator tokens are exempt from this limit and the two below
      --publish-rate N        POSTs per second per token, on average; more: 429 with Retry-After (20)
      --publish-burst N       POSTs per token at once after a pause (40)
      --slow-client-deadline-ms N
                              a client whose socket takes no writes for this long is closed with 1008 (10000)
      --send-buffer-bytes N   the kernel's send buffer per WebSocket, SO_SNDBUF (65536)
      --request-head-timeout-ms N
                              a connection that has not sent its whole request head this long after it opened (or
                              after the first byte of a later request) is closed (10000)
      --idle-timeout-ms N     a connection that sends nothing for this long between requests is closed (60000)
      --shutdown-grace-seconds N
                              on SIGTERM: stop accepting, close each client with 1001 and its last id, exit
                              within this (10)
    """
}
