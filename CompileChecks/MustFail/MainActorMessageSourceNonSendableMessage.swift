// expected-error: type 'AccountDidOpen' does not conform to the 'Sendable' protocol
// A message that is not Sendable cannot be an event as it is: give the source a decode step that turns it into a
// Sendable event.
import Broadcasters
import Foundation

final class Account: Sendable {}

/// Mutable and not Sendable, as a draft being edited is.
final class Draft {
  var text = ""
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
struct AccountDidOpen: NotificationCenter.MainActorMessage {
  typealias Subject = Account
  let draft: Draft
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<AccountDidOpen> {
  static var accountDidOpen: Self { .init() }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
func share(account: Account) -> Any {
  Broadcaster(source: MainActorMessageSource(of: account, for: .accountDidOpen))
}
