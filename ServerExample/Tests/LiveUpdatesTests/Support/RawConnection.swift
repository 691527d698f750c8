import NIOCore
import NIOPosix

/// A TCP connection to a test server that sends exactly the bytes it is given and keeps what comes back: requests
/// and frames no HTTP or WebSocket client would send.
final class RawConnection: Sendable {
  private static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)

  private let channel: any Channel
  private let collector: NIOLoopBound<Collector>

  private init(channel: any Channel, collector: NIOLoopBound<Collector>) {
    self.channel = channel
    self.collector = collector
  }

  static func connect(port: Int) async throws -> RawConnection {
    let channel = try await ClientBootstrap(group: eventLoops).connect(host: "127.0.0.1", port: port).get()
    let collector = try await channel.eventLoop.submit {
      let collector = Collector()
      try channel.pipeline.syncOperations.addHandler(collector)
      return NIOLoopBound(collector, eventLoop: channel.eventLoop)
    }.get()
    return RawConnection(channel: channel, collector: collector)
  }

  func send(_ text: String) async throws {
    try await send(Array(text.utf8))
  }

  func send(_ bytes: [UInt8]) async throws {
    try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
  }

  /// Sends `count` bytes of `x` in chunks, until all are sent or a write fails (the server closed the connection);
  /// returns how many the kernel took.
  func sendFiller(_ count: Int, chunk: Int = 65_536) async -> Int {
    var sent = 0
    let buffer = ByteBuffer(repeating: UInt8(ascii: "x"), count: chunk)
    while sent < count {
      let size = min(chunk, count - sent)
      guard (try? await channel.writeAndFlush(buffer.getSlice(at: 0, length: size)!).get()) != nil else { break }
      sent += size
    }
    return sent
  }

  /// What came back until `condition` held for it, the connection closed, or `timeout` passed; and whether the
  /// connection is closed. What it returns is taken out.
  func receive(
    until condition: @escaping @Sendable ([UInt8]) -> Bool = { _ in false }, timeout: Duration = .seconds(10)
  ) async -> (bytes: [UInt8], isClosed: Bool) {
    let promise = channel.eventLoop.makePromise(of: ([UInt8], Bool).self)
    let collector = self.collector
    channel.eventLoop.execute {
      collector.value.waiter = (condition, promise)
      collector.value.answer()
    }
    let timer = channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) { collector.value.answer(force: true) }
    let received = (try? await promise.futureResult.get()) ?? ([], true)
    timer.cancel()
    return received
  }

  /// What came back until it holds a whole HTTP response head, as text.
  func receiveHead(timeout: Duration = .seconds(10)) async -> (text: String, isClosed: Bool) {
    let (bytes, isClosed) = await receive(
      until: { String(decoding: $0, as: UTF8.self).contains("\r\n\r\n") }, timeout: timeout)
    return (String(decoding: bytes, as: UTF8.self), isClosed)
  }

  func close() async {
    try? await channel.close()
  }
}

/// Keeps what a ``RawConnection`` receives and answers its waits. On the channel's event loop only.
private final class Collector: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer

  private var bytes: [UInt8] = []
  private var isClosed = false
  var waiter: (condition: @Sendable ([UInt8]) -> Bool, promise: EventLoopPromise<([UInt8], Bool)>)?

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

  func answer(force: Bool = false) {
    guard let waiter, force || isClosed || waiter.condition(bytes) else { return }
    self.waiter = nil
    let taken = bytes
    bytes.removeAll()
    waiter.promise.succeed((taken, isClosed))
  }
}
