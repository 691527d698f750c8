import BenchHarness

/// `upstream`: the upstream NotificationCenter subscriptions N live responders cost.
enum UpstreamScenario {
  /// Upstream subscriptions held by each of `contenders` with `responderCount` responders subscribed.
  ///
  /// - Throws: ``MeasurementFailure`` if a contender's subscriptions do not deliver one post to every responder,
  ///   which would make its count meaningless.
  static func measure(
    contenders: [ContenderName], responderCount: Int
  ) throws(MeasurementFailure) -> [Double] {
    var figures: [Double] = []
    for name in contenders {
      guard let contender = name.makeContender(in: .upstream, responderCount: responderCount) as? any UpstreamContender
      else {
        preconditionFailure("\(name.name) is listed in upstream but does not observe NotificationCenter")
      }
      contender.subscribeAll()
      contender.send(events: 1)
      guard contender.deliveries == responderCount else {
        throw MeasurementFailure(
          message: "one post reached \(contender.deliveries) responders of '\(name.name)', expected \(responderCount)")
      }
      figures.append(Double(contender.upstreamSubscriptions))
    }
    return figures
  }
}
