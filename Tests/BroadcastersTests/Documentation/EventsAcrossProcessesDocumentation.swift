import Broadcasters
import EventBus
import Foundation
import Testing

// The code of EventsAcrossProcesses.md that needs no database: one broadcaster per topic over any client whose
// subscription is an AsyncSequence. `Broker` stands in for a Redis, NATS or other client; the article's PostgreSQL
// code is compiled by ServerExample, which depends on PostgresNIO.

extension Documentation {
  @Suite struct EventsAcrossProcesses {
    /// A message as a broker client delivers it.
    struct Message: Sendable {
      var payload: String
    }

    /// A price update, decoded once per process.
    enum PriceEvent: Sendable, Equatable {
      case quote(symbol: String, price: Double)

      init(json: String) throws {
        struct Quote: Decodable {
          var symbol: String
          var price: Double
        }
        let quote = try JSONDecoder().decode(Quote.self, from: Data(json.utf8))
        self = .quote(symbol: quote.symbol, price: quote.price)
      }
    }

    /// A broker client's surface: a subscription is an AsyncSequence of messages, which ends or throws when the
    /// connection drops. The test publishes to the live subscription, or drops it.
    final class Broker: Sendable {
      private let upstream = TestUpstream<Message>()

      func subscribe(to channel: String) async throws -> AsyncThrowingStream<Message, any Error> {
        upstream.subscribe()
      }

      func publish(_ payload: String) { upstream.publish(Message(payload: payload)) }
      func dropConnection() { upstream.drop() }
      var liveSubscriptions: Int { upstream.liveCount }
    }

    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    @Test func anyClientWithAnAsyncSequenceTakesPostgreSQLsPlace() async {
      let broker = Broker()
      let changes = Log<String>()
      let log: @Sendable (UpstreamChange) -> Void = { changes.append("\($0)") }
      // snippet: across-processes-any-client
      let source = ReconnectingSource<PriceEvent>(onChange: log) { session in
        let messages = try await broker.subscribe(to: "prices")
        session.connected()
        if session.followsLoss {
          // Quotes sent while the connection was down are gone: tell subscribers, or fetch the current ones.
        }
        try await session.sink.send(contentsOf: messages, named: "prices") { message in
          try PriceEvent(json: message.payload)
        }
      }
      let prices = Broadcaster(source: source)
      // end-snippet
      let screens = (0..<100).map { _ in Log<PriceEvent>() }
      let tokens = screens.map { screen in prices.subscribe { screen.append($0) } }
      #expect(await eventually { source.statistics.isConnected })
      #expect(broker.liveSubscriptions == 1)

      broker.publish(#"{"symbol":"ACME","price":12.5}"#)
      broker.publish("not a quote")
      // The bad payload follows the good one, so it may still be in flight when the screens have the quote.
      #expect(await eventually { screens.allSatisfy { $0.count == 1 } && prices.decodeFailureCount == 1 })
      #expect(prices.upstreamEventCount == 1)

      broker.dropConnection()
      #expect(await eventually { source.statistics.reconnectCount == 1 && source.statistics.isConnected })
      broker.publish(#"{"symbol":"ACME","price":13}"#)
      #expect(await eventually { screens.allSatisfy { $0.count == 2 } })
      #expect(
        screens.allSatisfy { $0.elements == [.quote(symbol: "ACME", price: 12.5), .quote(symbol: "ACME", price: 13)] })
      #expect(source.statistics.lossCount == 1)
      #expect(changes.elements.contains { $0.hasPrefix("connection lost (dropped by the test)") })

      for token in tokens { token.cancel() }
      #expect(await eventually { broker.liveSubscriptions == 0 })
    }

    /// A stream broker's surface (Redis Streams, NATS JetStream): one connection carries subscriptions to any number
    /// of streams, each entry with an id. The test appends entries and drops the connection.
    final class StreamBroker: Sendable {
      final class Connection: Sendable {
        let subscriptions = LockedState<[String: @Sendable (StreamEntry) -> Void]>([:])
        let ended = LockedState<[CheckedContinuation<Void, Never>]?>([])

        func subscribe(_ stream: String, _ deliver: @escaping @Sendable (StreamEntry) -> Void) async throws {
          subscriptions.withLock { $0[stream] = deliver }
        }

        func unsubscribe(_ stream: String) async throws {
          _ = subscriptions.withLock { $0.removeValue(forKey: stream) }
        }

        func closed() async {
          await withCheckedContinuation { continuation in
            let endedAlready = ended.withLock { waiters -> Bool in
              guard waiters != nil else { return true }
              waiters?.append(continuation)
              return false
            }
            if endedAlready { continuation.resume() }
          }
        }

        func close() {
          for waiter in ended.withLock({ replacing(&$0, with: nil) }) ?? [] { waiter.resume() }
        }
      }

      let connections = LockedState<[Connection]>([])

      func connect() async throws -> Connection {
        let connection = Connection()
        connections.withLock { $0.append(connection) }
        return connection
      }

      func append(_ entry: StreamEntry, to stream: String) {
        let deliver = connections.withLock { $0.last }?.subscriptions.withLock { $0[stream] }
        deliver?(entry)
      }

      var subscribedStreams: Set<String> {
        guard let last = connections.withLock({ $0.last }) else { return [] }
        return Set(last.subscriptions.withLock { $0.keys })
      }
    }

    struct StreamEntry: Sendable, Equatable {
      var id: Int
      var text: String
    }

    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    @Test func oneStreamConnectionCarriesEveryKeyThroughAKeyedSource() async {
      let broker = StreamBroker()
      // snippet: across-processes-keyed-source
      struct StreamUpstream: KeyedUpstream {
        let broker: StreamBroker

        func openSession() async throws -> StreamBroker.Connection {
          try await broker.connect()
        }

        func attach(_ stream: String, to connection: StreamBroker.Connection, emitting sink: EventSink<StreamEntry>)
          async throws
        {
          try await connection.subscribe(stream) { entry in sink.send(entry) }
        }

        func detach(_ stream: String, from connection: StreamBroker.Connection) async throws {
          try await connection.unsubscribe(stream)
        }

        func waitForEnd(of connection: StreamBroker.Connection) async throws {
          await connection.closed()
        }

        func closeSession(_ connection: StreamBroker.Connection) async {
          connection.close()
        }
      }
      let streams = KeyedSource(upstream: StreamUpstream(broker: broker))
      let orders = streams.broadcaster(for: "orders")
      let invoices = streams.broadcaster(for: "invoices")
      // end-snippet
      let received = Log<StreamEntry>()
      let tokens = [orders.subscribe { received.append($0) }, invoices.subscribe { _ in }]
      #expect(await eventually { streams.statistics.isConnected && streams.statistics.attachedKeys == 2 })
      #expect(broker.subscribedStreams == ["orders", "invoices"])
      #expect(broker.connections.withLock { $0.count } == 1)
      broker.append(StreamEntry(id: 1, text: "first"), to: "orders")
      #expect(received.elements == [StreamEntry(id: 1, text: "first")])
      for token in tokens { token.cancel() }
      #expect(await eventually { streams.statistics.openSessions == 0 })
      #expect(broker.subscribedStreams.isEmpty)
    }
  }
}
