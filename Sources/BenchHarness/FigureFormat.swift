/// How reports write numbers: enough digits to compare, no more.
///
/// ```swift
/// FigureFormat.value(3.0512, unit: "ns")  // "3.05 ns"
/// ```
public enum FigureFormat {
  /// `value` with three significant digits under 100 and no fraction above: `0.612`, `3.05`, `41.2`, `1834`.
  /// Counts are written as whole numbers.
  public static func number(_ value: Double, isCount: Bool = false) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    if isCount {
      return String(Int(value.rounded()))
    }
    let magnitude = abs(value)
    let fractionDigits = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
    return decimal(value, fractionDigits: fractionDigits)
  }

  /// `value` with its unit: `3.05 ns`, `1 count`, `96.0 bytes`.
  public static func value(_ value: Double, unit: String) -> String {
    "\(number(value, isCount: unit == "count")) \(unit)"
  }

  /// A size in bytes, in decimal units with three significant digits: `980 B`, `31.2 kB`, `145 MB`, `1.23 GB`.
  public static func bytes(_ value: Double) -> String {
    guard value.isFinite else { return number(value) }
    let units = [(1e9, "GB"), (1e6, "MB"), (1e3, "kB")]
    for (size, unit) in units where abs(value) >= size {
      return "\(number(value / size)) \(unit)"
    }
    return "\(number(value, isCount: true)) B"
  }

  /// A count in words a reader takes in at a glance, with three significant digits: `980`, `31.2 k`, `1.23 M`.
  public static func count(_ value: Double) -> String {
    guard value.isFinite else { return number(value) }
    let units = [(1e9, "G"), (1e6, "M"), (1e3, "k")]
    for (size, unit) in units where abs(value) >= size {
      return "\(number(value / size)) \(unit)"
    }
    return number(value, isCount: true)
  }

  /// A ratio, with three significant digits: `0.0175×`, `0.500×`, `1.00×`, `12.4×`, `818×`.
  public static func ratio(_ ratio: Double) -> String {
    guard ratio.isFinite else { return "–" }
    guard ratio > 0 && ratio < 1 else {
      return decimal(ratio, fractionDigits: ratio >= 100 ? 0 : ratio >= 10 ? 1 : 2) + "×"
    }
    // One more digit after the point for every zero before the first significant one, up to six.
    var fractionDigits = 3
    var scaled = ratio
    while scaled < 0.1 && fractionDigits < 6 {
      scaled *= 10
      fractionDigits += 1
    }
    return decimal(ratio, fractionDigits: fractionDigits) + "×"
  }

  /// A signed percentage: `+12.5%`, `-3.0%`.
  public static func percentage(_ fraction: Double) -> String {
    guard fraction.isFinite else { return "new" }
    let percent = fraction * 100
    return (percent >= 0 ? "+" : "") + decimal(percent, fractionDigits: 1) + "%"
  }

  /// `value` rounded half away from zero to `fractionDigits` digits after the point, without exponent notation.
  public static func decimal(_ value: Double, fractionDigits: Int) -> String {
    let scale = (0..<fractionDigits).reduce(1.0) { product, _ in product * 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 1e15 else { return String(value) }
    let units = Int(scaled)
    let integerPart = String(units / Int(scale))
    let sign = value < 0 && units != 0 ? "-" : ""
    guard fractionDigits > 0 else { return sign + integerPart }
    let fraction = String(units % Int(scale))
    return sign + integerPart + "." + String(repeating: "0", count: fractionDigits - fraction.count) + fraction
  }
}
