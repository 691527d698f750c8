import Foundation

/// The fan-out event as a typed main-actor message, about no subject in particular.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
struct FanoutMessage: ResponderMessage {
  typealias Subject = AnyObject

  var event: FanoutEvent

  /// One message per event, numbered as the other contenders number theirs.
  static func post(_ count: Int, on center: NotificationCenter) {
    for sequence in 0..<count {
      center.post(FanoutMessage(event: FanoutEvent(sequence: sequence)))
    }
  }

  static func observe(for responder: Responder, on center: NotificationCenter) -> NotificationCenter.ObservationToken {
    center.addObserver(of: AnyObject.self, for: .fanoutEvent) { [weak responder] message in
      responder?.handle(message.event)
    }
  }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<FanoutMessage> {
  /// The fan-out event's message.
  static var fanoutEvent: Self { .init() }
}
