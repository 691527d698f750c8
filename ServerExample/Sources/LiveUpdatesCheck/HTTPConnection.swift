import NIOCore
import NIOHTTP1
import NIOPosix

/// One keep-alive HTTP/1.1 connection to a server, requests answered in order: what the check POSTs events and reads
/// counters through. On SwiftNIO, like the servers, so that a latency measured through it is the servers' and
/// PostgreSQL's, not an HTTP client's own threads'. Its event loop is not one of the thousand WebSocket clients': a
/// POST's response is not read behind their frames.
final class HTTPConnection: Sendable {
  private static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)

  struct Response: Sendable {
    var status: Int
    var body: ByteBuffer
  }

  private let channel: any Channel

  private init(channel: any Channel) {
    self.channel = channel
  }

  static func connect(host: String, port: Int) async throws -> HTTPConnection {
    let channel = try await ClientBootstrap(group: eventLoops)
      .connectTimeout(.seconds(5))
      .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHTTPClientHandlers()
          try channel.pipeline.syncOperations.addHandler(ResponseHandler())
        }
      }
      .connect(host: host, port: port)
      .get()
    return HTTPConnection(channel: channel)
  }

  /// How long a request may wait for its response before it fails and the connection is closed: a server that
  /// stopped answering, or went away without the connection noticing, fails the request instead of holding its
  /// caller forever.
  static let responseTimeout = TimeAmount.seconds(10)

  /// The request had no response within ``responseTimeout``.
  struct NoResponse: Error, CustomStringConvertible {
    var description: String { "no response within \(HTTPConnection.responseTimeout.nanoseconds / 1_000_000_000) s" }
  }

  /// Sends a request and waits for its response. It fails if the connection is closed (by the server, or because
  /// the server went away) before or while it waits, and after ``responseTimeout``.
  func request(_ method: HTTPMethod, _ uri: String, body: String? = nil) async throws -> Response {
    var head = HTTPRequestHead(version: .http1_1, method: method, uri: uri)
    head.headers.add(name: "Host", value: "127.0.0.1")
    if let token = CheckToken.bearer { head.headers.add(name: "Authorization", value: "Bearer \(token)") }
    if let body {
      head.headers.add(name: "Content-Type", value: "application/json")
      head.headers.add(name: "Content-Length", value: "\(body.utf8.count)")
    }
    let response = channel.eventLoop.makePromise(of: Response.self)
    // On a connection already closed, the pipeline's handlers are gone: the request never reaches the handler that
    // would answer or fail its response, and only the write's own promise learns that it went nowhere.
    let written = channel.eventLoop.makePromise(of: Void.self)
    written.futureResult.whenFailure { response.fail($0) }
    let timeout = channel.eventLoop.scheduleTask(in: Self.responseTimeout) { [channel] in
      response.fail(NoResponse())
      channel.close(promise: nil)
    }
    response.futureResult.whenComplete { _ in timeout.cancel() }
    channel.writeAndFlush(ResponseHandler.Request(head: head, body: body, response: response), promise: written)
    return try await response.futureResult.get()
  }

  func close() async {
    try? await channel.close()
  }
}

/// Writes each request and answers its promise with the response that comes back, in order.
private final class ResponseHandler: ChannelDuplexHandler {
  struct Request {
    var head: HTTPRequestHead
    var body: String?
    var response: EventLoopPromise<HTTPConnection.Response>
  }

  typealias InboundIn = HTTPClientResponsePart
  typealias OutboundIn = Request
  typealias OutboundOut = HTTPClientRequestPart

  private var waiting = CircularBuffer<EventLoopPromise<HTTPConnection.Response>>()
  private var status = 0
  private var body = ByteBuffer()

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    let request = unwrapOutboundIn(data)
    waiting.append(request.response)
    context.write(wrapOutboundOut(.head(request.head)), promise: nil)
    if let body = request.body {
      context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
    }
    context.write(wrapOutboundOut(.end(nil)), promise: promise)
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head):
      status = Int(head.status.code)
      body.clear()
    case .body(var part):
      body.writeBuffer(&part)
    case .end:
      waiting.popFirst()?.succeed(HTTPConnection.Response(status: status, body: body))
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    failWaiting(error)
    context.close(promise: nil)
  }

  func channelInactive(context: ChannelHandlerContext) {
    failWaiting(ChannelError.ioOnClosedChannel)
    context.fireChannelInactive()
  }

  private func failWaiting(_ error: any Error) {
    while let response = waiting.popFirst() {
      response.fail(error)
    }
  }
}
