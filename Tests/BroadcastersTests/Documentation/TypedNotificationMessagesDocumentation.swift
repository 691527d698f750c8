#if compiler(>=6.2)
  import Broadcasters
  import EventBus
  import Foundation
  import Testing

  // The code of TypedNotificationMessages.md. Each test posts on a NotificationCenter of its own, so tests running in
  // parallel never see each other's messages; in an app the center is `NotificationCenter.default`.

  // The messages, at file scope: their identifiers are extensions of a Foundation protocol.

  // snippet: typed-main-actor-message
  final class Session: Sendable {}

  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  struct SessionDidExpire: NotificationCenter.MainActorMessage, Sendable {
    typealias Subject = Session
    let reason: String
  }

  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  extension NotificationCenter.MessageIdentifier
  where Self == NotificationCenter.BaseMessageIdentifier<SessionDidExpire> {
    static var sessionDidExpire: Self { .init() }
  }
  // end-snippet

  // snippet: typed-async-message
  final class PhotoLibrary: Sendable {}

  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  struct PhotosDidImport: NotificationCenter.AsyncMessage {
    typealias Subject = PhotoLibrary
    let photoCount: Int
  }

  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  extension NotificationCenter.MessageIdentifier
  where Self == NotificationCenter.BaseMessageIdentifier<PhotosDidImport> {
    static var photosDidImport: Self { .init() }
  }
  // end-snippet

  extension Documentation {
    @Suite struct TypedNotificationMessages {
      // snippet: typed-screen
      @MainActor final class AccountScreen {
        private(set) var banner: String?

        func signOut(reason: String) {
          banner = "Signed out: \(reason)"
        }
      }
      // end-snippet

      @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
      @Test @MainActor func everyScreenSharesOneObserverAndHearsBeforePostReturns() {
        // snippet: typed-main-actor-broadcaster
        let center = NotificationCenter()  // NotificationCenter.default in an app
        let session = Session()
        let source = MainActorMessageSource(of: session, for: .sessionDidExpire, center: center)
        let expiries = Broadcaster(source: source)
        let screens = (1...3).map { _ in AccountScreen() }
        for screen in screens {
          expiries.subscribe(screen, on: .main) { screen, message in
            screen.signOut(reason: message.reason)
          }
        }
        // source.observerCount == 1, however many screens

        center.post(SessionDidExpire(reason: "password changed"), subject: session)
        // every screen's banner == "Signed out: password changed", set before post returned
        // end-snippet
        #expect(source.observerCount == 1)
        #expect(screens.allSatisfy { $0.banner == "Signed out: password changed" })
        #expect(expiries.upstreamEventCount == 1)
      }

      // snippet: typed-banner
      struct Banner: Sendable, Equatable {
        let text: String
      }
      // end-snippet

      @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
      @Test @MainActor func aDecodeStepRunsOncePerMessage() {
        let center = NotificationCenter()
        let session = Session()
        // snippet: typed-decode
        let banners = Broadcaster(
          source: MainActorMessageSource(of: session, for: .sessionDidExpire, center: center) { message in
            // Runs once per message, on the main actor, whatever the number of subscribers.
            guard !message.reason.isEmpty else {
              throw DecodeFailure(key: "reason", reason: .other("empty"))
            }
            return Banner(text: "Signed out: \(message.reason)")
          })
        // end-snippet
        let top = EventRecorder(banners)
        let bottom = EventRecorder(banners)
        center.post(SessionDidExpire(reason: ""), subject: session)
        center.post(SessionDidExpire(reason: "expired"), subject: session)
        #expect(top.events == [Banner(text: "Signed out: expired")])
        #expect(bottom.events == top.events)
        #expect(banners.decodeFailureCount == 1)
      }

      @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
      @Test func asyncMessagesReachEverySubscriberOneAtATime() async {
        // snippet: typed-async-broadcaster
        let center = NotificationCenter()  // NotificationCenter.default in an app
        let library = PhotoLibrary()
        let imports = Broadcaster(source: AsyncMessageSource(of: library, for: .photosDidImport, center: center))
        let thumbnails = EventRecorder(imports)
        let statistics = EventRecorder(imports)

        center.post(PhotosDidImport(photoCount: 12), subject: library)  // from any thread; returns at once
        center.post(PhotosDidImport(photoCount: 3), subject: library)
        // soon after: thumbnails and statistics each received both messages, one at a time, in the same order
        // end-snippet
        let arrived = await eventually { thumbnails.events.count == 2 && statistics.events.count == 2 }
        #expect(arrived)
        #expect(Set(thumbnails.events.map(\.photoCount)) == [12, 3])
        #expect(statistics.events.map(\.photoCount) == thumbnails.events.map(\.photoCount))
      }
    }
  }
#endif
