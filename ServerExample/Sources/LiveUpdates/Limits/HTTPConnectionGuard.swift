import NIOCore
import NIOHTTP1

/// Bounds what a connection can hold before it is a WebSocket, as NGINX's `client_header_timeout`,
/// `keepalive_timeout` and `client_max_body_size` do: a connection that has not finished its request head within
/// ``HTTPConnectionLimits/requestHeadTimeout`` of its start (or of the first byte of its next request), or that sends
/// nothing for ``HTTPConnectionLimits/idleTimeout`` between requests, is closed and counted; a body past
/// ``HTTPConnectionLimits/maximumBodySize`` is not read further (the route sees one byte more than the limit and
/// answers 413), and the connection is closed once that answer is written; a request the decoder cannot parse (a bad
/// request line) is answered `400` with a JSON reason, then closed. Once the connection is upgraded (`101`), it and
/// its ``RequestBytesWatcher`` leave the pipeline (a WebSocket has deadlines of its own), and the
/// ``WebSocketFrameRules`` take their place.
///
/// On the connection's event loop only; sits right behind the request decoder.
final class HTTPConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  typealias Expiry = HTTPConnectionLimits.Expiry

  private let limits: HTTPConnectionLimits
  private let onClose: @Sendable (Expiry) -> Void
  private let onMalformedRequest: @Sendable () -> Void
  /// The watcher in front of the decoder, removed with this handler.
  let bytesWatcher = RequestBytesWatcher()

  // Requests whose head came in, whose end came in, and responses written to their end. Between requests all three
  // are equal: the connection waits, idle, until bytes of the next request come.
  private var heads = 0
  private var ends = 0
  private var responses = 0
  private var deadline: Scheduled<Void>?
  private var currentExpiry: Expiry?
  // Set once a body passed the limit: what follows of it is dropped, and the connection is closed after the answer.
  private var bodyBytes = 0
  private var isPastBodyLimit = false
  private var isUpgraded = false

  init(
    limits: HTTPConnectionLimits, onClose: @escaping @Sendable (Expiry) -> Void,
    onMalformedRequest: @escaping @Sendable () -> Void
  ) {
    self.limits = limits
    self.onClose = onClose
    self.onMalformedRequest = onMalformedRequest
    bytesWatcher.guardHandler = self
  }

  private var isBetweenRequests: Bool { heads == ends && ends == responses }

  func handlerAdded(context: ChannelHandlerContext) {
    // A new connection owes its first request head from now on.
    arm(.requestHead, in: limits.requestHeadTimeout, context: context)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    disarm()
    bytesWatcher.guardHandler = nil
  }

  func channelInactive(context: ChannelHandlerContext) {
    disarm()
    context.fireChannelInactive()
  }

  /// Bytes came in: between requests, the next request's head is owed within its deadline from now.
  fileprivate func bytesArrived(context: ChannelHandlerContext) {
    if isBetweenRequests, !isUpgraded, currentExpiry == .idle {
      arm(.requestHead, in: limits.requestHeadTimeout, context: context)
    }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head:
      heads += 1
      bodyBytes = 0
      disarm()
      context.fireChannelRead(data)
    case .body(let buffer):
      guard !isPastBodyLimit else { return }
      bodyBytes += buffer.readableBytes
      guard bodyBytes > limits.maximumBodySize else {
        context.fireChannelRead(data)
        return
      }
      // One byte past the limit is enough for the route to refuse it; the rest is neither read nor kept.
      isPastBodyLimit = true
      let keep = buffer.readableBytes - (bodyBytes - limits.maximumBodySize - 1)
      context.fireChannelRead(wrapInboundOut(.body(buffer.getSlice(at: buffer.readerIndex, length: keep) ?? buffer)))
      ends += 1
      context.fireChannelRead(wrapInboundOut(.end(nil)))
      context.channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
    case .end:
      guard !isPastBodyLimit else { return }
      ends += 1
      context.fireChannelRead(data)
      armIfIdle(context: context)
    }
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head(var head):
      if head.status == .switchingProtocols {
        isUpgraded = true
        disarm()
        // The upgrade handler puts the WebSocket handlers in place once the `101` is written, in the completion of
        // `promise`: the frame rules go right behind them then, before the next read is decoded.
        // What follows is WebSocket frames, not HTTP: the guard and its watcher leave once the `101` is out (not
        // before: the flush that follows this write passes through here).
        // The frame rules go in front of the pipeline now: every byte read from here on is WebSocket frames.
        let written = context.eventLoop.makePromise(of: Void.self)
        context.write(data, promise: written)
        let channel = context.channel
        let watcher = bytesWatcher
        written.futureResult.assumeIsolated().whenComplete { result in
          let operations = channel.pipeline.syncOperations
          operations.removeHandler(watcher, promise: nil)
          operations.removeHandler(self, promise: nil)
          if case .success = result, (try? operations.addHandler(WebSocketFrameRules(), position: .first)) == nil {
            channel.close(promise: nil)
          }
          promise?.completeWith(result)
        }
        return
      }
      if isPastBodyLimit { head.headers.replaceOrAdd(name: "connection", value: "close") }
      context.write(wrapOutboundOut(.head(head)), promise: promise)
    case .body:
      context.write(data, promise: promise)
    case .end:
      responses += 1
      guard isPastBodyLimit else {
        context.write(data, promise: promise)
        armIfIdle(context: context)
        return
      }
      let written = context.eventLoop.makePromise(of: Void.self)
      context.write(data, promise: written)
      written.futureResult.cascade(to: promise)
      let channel = context.channel
      written.futureResult.whenComplete { _ in channel.close(promise: nil) }
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard error is HTTPParserError, !isUpgraded else {
      context.fireErrorCaught(error)
      return
    }
    // The decoder reads nothing more after an error: answer it, if no answer is under way, and close.
    disarm()
    onMalformedRequest()
    guard heads == responses else {
      context.close(promise: nil)
      return
    }
    let body = ByteBuffer(string: Refusal(.badRequest, "malformed HTTP request: \(error)").json)
    var headers = HTTPHeaders()
    headers.add(name: "content-type", value: "application/json")
    headers.add(name: "content-length", value: "\(body.readableBytes)")
    headers.add(name: "connection", value: "close")
    heads += 1
    context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))))
      .whenFailure { _ in }
    context.write(wrapOutboundOut(.body(.byteBuffer(body)))).whenFailure { _ in }
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
  }

  private func armIfIdle(context: ChannelHandlerContext) {
    guard isBetweenRequests, !isUpgraded, !isPastBodyLimit else { return }
    arm(.idle, in: limits.idleTimeout, context: context)
  }

  private func arm(_ expiry: Expiry, in timeout: Duration, context: ChannelHandlerContext) {
    disarm()
    currentExpiry = expiry
    let onClose = self.onClose
    let channel = context.channel
    deadline = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) { [weak self] in
      guard let self, self.currentExpiry == expiry, !self.isUpgraded else { return }
      self.deadline = nil
      self.currentExpiry = nil
      onClose(expiry)
      channel.close(promise: nil)
    }
  }

  private func disarm() {
    deadline?.cancel()
    deadline = nil
    currentExpiry = nil
  }
}

/// In front of the request decoder: tells its ``HTTPConnectionGuard`` when bytes come in, so that an idle connection
/// whose next request has begun owes its head within the head's deadline. Passes everything on unchanged.
final class RequestBytesWatcher: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer

  // Weak: the guard owns this watcher, and removes it with itself.
  fileprivate weak var guardHandler: HTTPConnectionGuard?
  private var guardContext: ChannelHandlerContext?

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if let guardHandler {
      if guardContext == nil {
        guardContext = try? context.pipeline.syncOperations.context(handler: guardHandler)
      }
      if let guardContext { guardHandler.bytesArrived(context: guardContext) }
    }
    context.fireChannelRead(data)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    guardContext = nil
  }
}
