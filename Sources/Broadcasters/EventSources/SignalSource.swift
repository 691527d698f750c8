import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// POSIX signals: one `DispatchSourceSignal` per signal for every subscriber of a ``Broadcaster``, emitting the
/// signal number.
///
/// ```swift
/// let resize = Broadcaster(source: SignalSource(signal: SIGWINCH))
/// resize.subscribe(terminalView) { view, _ in view.relayout() }
///
/// let shutdown = Broadcaster(source: SignalSource(signals: [SIGTERM, SIGINT]))
/// shutdown.subscribe(database) { database, _ in database.flush() }
/// ```
///
/// While connected, the signals are handled by the dispatch sources instead of their previous disposition (a
/// `SIGTERM` no longer terminates the process); when the last subscriber is gone, the previous disposition is
/// restored. Several broadcasters may observe the same signal: the disposition is restored when the last of them
/// disconnects. Signals that arrive together may be coalesced into one event. Events are emitted on a private serial
/// queue.
///
/// ## Sending a signal to yourself
/// Send signals to the process, `kill(getpid(), SIGUSR1)`, as the system and other processes do. `raise(SIGUSR1)`
/// sends the signal to the calling *thread* instead, and on Linux that reaches a signal source only when the calling
/// thread does not block the signal: libdispatch reads signals from a `signalfd` on its own thread, and forwards
/// there a signal that a thread takes. Every libdispatch worker thread, and so every `DispatchQueue` block and every
/// Swift concurrency task, blocks all signals, and a thread created from one inherits that mask; a signal raised
/// there waits on that thread, where nothing can read it, and is never delivered. No API can see that
/// happen, so nothing reports it: use `kill(getpid(), …)`, which works from any thread. On Apple platforms, kqueue
/// sees signals sent either way.
public struct SignalSource: EventSource {
  /// The dispatch sources of one connection.
  public struct Connection {
    fileprivate let sources: [any DispatchSourceSignal]
  }

  /// The observed signal numbers, without duplicates, in the order given.
  public let signals: [Int32]

  /// Creates a source for several signals.
  ///
  /// - Parameter signals: The signal numbers, such as `SIGTERM` or `SIGWINCH`. A number that is not a signal of this
  ///   platform (0, a negative number, or one past the last signal) is left out, since Dispatch crashes on it; read
  ///   ``signals`` for the ones observed. `SIGKILL` and `SIGSTOP` are kept but never arrive: no process can catch them.
  public init(signals: [Int32]) {
    var seen = Set<Int32>()
    self.signals = signals.filter { Self.validSignals.contains($0) && seen.insert($0).inserted }
  }

  /// The signal numbers of this platform.
  private static var validSignals: Range<Int32> {
    #if canImport(Glibc)
      1..<Int32(NSIG)
    #else
      // Darwin's `NSIG` is not imported into Swift; it is 32 on every Apple platform.
      1..<32
    #endif
  }

  /// Creates a source for one signal.
  ///
  /// - Parameter signal: The signal number, such as `SIGWINCH`.
  public init(signal: Int32) {
    self.init(signals: [signal])
  }

  /// Takes the signals over and returns once the dispatch sources are registered, so a signal sent after the first
  /// `subscribe` returned is observed.
  ///
  /// - Parameter sink: Where the signal numbers go.
  /// - Returns: The dispatch sources.
  public func start(emitting sink: EventSink<Int32>) -> Connection {
    // A private queue: waiting for registration below cannot deadlock with a caller that runs on a queue of its own.
    let queue = DispatchQueue(label: "Broadcasters.SignalSource")
    let registered = DispatchGroup()
    let sources = signals.map { signal in
      SignalDispositions.acquire(signal)
      let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
      source.setEventHandler {
        sink.send(signal)
      }
      registered.enter()
      source.setRegistrationHandler {
        registered.leave()
      }
      source.resume()
      return source
    }
    if registered.wait(timeout: .now() + .seconds(10)) == .success {
      for signal in signals {
        SignalDispositions.noteRegistered(signal)
      }
    }
    return Connection(sources: sources)
  }

  /// Cancels the dispatch sources and, when no other broadcaster observes a signal any more, restores its previous
  /// disposition.
  ///
  /// - Parameter connection: The value `start(emitting:)` returned.
  public func stop(_ connection: Connection) {
    for source in connection.sources {
      source.cancel()
    }
    for signal in signals {
      SignalDispositions.release(signal)
    }
  }
}

// A dispatch source is thread-safe; the connection only ever calls `cancel()` on it.
extension SignalSource.Connection: @unchecked Sendable {}
