/// Several observers started and stopped as one.
///
/// A screen with one observer per concern keeps them in a composition and drives it from its lifecycle:
///
/// ```swift
/// let observers = ObserverComposition(sessionObserver, keyboardObserver, networkObserver)
/// observers.startObserving()   // starts each, in order
/// observers.stopObserving()    // stops each, in reverse order
/// ```
///
/// A composition is itself an ``Observer``, so compositions nest. Like every observer, starting it twice or
/// stopping it twice does the work once.
///
/// The composition holds its observers strongly; each observer still holds its own responder weakly. It is not
/// `Sendable`: keep it in the isolation domain that owns it (usually the screen's, the main actor).
public final class ObserverComposition: Observer {
  /// The observers, in the order they are started.
  public private(set) var observers: [any Observer]

  /// Whether the composition has been started and not stopped since.
  public private(set) var isObserving = false

  /// Creates a stopped composition of `observers`.
  ///
  /// - Parameter observers: The observers, in the order they will be started.
  public init(_ observers: [any Observer] = []) {
    self.observers = observers
  }

  /// Creates a stopped composition of `observers`.
  ///
  /// - Parameter observers: The observers, in the order they will be started.
  public convenience init(_ observers: any Observer...) {
    self.init(observers)
  }

  /// Adds `observer` after the others, starting it at once if the composition is observing.
  ///
  /// - Parameter observer: The observer to add.
  public func add(_ observer: any Observer) {
    observers.append(observer)
    if isObserving {
      observer.startObserving()
    }
  }

  /// Starts every observer, in order. Does nothing if the composition is already observing.
  public func startObserving() {
    guard !isObserving else { return }
    isObserving = true
    // A copy: an observer's start may add to the composition, and `add` starts what it adds.
    for observer in observers {
      observer.startObserving()
    }
  }

  /// Stops every observer, in reverse order. Does nothing if the composition is not observing.
  public func stopObserving() {
    guard isObserving else { return }
    isObserving = false
    for observer in observers.reversed() {
      observer.stopObserving()
    }
  }
}
