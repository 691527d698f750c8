import EventBus

/// The product screen: adding an item posts `CartChanged` on the hub. It knows nothing of who listens.
@MainActor
public final class ProductScreen {
  private let hub: EventHub
  private var itemCount = 0

  /// Creates the screen.
  ///
  /// - Parameter hub: The app's hub, injected.
  public init(hub: EventHub) {
    self.hub = hub
    hub.subscribe(UserSignedOut.self, self, on: .main) { screen, _ in screen.itemCount = 0 }
  }

  /// The user taps "Add to cart".
  public func tapAddToCart() {
    itemCount += 1
    hub.post(CartChanged(itemCount: itemCount))
  }
}

/// The tab bar's cart badge, on another screen entirely: it hears the hub, not the product screen.
@MainActor
public final class CartBadge {
  /// What the badge shows; empty when the cart is.
  public private(set) var text = ""
  private let transcript: Transcript

  /// Creates the badge and subscribes it to the events it shows.
  ///
  /// - Parameters:
  ///   - hub: The app's hub, injected.
  ///   - transcript: Where the badge writes what it receives.
  public init(hub: EventHub, transcript: Transcript) {
    self.transcript = transcript
    hub.subscribe(CartChanged.self, self, on: .main) { badge, event in
      badge.transcript.received("CartBadge", "\(event)")
      badge.text = event.itemCount == 0 ? "" : "\(event.itemCount)"
    }
    hub.subscribe(UserSignedOut.self, self, on: .main) { badge, event in
      badge.transcript.received("CartBadge", "\(event)")
      badge.text = ""
    }
  }
}

/// The settings screen, where the user signs out.
@MainActor
public final class SettingsScreen {
  private let hub: EventHub

  /// Creates the screen.
  ///
  /// - Parameter hub: The app's hub, injected.
  public init(hub: EventHub) {
    self.hub = hub
  }

  /// The user taps "Sign out".
  public func tapSignOut() {
    hub.post(UserSignedOut())
  }
}
