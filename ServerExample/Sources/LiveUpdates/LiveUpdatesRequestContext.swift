import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of the server: Hummingbird's WebSocket context, with the connection's channel and remote
/// address, which the limits need (a client without a token is known by its address; a slow client's channel is
/// closed).
public struct LiveUpdatesRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
  public var coreContext: CoreRequestContextStorage
  public let webSocket: WebSocketHandlerReference<Self>
  /// The TCP connection the request came on; after an upgrade, the WebSocket's.
  public let channel: any Channel

  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    webSocket = .init()
    channel = source.channel
  }

  public var remoteAddress: SocketAddress? { channel.remoteAddress }
}
