import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's WebSocket channel, with a gate in front of its upgrade and a guard on the connection until then.
/// The gate decides each upgrade request once (``UpgradeDecision``); a refused one goes on as a plain `GET` carrying
/// its refusal, which the router answers with the reason (401, 403, 429 with `Retry-After`, as JSON) and counts. The
/// guard (``HTTPConnectionGuard``) closes connections that hold the server without finishing a request.
///
/// Without the gate a refused upgrade is answered by the WebSocket layer itself, `400` with an empty body.
struct GatedWebSocketChannel: ServerChildChannel {
  typealias Value = HTTP1WebSocketUpgradeChannel.Value

  let inner: HTTP1WebSocketUpgradeChannel
  /// Decides an upgrade request; an admitted one's slot is released with ``release`` once the connection closes.
  let decide: @Sendable (HTTPRequest, SocketAddress?) async -> UpgradeDecision
  let release: @Sendable (String) -> Void
  let connectionLimits: HTTPConnectionLimits
  let metrics: ServerMetrics

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
      // Right behind the request decoder, before the upgrade handler looks at the request: the guard, then the gate.
      let operations = channel.pipeline.syncOperations
      let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
      try operations.addHandler(UpgradeGate(decide: decide, release: release), position: .after(decoder))
      let metrics = self.metrics
      let connectionGuard = HTTPConnectionGuard(
        limits: connectionLimits, onClose: metrics.closedConnection,
        onMalformedRequest: { metrics.refused(.badRequest) })
      try operations.addHandler(connectionGuard, position: .after(decoder))
      try operations.addHandler(connectionGuard.bytesWatcher, position: .before(decoder))
      return value
    }
  }

  func handle(value: Value, logger: Logger) async {
    await inner.handle(value: value, logger: logger)
  }
}

extension HTTPServerBuilder {
  /// HTTP/1.1 with WebSocket upgrades through `webSocketRouter`, each upgrade request first decided by `decide`, each
  /// connection guarded by `connectionLimits` until it is upgraded, its closes counted in `metrics`.
  static func gatedWebSocketUpgrade<Responder: HTTPResponderBuilder & _HB_SendableMetatype>(
    webSocketRouter: Responder, connectionLimits: HTTPConnectionLimits, metrics: ServerMetrics,
    decide: @escaping @Sendable (HTTPRequest, SocketAddress?) async -> UpgradeDecision,
    release: @escaping @Sendable (String) -> Void
  ) -> HTTPServerBuilder where Responder.Responder.Context: WebSocketRequestContext {
    let webSocketResponder = webSocketRouter.buildResponder()
    return HTTPServerBuilder { responder in
      GatedWebSocketChannel(
        inner: HTTP1WebSocketUpgradeChannel(
          responder: responder, webSocketResponder: webSocketResponder, configuration: .init()),
        decide: decide, release: release, connectionLimits: connectionLimits, metrics: metrics)
    }
  }
}

/// Holds an upgrade request's parts while it is decided; a refused one loses its `Upgrade` header, gains its refusal
/// (``Refusal/carriedHeader``) and goes on as a plain request. An admitted one holds its slot until the connection
/// closes. Removes itself once an upgrade is admitted: what follows is WebSocket frames.
private final class UpgradeGate: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart

  private let decide: @Sendable (HTTPRequest, SocketAddress?) async -> UpgradeDecision
  private let releaseSlot: @Sendable (String) -> Void
  private var held: [HTTPServerRequestPart]?

  init(
    decide: @escaping @Sendable (HTTPRequest, SocketAddress?) async -> UpgradeDecision,
    release: @escaping @Sendable (String) -> Void
  ) {
    self.decide = decide
    self.releaseSlot = release
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    var part = unwrapInboundIn(data)
    if held != nil {
      held?.append(part)
      return
    }
    guard case .head(var head) = part else {
      context.fireChannelRead(data)
      return
    }
    // Only the gate says why an upgrade was refused.
    if head.headers.contains(name: Refusal.carriedHeader) {
      head.headers.remove(name: Refusal.carriedHeader)
      part = .head(head)
    }
    guard head.headers[canonicalForm: "upgrade"].contains(where: { $0.lowercased() == "websocket" }) else {
      context.fireChannelRead(wrapInboundOut(part))
      return
    }
    held = [part]
    let request = Self.request(head)
    let address = context.channel.remoteAddress
    let decide = self.decide
    let promise = context.eventLoop.makePromise(of: UpgradeDecision.self)
    promise.completeWithTask { await decide(request, address) }
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    promise.futureResult.whenSuccess { decision in
      let (gate, context) = loopBound.value
      gate.release(decision, context: context)
    }
  }

  private func release(_ decision: UpgradeDecision, context: ChannelHandlerContext) {
    var parts = held ?? []
    held = nil
    var admitted = false
    switch decision {
    case .admitted(let slot):
      admitted = true
      if let slot {
        let releaseSlot = self.releaseSlot
        context.channel.closeFuture.whenComplete { _ in releaseSlot(slot) }
      }
    case .refused(let refusal):
      if case .head(var head) = parts.first {
        head.headers.replaceOrAdd(name: Refusal.carriedHeader, value: refusal.carried)
        parts[0] = .head(head)
      }
    case .notASubscription:
      break
    }
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
