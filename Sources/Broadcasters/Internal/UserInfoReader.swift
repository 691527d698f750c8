import Foundation

#if os(iOS) || os(tvOS) || os(visionOS)
  import UIKit
#endif

/// Reads typed values out of a notification's `userInfo`, throwing a ``DecodeFailure`` that names the key.
///
/// Accepts both the Swift values that code on Linux posts (`Double`, `Int`, `Bool`, `CGRect`) and the Objective-C
/// objects the system posts on Apple platforms (`NSNumber`, `NSValue`). Any other value, of any type, is a
/// `.wrongType` failure: nothing here traps on what a poster put in the dictionary.
///
/// A Boolean is not a number, and a number is a Boolean only when it is 0 or 1; a decimal (`Decimal`,
/// `NSDecimalNumber`) is neither. Both bridge to `NSNumber` and cast to every number type (`true as? Int` is 1), so
/// they are told apart before any cast.
struct UserInfoReader {
  let userInfo: [AnyHashable: Any]

  func double(_ key: String) throws -> Double {
    let value = try self.value(key)
    if let number = Self.number(value) { return number }
    throw mistyped(key, value, expected: "Double")
  }

  func int(_ key: String) throws -> Int {
    let value = try self.value(key)
    guard !NumberKind.isBooleanOrDecimal(value) else { throw mistyped(key, value, expected: "Int") }
    if let int = value as? Int { return int }
    // `Int(exactly:)` rather than `NSNumber.intValue`: a fraction, NaN or a number out of range is a wrong type, not
    // a truncated or wrapped integer.
    if let number = Self.number(value), let int = Int(exactly: number) { return int }
    throw mistyped(key, value, expected: "Int")
  }

  func bool(_ key: String) throws -> Bool {
    let value = try self.value(key)
    if let bool = NumberKind.boolean(value) { return bool }
    // An Objective-C `BOOL` may arrive as a plain number: 0 or 1. Any other number is not a Boolean.
    switch Self.number(value) {
    case 0: return false
    case 1: return true
    default: throw mistyped(key, value, expected: "Bool")
    }
  }

  func rect(_ key: String) throws -> CGRect {
    let value = try self.value(key)
    if let rect = value as? CGRect { return rect }
    if let boxed = value as? NSValue, BoxedValue.boxesRect(boxed) {
      #if os(iOS) || os(tvOS) || os(visionOS)
        return boxed.cgRectValue
      #else
        return boxed.rectValue
      #endif
    }
    throw mistyped(key, value, expected: "CGRect")
  }

  /// A binary number of any kind as a `Double`: a Swift number (which bridges to `NSNumber`), a `CGFloat`, an
  /// `NSNumber`. `nil` for a Boolean or a decimal.
  private static func number(_ value: Any) -> Double? {
    guard !NumberKind.isBooleanOrDecimal(value) else { return nil }
    if let double = value as? Double { return double }
    if let int = value as? Int { return Double(int) }
    if let cgFloat = value as? CGFloat { return Double(cgFloat) }
    if let number = value as? NSNumber { return number.doubleValue }
    return nil
  }

  private func value(_ key: String) throws -> Any {
    guard let value = userInfo[AnyHashable(key)] else {
      throw DecodeFailure(key: key, reason: .missingKey)
    }
    return value
  }

  private func mistyped(_ key: String, _ value: Any, expected: String) -> DecodeFailure {
    DecodeFailure(key: key, reason: .wrongType(expected: expected, found: BoxedValue.describeType(of: value)))
  }
}

/// Tells Booleans and decimals from binary numbers, whichever way they were boxed.
///
/// A Swift `Bool` bridges to the same `NSNumber` class as `NSNumber(value: true)`, which Foundation keeps apart from
/// the other numbers on every platform; a Swift `Decimal` bridges to `NSDecimalNumber`.
enum NumberKind {
  /// The class of a Foundation-made Boolean `NSNumber` (`__NSCFBoolean`).
  private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

  /// The Swift types that a poster most often uses, which are neither Booleans nor decimals: checked first, so that
  /// reading them does not box them into an `NSNumber`.
  private static let binaryNumberTypes = [Double.self, Int.self, CGFloat.self].map { ObjectIdentifier($0) }

  /// The value of a Boolean, Swift or boxed; `nil` for anything else, 0 and 1 included.
  static func boolean(_ value: Any) -> Bool? {
    if isSwiftBool(value) { return value as? Bool }
    guard let number = value as? NSNumber, isBoolean(number) else { return nil }
    return number.boolValue
  }

  /// Whether `value` is a Boolean or a decimal, Swift or boxed.
  static func isBooleanOrDecimal(_ value: Any) -> Bool {
    if binaryNumberTypes.contains(ObjectIdentifier(type(of: value))) { return false }
    guard let number = value as? NSNumber else { return false }
    return isBoolean(number) || number is NSDecimalNumber
  }

  /// Whether `value` is a Swift `Bool` (not a number that would cast to one).
  static func isSwiftBool(_ value: Any) -> Bool {
    ObjectIdentifier(type(of: value)) == ObjectIdentifier(Bool.self)
  }

  /// Whether `number` is a Foundation-made Boolean.
  static func isBoolean(_ number: NSNumber) -> Bool {
    ObjectIdentifier(type(of: number)) == booleanClass
  }
}

/// Safe questions about an `NSValue` of unknown origin.
///
/// Asking an `NSValue` for a value it does not box traps in Foundation on Linux: `rectValue` force-casts the boxed
/// value, so a number (every `NSNumber` is an `NSValue`), a boxed point, size or range, or a boxed byte buffer
/// aborts the process. And `objCType` is abstract on `NSValue`: a subclass that does not override it traps when
/// asked. So a value is asked for its `objCType` only when its class is the one Foundation itself uses for a boxed
/// rect, and for its rect only when that type encoding is the rect's.
enum BoxedValue {
  #if os(iOS) || os(tvOS) || os(visionOS)
    private static let rectSample = NSValue(cgRect: .zero)
  #else
    private static let rectSample = NSValue(rect: .zero)
  #endif
  /// The class of a Foundation-made boxed rect. On Linux also the class of boxed points, sizes and ranges.
  private static let rectClass = ObjectIdentifier(type(of: rectSample))
  /// The type encoding of a boxed rect, `{CGRect={CGPoint=dd}{CGSize=dd}}` on 64-bit platforms.
  private static let rectEncoding = String(cString: rectSample.objCType)

  /// Whether `boxed` is a Foundation-made `NSValue` boxing a rect, so that `rectValue` returns it.
  static func boxesRect(_ boxed: NSValue) -> Bool {
    encoding(of: boxed) == rectEncoding
  }

  /// The type encoding of a Foundation-made boxed value, or `nil` for a number or an `NSValue` subclass that this
  /// module cannot safely ask.
  static func encoding(of boxed: NSValue) -> String? {
    guard ObjectIdentifier(type(of: boxed)) == rectClass else { return nil }
    return String(cString: boxed.objCType)
  }

  /// The type of `value` for a failure report: its Swift type, for a boxed value `NSValue(<type encoding>)`, and
  /// for a boxed Boolean `NSNumber(Bool)`.
  static func describeType(of value: Any) -> String {
    if !NumberKind.isSwiftBool(value), let number = value as? NSNumber, NumberKind.isBoolean(number) {
      return "NSNumber(Bool)"
    }
    if let boxed = value as? NSValue, let encoding = encoding(of: boxed) {
      return "NSValue(\(encoding))"
    }
    return String(describing: type(of: value))
  }
}
