#if canImport(Observation)
  import Observation

  /// The latest event of a stream, held on the main actor where SwiftUI and `withObservationTracking` observe it.
  ///
  /// An ``Output`` says that something happened; a view often needs only what it last said. `LatestEvent` subscribes
  /// to a stream on the main actor and keeps its latest event in ``value``, an `Observable` property: a SwiftUI view
  /// that reads it is redrawn when a new event arrives, with no view model class written for it.
  ///
  /// ```swift
  /// @MainActor final class ProfileScreenModel {
  ///   let title: LatestEvent<String>
  ///
  ///   init(profile: ProfileViewModel) {
  ///     title = LatestEvent(profile.output.compactMap(\.loadedName), initial: "")
  ///   }
  /// }
  /// // In a SwiftUI body: Text(model.title.value)
  /// ```
  ///
  /// The subscription is token-owned by the `LatestEvent` and ends when it is released. Events reach ``value`` on the
  /// main actor, in the order they were sent, the way the `.main` delivery context delivers them (G11).
  /// For several related properties, write an `@Observable` model of your own and subscribe it with
  /// `subscribe(model, on: .main) { model, event in … }`; the guide "SwiftUI, Observation and Combine" shows both.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @MainActor
  public final class LatestEvent<Event: Sendable>: Observable {
    private let registrar = ObservationRegistrar()
    private var latest: Event
    private var subscription: EventSubscription?

    /// The latest event delivered, or the initial value until the first one arrives. Reading it is observed.
    public var value: Event {
      registrar.access(self, keyPath: \.value)
      return latest
    }

    /// Subscribes to `stream` on the main actor and starts from `initial`.
    ///
    /// A stream that replays (``Output/init(replay:)``) hands over its replay window first, so a late screen starts
    /// from the current state.
    ///
    /// - Parameters:
    ///   - stream: The events to follow: an output, its read-only view, or an operator over either.
    ///   - initial: The value until the first event arrives.
    public init(_ stream: some EventStream<Event>, initial: Event) {
      latest = initial
      subscription = stream.subscribe(on: .main) { [weak self] event in
        self?.receive(event)
      }
    }

    deinit {
      // Ended on purpose, whether or not an event came: a `LatestEvent` released at once is no mistake of the caller.
      subscription?.cancel()
    }

    private func receive(_ event: Event) {
      registrar.withMutation(of: self, keyPath: \.value) {
        latest = event
      }
    }
  }
#endif
