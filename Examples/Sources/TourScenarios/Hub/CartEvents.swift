/// Posted on the hub when the cart's content changes.
public struct CartChanged: Sendable, Equatable {
  /// How many items the cart holds.
  public var itemCount: Int
}

/// Posted on the hub when the user signs out.
public struct UserSignedOut: Sendable, Equatable {}
