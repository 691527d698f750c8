import Foundation
import NIOCore
import NIOPosix

/// A TCP connection that sends exactly the bytes it is given and keeps whatever comes back: what the adversarial round
/// attacks the servers through (requests no HTTP client would send, WebSockets that never read).
final class RawClient: Sendable {
  private static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 2)

  /// What came back so far, and whether the server closed the connection.
  struct Received: Sendable {
    var text: String
    var isClosed: Bool
  }

  private let channel: any Channel
  private let collector: NIOLoopBound<Collector>

  private init(channel: any Channel, collector: NIOLoopBound<Collector>) {
    self.channel = channel
    self.collector = collector
  }

  /// Connects; `receiveBuffer` caps the kernel's receive buffer (`SO_RCVBUF`), set before the connection is made.
  static func connect(host: String, port: Int, receiveBuffer: Int? = nil) async throws -> RawClient {
    var bootstrap = ClientBootstrap(group: eventLoops).connectTimeout(.seconds(5))
    if let receiveBuffer {
      bootstrap = bootstrap.channelOption(
        ChannelOptions.socketOption(.so_rcvbuf), value: SocketOptionValue(receiveBuffer))
    }
    let channel = try await bootstrap.connect(host: host, port: port).get()
    let collector = try await channel.eventLoop.submit {
      let collector = Collector()
      try channel.pipeline.syncOperations.addHandler(collector)
      return NIOLoopBound(collector, eventLoop: channel.eventLoop)
    }.get()
    return RawClient(channel: channel, collector: collector)
  }

  /// Writes `text` as it is.
  func send(_ text: String) async throws {
    try await channel.writeAndFlush(ByteBuffer(string: text)).get()
  }

  /// Writes `bytes` as they are: a WebSocket frame, say.
  func send(bytes: [UInt8]) async throws {
    try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
  }

  /// Waits until what came back satisfies `condition`, the connection closes, or `timeout` passes; returns what came
  /// back and takes it out, so that the next wait sees only what follows.
  func receive(
    until condition: @escaping @Sendable (String) -> Bool, timeout: Duration = .seconds(10)
  ) async -> Received {
    let promise = channel.eventLoop.makePromise(of: Received.self)
    let collector = self.collector
    channel.eventLoop.execute {
      collector.value.waiter = (condition, promise)
      collector.value.answer()
    }
    let timer = channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(timeout / .nanoseconds(1)))) {
      collector.value.answer(force: true)
    }
    let received = (try? await promise.futureResult.get()) ?? Received(text: "", isClosed: true)
    timer.cancel()
    return received
  }

  /// Reads no more: what the server sends fills the kernel's buffers, as with a client that stopped reading.
  func stopReading() async throws {
    try await channel.setOption(ChannelOptions.autoRead, value: false).get()
  }

  /// Reads again, and waits up to `timeout` for the server to close the connection; whether it did.
  func closedByServer(within timeout: Duration) async -> Bool {
    try? await channel.setOption(ChannelOptions.autoRead, value: true).get()
    channel.read()
    return await receive(until: { _ in false }, timeout: timeout).isClosed
  }

  func close() async {
    try? await channel.close()
  }
}

/// Keeps the bytes a ``RawClient`` receives, and answers its waits. On the channel's event loop only.
private final class Collector: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer

  private var bytes: [UInt8] = []
  private var isClosed = false
  var waiter: (condition: @Sendable (String) -> Bool, promise: EventLoopPromise<RawClient.Received>)?

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    var buffer = unwrapInboundIn(data)
    bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
    answer()
  }

  func channelInactive(context: ChannelHandlerContext) {
    isClosed = true
    answer()
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    context.close(promise: nil)
  }

  /// Answers the waiter if its condition holds, the connection closed, or `force` (its time is up).
  func answer(force: Bool = false) {
    guard let waiter else { return }
    let text = String(decoding: bytes, as: UTF8.self)
    guard force || isClosed || waiter.condition(text) else { return }
    self.waiter = nil
    bytes.removeAll()
    waiter.promise.succeed(RawClient.Received(text: text, isClosed: isClosed))
  }
}

/// An HTTP/1.1 response as a ``RawClient`` received it.
struct RawResponse: Sendable {
  var status: Int
  /// Header names in lowercase.
  var headers: [String: String]
  var body: String

  /// The response at the start of `text`, once all of it (headers, and a body of its `Content-Length`) is there.
  init?(_ text: String) {
    guard let end = text.range(of: "\r\n\r\n") else { return nil }
    let lines = text[..<end.lowerBound].split(separator: "\r\n")
    guard let first = lines.first, first.hasPrefix("HTTP/1.1 "), let status = Int(first.dropFirst(9).prefix(3))
    else { return nil }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let length = status == 101 || status == 204 ? 0 : Int(headers["content-length"] ?? "0") ?? 0
    let body = text[end.upperBound...].utf8
    guard body.count >= length else { return nil }
    self.status = status
    self.headers = headers
    self.body = String(decoding: body.prefix(length), as: UTF8.self)
  }

  /// A request as text: `Host`, the `headers` given, and for a body its `Content-Length`.
  static func request(_ method: String, _ path: String, headers: [(String, String)] = [], body: String? = nil)
    -> String
  {
    var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
    return text + "\r\n" + (body ?? "")
  }

  /// The headers of a WebSocket upgrade.
  static let upgradeHeaders = [
    ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
    ("Sec-WebSocket-Version", "13"),
  ]
}
