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
  }
}
