import Hummingbird
import HummingbirdWebSocket
import NIOCore
import Synchronization

/// The request context of the server: Hummingbird's WebSocket context, with the connection's channel and remote
/// address, which the limits need (a client without a token is known by its address; a slow client's channel is
/// closed).
public struct LiveUpdatesRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
  public var coreContext: CoreRequestContextStorage
  /// The TCP connection the request came on; after an upgrade, the WebSocket's.
  public let channel: any Channel
  private let webSocketHandler: WebSocketHandlerSlot

  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    channel = source.channel
    webSocketHandler = WebSocketHandlerSlot()
  }

  public var webSocket: WebSocketHandlerReference<Self> { webSocketHandler.reference }

  public var remoteAddress: SocketAddress? { channel.remoteAddress }

  /// Lets go of the WebSocket handler once the connection closes. Called by the upgrade route for each upgrade.
  ///
  /// Hummingbird's WebSocket router stores the upgrade's handler together with a copy of this context in the context's
  /// own `webSocket` reference, and never clears it: a cycle that kept every WebSocket's context, and through it its
  /// channel and everything the channel's pipeline held (5 to 11 kB), for the life of the process.
  func releaseWebSocketHandlerOnClose() {
    let slot = webSocketHandler
    channel.closeFuture.whenComplete { _ in slot.release() }
  }
}

/// Holds a context's `webSocket` reference until ``release()``, after which the context has a new, empty one.
private final class WebSocketHandlerSlot: Sendable {
  private let stored = Mutex<WebSocketHandlerReference<LiveUpdatesRequestContext>?>(.init())

  var reference: WebSocketHandlerReference<LiveUpdatesRequestContext> {
    stored.withLock { $0 ?? WebSocketHandlerReference() }
  }

  func release() {
    let released = stored.withLock { stored in
      defer { stored = nil }
      return stored
    }
    // The handler and the context copy it holds go here, outside the lock.
    _ = released
  }
}
