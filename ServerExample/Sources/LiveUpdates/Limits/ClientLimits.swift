import Synchronization

/// Open WebSockets per client, at most ``limit`` each: a client is a token's subject, or a remote address where
/// there is no token (development mode). A client at its limit is refused (429) until one of its sockets closes.
public final class ConnectionLimiter: Sendable {
  /// The most sockets one client holds at once.
  public let limit: Int
  // Only clients with a socket open have an entry: the table empties as they leave.
  private let counts = Mutex<[String: Int]>([:])

  public init(limit: Int) {
    self.limit = limit
  }

  /// Takes a slot for `client`; `false` if it holds ``limit`` already.
  public func acquire(_ client: String) -> Bool {
    counts.withLock { counts in
      let count = counts[client, default: 0]
      guard count < limit else { return false }
      counts[client] = count + 1
      return true
    }
  }

  /// Gives back a slot taken by ``acquire(_:)``.
  public func release(_ client: String) {
    counts.withLock { counts in
      guard let count = counts[client] else { return }
      counts[client] = count > 1 ? count - 1 : nil
    }
  }

  /// Whether `client` holds ``limit`` sockets now.
  public func isFull(_ client: String) -> Bool {
    counts.withLock { $0[client, default: 0] >= limit }
  }

  /// How many clients hold a socket now.
  public var clientCount: Int {
    counts.withLock { $0.count }
  }
}

/// Publishing, per client, at most ``rate`` events a second with bursts of up to ``burst``: a token bucket for each
/// client that published lately. A client whose bucket is empty is refused (429) with the seconds until it has one
/// again.
public final class RateLimiter: Sendable {
  /// Events a second, on average.
  public let rate: Double
  /// Events at once, after a pause.
  public let burst: Int

  private struct Bucket {
    var tokens: Double
    var updated: ContinuousClock.Instant
  }

  private let buckets = Mutex<[String: Bucket]>([:])

  /// Buckets kept before the full ones are dropped: a full bucket is the same as none.
  static let pruneThreshold = 4096

  public init(rate: Double, burst: Int) {
    self.rate = max(rate, 0.001)
    self.burst = max(burst, 1)
  }

  /// Takes one event's worth for `client`: `nil` if it may publish now, else how long until it may.
  public func take(_ client: String, now: ContinuousClock.Instant = .now) -> Duration? {
    buckets.withLock { buckets in
      if buckets.count >= Self.pruneThreshold { prune(&buckets, now: now) }
      var bucket = buckets[client] ?? Bucket(tokens: Double(burst), updated: now)
      bucket.tokens = refilled(bucket, now: now)
      bucket.updated = now
      defer { buckets[client] = bucket }
      guard bucket.tokens >= 1 else {
        return .seconds((1 - bucket.tokens) / rate)
      }
      bucket.tokens -= 1
      return nil
    }
  }

  /// How many clients have a bucket now.
  public var bucketCount: Int {
    buckets.withLock { $0.count }
  }

  private func refilled(_ bucket: Bucket, now: ContinuousClock.Instant) -> Double {
    let elapsed = bucket.updated.duration(to: now)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    return min(Double(burst), bucket.tokens + max(seconds, 0) * rate)
  }

  private func prune(_ buckets: inout [String: Bucket], now: ContinuousClock.Instant) {
    buckets = buckets.filter { refilled($0.value, now: now) < Double(burst) }
  }
}
