import Testing

@testable import EventBus

@Suite struct ObserverCompositionTests {
  /// An observer that logs every call it receives, under a name.
  final class LoggingObserver: Observer {
    let name: String
    let log: Log<String>

    init(_ name: String, log: Log<String>) {
      self.name = name
      self.log = log
    }

    func startObserving() { log.append("start \(name)") }
    func stopObserving() { log.append("stop \(name)") }
  }

  final class Screen: Sendable {
    let log = Log<String>()
  }

  @Test func startsAndStopsEveryObserverAsOne() {
    let session = Output<String>()
    let keyboard = Output<Int>()
    let screen = Screen()
    let sessionObserver = EventObserver(session, responder: screen) { screen, state in screen.log.append(state) }
    let keyboardObserver = EventObserver(keyboard, responder: screen) { screen, height in
      screen.log.append("keyboard \(height)")
    }
    let observers = ObserverComposition(sessionObserver, keyboardObserver)
    observers.startObserving()
    #expect(observers.isObserving && sessionObserver.isObserving && keyboardObserver.isObserving)
    session.send("signed in")
    keyboard.send(300)
    observers.stopObserving()
    #expect(!observers.isObserving && !sessionObserver.isObserving && !keyboardObserver.isObserving)
    session.send("signed out")
    keyboard.send(0)
    #expect(screen.log.elements == ["signed in", "keyboard 300"])
  }

  @Test func startsInOrderAndStopsInReverseOrder() {
    let log = Log<String>()
    let observers = ObserverComposition([LoggingObserver("a", log: log), LoggingObserver("b", log: log)])
    observers.startObserving()
    observers.stopObserving()
    #expect(log.elements == ["start a", "start b", "stop b", "stop a"])
  }

  @Test func startingOrStoppingTwiceReachesEachObserverOnce() {
    let log = Log<String>()
    let observers = ObserverComposition(LoggingObserver("a", log: log))
    observers.stopObserving()
    observers.startObserving()
    observers.startObserving()
    observers.stopObserving()
    observers.stopObserving()
    #expect(log.elements == ["start a", "stop a"])
  }

  @Test func anObserverAddedWhileObservingStartsAtOnceAndOneAddedWhileStoppedWaits() {
    let log = Log<String>()
    let observers = ObserverComposition()
    observers.add(LoggingObserver("a", log: log))
    #expect(log.elements.isEmpty)
    observers.startObserving()
    observers.add(LoggingObserver("b", log: log))
    #expect(log.elements == ["start a", "start b"])
    #expect(observers.observers.count == 2)
  }

  @Test func compositionsNest() {
    let log = Log<String>()
    let inner = ObserverComposition(LoggingObserver("a", log: log), LoggingObserver("b", log: log))
    let outer = ObserverComposition(inner, LoggingObserver("c", log: log))
    outer.startObserving()
    #expect(inner.isObserving)
    outer.stopObserving()
    #expect(log.elements == ["start a", "start b", "start c", "stop c", "stop b", "stop a"])
  }

  @Test func releasingTheCompositionReleasesItsObserversAndTheirSubscriptions() {
    enum Probe: Sendable { case ping }
    let output = Output<Probe>()
    let screen = Screen()
    weak var weakObserver: EventObserver<Probe, Screen>?
    do {
      let observer = EventObserver(output, responder: screen) { screen, _ in screen.log.append("ping") }
      weakObserver = observer
      let observers = ObserverComposition(observer)
      observers.startObserving()
      output.send(.ping)
    }
    #expect(weakObserver == nil)
    #expect(output.subscriberCount == 0)
    #expect(LiveObjects.count("Output.Entry", for: Probe.self) == 0)
    #expect(screen.log.elements == ["ping"])
  }
}
