import Foundation

#if os(iOS) || os(tvOS) || os(visionOS)
  import UIKit
#endif

/// Reads typed values out of a notification's `userInfo`, throwing a ``DecodeFailure`` that names the key.
///
/// Accepts both the Swift values that code on Linux posts (`Double`, `Int`, `Bool`, `CGRect`) and the Objective-C
/// objects the system posts on Apple platforms (`NSNumber`, `NSValue`).
struct UserInfoReader {
  let userInfo: [AnyHashable: Any]

  func double(_ key: String) throws -> Double {
    let value = try self.value(key)
    if let double = value as? Double { return double }
    if let int = value as? Int { return Double(int) }
    if let number = value as? NSNumber { return number.doubleValue }
    throw mistyped(key, value, expected: "Double")
  }

  func int(_ key: String) throws -> Int {
    let value = try self.value(key)
    if let int = value as? Int { return int }
    if let number = value as? NSNumber, number.doubleValue == Double(number.intValue) { return number.intValue }
    throw mistyped(key, value, expected: "Int")
  }

  func bool(_ key: String) throws -> Bool {
    let value = try self.value(key)
    if let bool = value as? Bool { return bool }
    if let number = value as? NSNumber { return number.boolValue }
    throw mistyped(key, value, expected: "Bool")
  }

  func rect(_ key: String) throws -> CGRect {
    let value = try self.value(key)
    if let rect = value as? CGRect { return rect }
    #if os(iOS) || os(tvOS) || os(visionOS)
      if let boxed = value as? NSValue { return boxed.cgRectValue }
    #elseif os(macOS) || !canImport(Darwin)
      if let boxed = value as? NSValue { return boxed.rectValue }
    #endif
    throw mistyped(key, value, expected: "CGRect")
  }

  private func value(_ key: String) throws -> Any {
    guard let value = userInfo[AnyHashable(key)] else {
      throw DecodeFailure(key: key, reason: .missingKey)
    }
    return value
  }

  private func mistyped(_ key: String, _ value: Any, expected: String) -> DecodeFailure {
    DecodeFailure(key: key, reason: .wrongType(expected: expected, found: String(describing: type(of: value))))
  }
}
