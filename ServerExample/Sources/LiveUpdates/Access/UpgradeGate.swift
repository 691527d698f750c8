import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's WebSocket channel, with a gate in front of its upgrade: a refused upgrade request goes on as a plain
/// `GET`, which the router answers with the reason (401, 403, as JSON) and counts.
///
/// Without the gate a refused upgrade is answered by the WebSocket layer itself, `400` with an empty body.
struct GatedWebSocketChannel: ServerChildChannel {
  typealias Value = HTTP1WebSocketUpgradeChannel.Value

  let inner: HTTP1WebSocketUpgradeChannel
  /// Whether an upgrade request may be upgraded.
  let admits: @Sendable (HTTPRequest, SocketAddress?) async -> Bool

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
      // Right behind the request decoder, before the upgrade handler looks at the request.
      let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
      try channel.pipeline.syncOperations.addHandler(UpgradeGate(admits: admits), position: .after(decoder))
      return value
    }
  }

  func handle(value: Value, logger: Logger) async {
    await inner.handle(value: value, logger: logger)
  }
}

extension HTTPServerBuilder {
  /// HTTP/1.1 with WebSocket upgrades through `webSocketRouter`, each upgrade request first admitted by `admits`.
  static func gatedWebSocketUpgrade<Responder: HTTPResponderBuilder & _HB_SendableMetatype>(
    webSocketRouter: Responder, admits: @escaping @Sendable (HTTPRequest, SocketAddress?) async -> Bool
  ) -> HTTPServerBuilder where Responder.Responder.Context: WebSocketRequestContext {
    let webSocketResponder = webSocketRouter.buildResponder()
    return HTTPServerBuilder { responder in
      GatedWebSocketChannel(
        inner: HTTP1WebSocketUpgradeChannel(
          responder: responder, webSocketResponder: webSocketResponder, configuration: .init()),
        admits: admits)
    }
  }
}

/// Holds an upgrade request's parts while it is admitted; a refused one loses its `Upgrade` header and goes on as a
/// plain request. Removes itself once an upgrade is admitted: what follows is WebSocket frames.
private final class UpgradeGate: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart

  private let admits: @Sendable (HTTPRequest, SocketAddress?) async -> Bool
  private var held: [HTTPServerRequestPart]?

  init(admits: @escaping @Sendable (HTTPRequest, SocketAddress?) async -> Bool) {
    self.admits = admits
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let part = unwrapInboundIn(data)
    if held != nil {
      held?.append(part)
      return
    }
    guard case .head(let head) = part,
      head.headers[canonicalForm: "upgrade"].contains(where: { $0.lowercased() == "websocket" })
    else {
      context.fireChannelRead(data)
      return
    }
    held = [part]
    let request = Self.request(head)
    let address = context.channel.remoteAddress
    let admits = self.admits
    let promise = context.eventLoop.makePromise(of: Bool.self)
    promise.completeWithTask { await admits(request, address) }
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    promise.futureResult.whenSuccess { admitted in
      let (gate, context) = loopBound.value
      gate.release(admitted: admitted, context: context)
    }
  }

  private func release(admitted: Bool, context: ChannelHandlerContext) {
    var parts = held ?? []
    held = nil
    if !admitted, case .head(var head) = parts.first {
      head.headers.remove(name: "upgrade")
      head.headers.replaceOrAdd(name: "connection", value: "keep-alive")
      parts[0] = .head(head)
    }
    for part in parts {
      context.fireChannelRead(wrapInboundOut(part))
    }
    context.fireChannelReadComplete()
    if admitted {
      context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
  }

  private static func request(_ head: HTTPRequestHead) -> HTTPRequest {
    var fields = HTTPFields()
    for (name, value) in head.headers {
      if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
    }
    return HTTPRequest(
      method: .get, scheme: nil, authority: head.headers.first(name: "host"), path: head.uri, headerFields: fields)
  }
}
