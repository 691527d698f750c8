import Foundation

/// A typed main-actor message that `main-actor-message` posts: how a run's messages are posted, and how one responder
/// observes them.
///
/// The observer is added here, by the concrete message, so the closure that runs for every delivery is the message's
/// own and reaches Foundation as written. Made by a generic contender, or handed to one, it would cost a witness-table
/// call or a reabstraction thunk on every delivery, 10 to 20 instructions.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
protocol ResponderMessage: NotificationCenter.MainActorMessage where Subject == AnyObject {
  /// Posts `count` messages on `center`.
  @MainActor static func post(_ count: Int, on center: NotificationCenter)

  /// Adds `responder`'s observer to `center`, holding the responder weakly.
  static func observe(for responder: Responder, on center: NotificationCenter) -> NotificationCenter.ObservationToken
}
