import NIOCore

/// Fails a WebSocket connection whose client breaks the framing rules of RFC 6455, with the close code 1002
/// (protocol error) and the rule as its reason, then closes it: a frame without a mask (section 5.1: "a server MUST
/// close the connection upon receiving a frame that is not masked"), a continuation frame with no fragmented message
/// to continue, or a new data frame before the fragmented one ended (section 5.4).
///
/// It reads the frame headers in the bytes as they come off the socket, in front of the whole pipeline, and passes the
/// bytes on unchanged: installed the moment the `101` is written (``HTTPConnectionGuard``), it sees every frame that
/// arrives after it, whatever the WebSocket handlers behind it are doing. On the connection's event loop only.
final class WebSocketFrameRules: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  typealias OutboundOut = ByteBuffer

  // The header of the frame being read, until it is whole; then the payload bytes still to pass over.
  private var header: [UInt8] = []
  private var payloadRemaining: UInt64 = 0
  private var isInFragmentedMessage = false
  private var hasFailed = false

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !hasFailed else { return }
    var bytes = unwrapInboundIn(data)
    while bytes.readableBytes > 0 {
      if payloadRemaining > 0 {
        let skipped = Int(min(payloadRemaining, UInt64(bytes.readableBytes)))
        bytes.moveReaderIndex(forwardBy: skipped)
        payloadRemaining -= UInt64(skipped)
        continue
      }
      header.append(bytes.readInteger(as: UInt8.self)!)
      guard let length = Self.headerLength(header), header.count == length else { continue }
      if let broken = brokenRule() {
        fail(broken, context: context)
        return
      }
      payloadRemaining = Self.payloadLength(header)
      header.removeAll(keepingCapacity: true)
    }
    context.fireChannelRead(data)
  }

  /// The length of a frame header that begins with `header`, once its first two bytes tell it.
  private static func headerLength(_ header: [UInt8]) -> Int? {
    guard header.count >= 2 else { return nil }
    let lengthCode = header[1] & 0x7f
    let extended = lengthCode == 126 ? 2 : lengthCode == 127 ? 8 : 0
    return 2 + extended + (header[1] & 0x80 != 0 ? 4 : 0)
  }

  private static func payloadLength(_ header: [UInt8]) -> UInt64 {
    let lengthCode = header[1] & 0x7f
    let extended = lengthCode == 126 ? 2 : lengthCode == 127 ? 8 : 0
    guard extended > 0 else { return UInt64(lengthCode) }
    return header[2..<(2 + extended)].reduce(0) { $0 << 8 | UInt64($1) }
  }

  /// The rule the frame whose header is whole breaks, if any; notes where a fragmented message stands.
  private func brokenRule() -> String? {
    guard header[1] & 0x80 != 0 else { return "client frames must be masked" }
    let isFinal = header[0] & 0x80 != 0
    switch header[0] & 0x0f {
    case 0x0:
      guard isInFragmentedMessage else { return "continuation frame without a message to continue" }
      if isFinal { isInFragmentedMessage = false }
    case 0x1, 0x2:
      guard !isInFragmentedMessage else { return "new message before the fragmented one ended" }
      if !isFinal { isInFragmentedMessage = true }
    default:
      break
    }
    return nil
  }

  private func fail(_ rule: String, context: ChannelHandlerContext) {
    hasFailed = true
    // A server's close frame: final, opcode 8, unmasked, the status 1002 and the reason (well under 126 bytes).
    var frame = context.channel.allocator.buffer(capacity: 4 + rule.utf8.count)
    frame.writeBytes([0x88, UInt8(2 + rule.utf8.count), 0x03, 0xEA])
    frame.writeString(rule)
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in channel.close(promise: nil) }
  }
}
