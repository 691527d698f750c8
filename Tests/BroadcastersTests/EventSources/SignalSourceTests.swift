import Broadcasters
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Serialized: signal dispositions belong to the whole process. Signals are sent only while a broadcaster observes
/// them (otherwise SIGUSR1 and SIGUSR2 would terminate the test process), and each test waits for delivery before
/// disconnecting.
@Suite(.serialized) struct SignalSourceTests {
  @Test func oneSignalSourceDeliversEachSignalToEverySubscriber() async {
    let signals = Broadcaster(source: SignalSource(signal: SIGUSR2))
    let logs = (0..<10).map { _ in Log<Int32>() }
    let tokens = logs.map { log in signals.subscribe { log.append($0) } }
    for count in 1...3 {
      kill(getpid(), SIGUSR2)
      #expect(await eventually { logs.allSatisfy { $0.count == count } })
    }
    #expect(logs.allSatisfy { $0.elements == [SIGUSR2, SIGUSR2, SIGUSR2] })
    #expect(signals.upstreamEventCount == 3)
    #expect(signals.connectCount == 1)
    for token in tokens {
      token.cancel()
    }
    #expect(!signals.isConnected)
  }

  @Test func thePreviousDispositionComesBackOnDisconnectAndSignalsAreSeenAgainAfterReconnect() async {
    let before = signalHandlerAddress(SIGUSR1)
    let signals = Broadcaster(source: SignalSource(signals: [SIGUSR1, SIGUSR1]))
    for round in 1...3 {
      let log = Log<Int32>()
      let token = signals.subscribe { log.append($0) }
      #expect(signalHandlerAddress(SIGUSR1) != before)
      kill(getpid(), SIGUSR1)
      #expect(await eventually { log.count == 1 }, "round \(round): the signal was not seen")
      token.cancel()
      #expect(signalHandlerAddress(SIGUSR1) == before)
    }
    #expect(signals.connectCount == 3)
  }

  @Test func twoBroadcastersOnOneSignalBothSeeItAndTheDispositionComesBackAfterTheLast() async {
    let before = signalHandlerAddress(SIGUSR2)
    let first = Broadcaster(source: SignalSource(signal: SIGUSR2))
    let second = Broadcaster(source: SignalSource(signal: SIGUSR2))
    let firstLog = Log<Int32>()
    let secondLog = Log<Int32>()
    let firstToken = first.subscribe { firstLog.append($0) }
    let secondToken = second.subscribe { secondLog.append($0) }
    kill(getpid(), SIGUSR2)
    #expect(await eventually { firstLog.count == 1 && secondLog.count == 1 })
    firstToken.cancel()
    #expect(signalHandlerAddress(SIGUSR2) != before)
    kill(getpid(), SIGUSR2)
    #expect(await eventually { secondLog.count == 2 })
    #expect(firstLog.count == 1)
    secondToken.cancel()
    #expect(signalHandlerAddress(SIGUSR2) == before)
  }

  @Test func numbersThatAreNotSignalsAreLeftOutInsteadOfCrashingDispatch() {
    let source = SignalSource(signals: [0, -1, 999, Int32.max, Int32.min, SIGUSR2, 65, SIGUSR2])
    #expect(source.signals == [SIGUSR2])
    let nothing = Broadcaster(source: SignalSource(signal: 999))
    let token = nothing.subscribe { _ in }
    #expect(nothing.isConnected)
    token.cancel()
    #expect(!nothing.isConnected)
  }

  @Test func raiseFromAThreadThatTakesTheSignalIsDeliveredAndKillFromAnyThreadIs() async {
    let signals = Broadcaster(source: SignalSource(signal: SIGUSR1))
    let log = Log<Int32>()
    let token = signals.subscribe { log.append($0) }
    // This test runs on a libdispatch thread, which blocks every signal: `raise` here would never be seen. A thread
    // that unblocks the signal takes it, and libdispatch forwards it to the thread that reads its signal descriptor.
    let raised = Thread {
      var signalSet = sigset_t()
      sigemptyset(&signalSet)
      sigaddset(&signalSet, SIGUSR1)
      pthread_sigmask(SIG_UNBLOCK, &signalSet, nil)
      raise(SIGUSR1)
      pthread_sigmask(SIG_BLOCK, &signalSet, nil)
    }
    raised.start()
    #expect(await eventually { log.count == 1 }, "raise from a thread that does not block the signal was not seen")
    kill(getpid(), SIGUSR1)
    #expect(await eventually { log.count == 2 }, "kill(getpid(), …) from a blocking thread was not seen")
    #expect(log.elements == [SIGUSR1, SIGUSR1])
    token.cancel()
  }
}

/// The address of the handler `signal` is disposed to (0 for `SIG_DFL`).
private func signalHandlerAddress(_ signal: Int32) -> UInt {
  var action = sigaction()
  sigaction(signal, nil, &action)
  #if canImport(Darwin)
    return unsafeBitCast(action.__sigaction_u.__sa_handler, to: UInt.self)
  #else
    return unsafeBitCast(action.__sigaction_handler.sa_handler, to: UInt.self)
  #endif
}
