import EventBus

/// Scenario 5: the EventHub carries a cross-screen event.
///
/// The product screen and the cart badge live on different tabs and share nothing but the app's hub and an event
/// type. Adding to the cart updates the badge; signing out on the settings screen clears it.
///
/// - Parameter transcript: Where the badge writes what it receives.
/// - Returns: What the badge shows at each step: after two additions, then after signing out.
@MainActor
@discardableResult
public func runHubScenario(transcript: Transcript) async -> [String] {
  transcript.begin("5. EventHub: a cross-screen event")
  let hub = EventHub()  // one per app, injected: there is no shared instance
  let product = ProductScreen(hub: hub)
  let badge = CartBadge(hub: hub, transcript: transcript)
  let settings = SettingsScreen(hub: hub)
  var shown: [String] = []

  transcript.note("user adds tea to the cart")
  product.tapAddToCart()
  await settle()
  transcript.note("user adds scones to the cart")
  product.tapAddToCart()
  await settle()
  shown.append(badge.text)
  transcript.note("badge shows \"\(badge.text)\"; user signs out in Settings")
  settings.tapSignOut()
  await settle()
  shown.append(badge.text)
  transcript.note("badge shows \"\(badge.text)\"")
  return shown
}
