/// What a leak check found: the EventBus objects a piece of code created and left alive.
///
/// ```swift
/// let report = await LeakCheck.report {
///   let screen = ProfileScreen()
///   screen.start()
/// }
/// #expect(report.leakedObjects.isEmpty, "\(report)")
/// ```
public struct LeakReport: Sendable, CustomStringConvertible {
  /// One object that outlived the code that created it.
  public struct LeakedObject: Sendable, Hashable, CustomStringConvertible {
    /// What it is: `Output`, `Output.Entry` (a subscription), `DeliveryLane` (the queue or main-actor delivery of an
    /// output), `Broadcaster`, `Broadcaster.FanOut` (a broadcaster's output) or `Broadcaster.Connection` (a
    /// broadcaster's upstream subscription).
    public let kind: String
    /// The event type, as the code that declares it names it, without module names: `QuoteViewModel.Event`, `Date`,
    /// `Optional<Int>` (not `FoundationEssentials.Date`, as a fully qualified name reads on Linux).
    public let eventType: String
    /// Where the subscription was made, for a subscription; `nil` for the other kinds.
    public let site: CallSite?

    /// `kind<eventType>`, then `subscribed at Module/File.swift:line` when the site is known.
    public var description: String {
      "\(kind)<\(eventType)>" + (site.map { " subscribed at \($0)" } ?? "")
    }
  }

  /// Whether the build counted live objects. When it did not, the check could see nothing, and the report says so.
  public let isCountingEnabled: Bool
  /// The objects created during the check and still alive at its end, ordered by kind, event type and site.
  public let leakedObjects: [LeakedObject]

  /// Whether the check ran and found nothing alive.
  public var isClean: Bool { isCountingEnabled && leakedObjects.isEmpty }

  /// One line per leaked object; or why the check could not run; or that nothing leaked.
  public var description: String {
    guard isCountingEnabled else { return LeakCheck.countingIsOffMessage }
    guard !leakedObjects.isEmpty else { return "EventBus leak check: nothing leaked." }
    let count = leakedObjects.count
    let objects = count == 1 ? "1 object created here is" : "\(count) objects created here are"
    let header = "EventBus leak check: \(objects) still alive:"
    return ([header] + leakedObjects.map { "  \($0)" }).joined(separator: "\n")
  }
}
