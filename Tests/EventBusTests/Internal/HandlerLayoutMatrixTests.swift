import Dispatch
import EventBusTestSupport
import Foundation
import Testing

@testable import EventBus

/// Events of every shape, through every delivery context, to responders and tokens: they arrive whole, in order.
///
/// `.main` handlers are called through the library's one reinterpretation of a closure (`MainQueue.reinterpret`),
/// and queued handlers read the event where it waits in the lane. CI runs this matrix under AddressSanitizer, which
/// reports a closure or an event read with the wrong layout.
@Suite struct HandlerLayoutMatrixTests {
  final class Box: Sendable, Equatable {
    let text: String
    init(_ text: String) { self.text = text }
    static func == (lhs: Box, rhs: Box) -> Bool { lhs.text == rhs.text }
  }

  protocol Shape: Sendable {
    var id: Int { get }
  }

  struct Small: Shape {
    var id: Int
  }

  struct Large: Shape, Equatable {
    var id = 0
    var numbers = [Int](repeating: 7, count: 3)
    var padding: (Int, Int, Int, Int, Int, Int) = (1, 2, 3, 4, 5, 6)
    var text = "large"
    static func == (lhs: Large, rhs: Large) -> Bool {
      lhs.id == rhs.id && lhs.text == rhs.text && lhs.numbers == rhs.numbers && lhs.padding == rhs.padding
    }
  }

  enum Payload: Sendable, Equatable {
    case none
    case number(Int)
    case pair(String, Box)
    case large(Large)
  }

  enum Context: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case immediate, queue, main
    var testDescription: String { rawValue }
  }

  /// A responder that records what reaches it.
  final class Screen<Event: Sendable>: Sendable {
    let log = Log<Event>()
  }

  /// Sends `events` from another thread to a responder and a token subscribed in `context`, and checks that both
  /// received them all, equal and in order.
  private func roundTrip<Event: Sendable & Equatable>(
    _ events: [Event], in context: Context, sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    await roundTrip(events, comparing: \.self, in: context, sourceLocation: sourceLocation)
  }

  /// `roundTrip(_:in:)` for events compared by `key`: an existential is not `Equatable`.
  private func roundTrip<Event: Sendable, Key: Equatable>(
    _ events: [Event], comparing key: KeyPath<Event, Key> & Sendable, in context: Context,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let output = Output<Event>()
    let screen = Screen<Event>()
    let tokenLog = Log<Event>()
    let queue = DispatchQueue(label: "matrix")
    let token: EventSubscription
    switch context {
    case .immediate:
      output.subscribe(screen) { screen, event in screen.log.append(event) }
      token = output.subscribe { tokenLog.append($0) }
    case .queue:
      output.subscribe(screen, on: .queue(queue)) { screen, event in screen.log.append(event) }
      token = output.subscribe(on: .queue(queue)) { tokenLog.append($0) }
    case .main:
      output.subscribe(screen, on: .main) { @MainActor screen, event in screen.log.append(event) }
      token = output.subscribe(on: .main) { @MainActor event in tokenLog.append(event) }
    }
    #expect(await runOnThread { events.forEach(output.send) }, sourceLocation: sourceLocation)
    let arrived = await suspendUntil(timeout: watchdogTimeout) {
      screen.log.count == events.count && tokenLog.count == events.count
    }
    #expect(arrived, sourceLocation: sourceLocation)
    let expected = events.map { $0[keyPath: key] }
    #expect(screen.log.elements.map { $0[keyPath: key] } == expected, sourceLocation: sourceLocation)
    #expect(tokenLog.elements.map { $0[keyPath: key] } == expected, sourceLocation: sourceLocation)
    token.cancel()
  }

  @Test(arguments: Context.allCases)
  func trivialEvents(in context: Context) async {
    await roundTrip(Array(0..<50), in: context)
  }

  @Test(arguments: Context.allCases)
  func classEvents(in context: Context) async {
    await roundTrip((0..<50).map { Box("box \($0)") }, in: context)
  }

  @Test(arguments: Context.allCases)
  func existentialEvents(in context: Context) async {
    // An existential: a three-word buffer, the value inline or boxed by its size.
    let events: [any Shape] = (0..<50).map { $0.isMultiple(of: 2) ? Small(id: $0) as any Shape : Large(id: $0) }
    await roundTrip(events, comparing: \.id, in: context)
  }

  @Test(arguments: Context.allCases)
  func largeStructEvents(in context: Context) async {
    await roundTrip((0..<50).map { Large(text: "large \($0)") }, in: context)
  }

  @Test(arguments: Context.allCases)
  func enumWithPayloadsEvents(in context: Context) async {
    let events: [Payload] = (0..<50).map {
      switch $0 % 4 {
      case 0: .none
      case 1: .number($0)
      case 2: .pair("pair \($0)", Box("box \($0)"))
      default: .large(Large(text: "large \($0)"))
      }
    }
    await roundTrip(events, in: context)
  }

  @Test(arguments: Context.allCases)
  func foundationEvents(in context: Context) async {
    let events = (0..<50).map { URL(string: "https://example.com/\($0)")! }
    await roundTrip(events, in: context)
  }

  @Test func theReinterpretedHandlerTypesShareOneLayout() {
    typealias Main = MainQueue.MainActorResponderHandler<Box, Large>
    typealias Plain = MainQueue.SendableResponderHandler<Box, Large>
    #expect(MemoryLayout<Main>.size == MemoryLayout<Plain>.size)
    #expect(MemoryLayout<Main>.alignment == MemoryLayout<Plain>.alignment)
    #expect(
      MemoryLayout<MainQueue.MainActorHandler<Payload>>.size == MemoryLayout<MainQueue.SendableHandler<Payload>>.size)
  }
}
