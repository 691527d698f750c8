/// Type names as a reader writes them.
enum TypeName {
  /// `name`, a fully qualified type name (`String(reflecting:)`), with the module that begins each qualified name
  /// dropped: `Swift.Optional<FoundationEssentials.Date>` reads `Optional<Date>`, `Tests.Screen.Event` reads
  /// `Screen.Event`. A member after a generic argument list (`Dictionary<…>.Index`) keeps its name.
  static func withoutModules(_ name: String) -> String {
    var result = ""
    var token = ""
    func flush() {
      if !token.hasPrefix("."), let dot = token.firstIndex(of: ".") {
        result += token[token.index(after: dot)...]
      } else {
        result += token
      }
      token = ""
    }
    for character in name {
      if character.isLetter || character.isNumber || character == "_" || character == "." {
        token.append(character)
      } else {
        flush()
        result.append(character)
      }
    }
    flush()
    return result
  }
}

extension TypeName {
  /// `type`'s name without module names.
  static func of(_ type: Any.Type) -> String {
    withoutModules(String(reflecting: type))
  }
}
