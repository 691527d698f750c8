// Typed NotificationCenter messages as broadcaster sources: a Sendable message is delivered as it is, a message that
// is not Sendable goes through a main-actor decode step that may read it, and a @MainActor screen subscribes on
// `.main` and touches its state directly. Identifiers are written as Foundation's own `addObserver(of:for:)` takes
// them.
import Broadcasters
import EventBus
import Foundation

final class Account: Sendable {}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
struct AccountDidLock: NotificationCenter.MainActorMessage, Sendable {
  typealias Subject = Account
  let minutes: Int
}

/// Mutable and not Sendable, as a draft being edited is.
final class Draft {
  var text = ""
}

/// Not Sendable: it carries the draft.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
struct AccountDidOpen: NotificationCenter.MainActorMessage {
  typealias Subject = Account
  let draft: Draft
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
struct AccountDidSync: NotificationCenter.AsyncMessage {
  typealias Subject = Account
  let changes: Int
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<AccountDidLock> {
  static var accountDidLock: Self { .init() }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<AccountDidOpen> {
  static var accountDidOpen: Self { .init() }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
extension NotificationCenter.MessageIdentifier where Self == NotificationCenter.BaseMessageIdentifier<AccountDidSync> {
  static var accountDidSync: Self { .init() }
}

@MainActor final class AccountScreen {
  var title = ""
  var pendingChanges = 0
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
@MainActor func share(account: Account, with screen: AccountScreen) -> [Any] {
  let locks = Broadcaster(source: MainActorMessageSource(of: account, for: .accountDidLock))
  locks.subscribe(screen, on: .main) { screen, message in screen.title = "Locked for \(message.minutes) min" }

  let anyAccountLocks = Broadcaster(source: MainActorMessageSource(of: Account.self, for: .accountDidLock))
  let token = anyAccountLocks.subscribe { message in print(message.minutes) }

  let openings = Broadcaster(
    source: MainActorMessageSource(of: account, for: .accountDidOpen) { message in message.draft.text })
  openings.subscribe(screen, on: .main) { screen, title in screen.title = title }

  let syncs = Broadcaster(source: AsyncMessageSource(of: account, for: .accountDidSync))
  syncs.subscribe(screen, on: .main) { screen, message in screen.pendingChanges += message.changes }
  let counts = Broadcaster(source: AsyncMessageSource(of: Account.self, for: .accountDidSync) { $0.changes })
  return [locks, anyAccountLocks, token, openings, syncs, counts]
}
