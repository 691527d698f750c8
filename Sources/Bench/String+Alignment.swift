extension String {
  /// The string followed by spaces up to `width` characters; longer strings are left as they are.
  func leftAligned(width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }

  /// The string preceded by spaces up to `width` characters; longer strings are left as they are.
  func rightAligned(width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
