/// The call sites of subscriptions, each stored once and named by a number.
///
/// An entry holds its call site's 4-byte number instead of the 24-byte `CallSite`, which keeps a responder entry in a
/// 64-byte heap block (Bench's `memory` scenario). Subscriptions are made at a few source lines, each many times, so
/// the table stays as small as the number of lines that subscribe.
enum CallSiteTable {
  typealias ID = UInt32

  /// A call site by identity: the address (or scalar) of its file name, and its line. Cheaper to hash than the
  /// description `CallSite` hashes; the address is only a name, never dereferenced.
  private struct Key: Hashable, Sendable {
    var file: UInt
    var isAddress: Bool
    var line: Int

    init(_ site: CallSite) {
      let fileID = site.fileID
      isAddress = fileID.hasPointerRepresentation
      file = isAddress ? UInt(bitPattern: fileID.utf8Start) : UInt(fileID.unicodeScalar.value)
      line = site.line
    }
  }

  private struct Table {
    var ids: [Key: ID] = [:]
    var sites: [CallSite] = []
    /// The last call sites looked up, by a cheap hash of their key: a subscribe from a line that subscribed
    /// recently is found without hashing the key for the dictionary.
    var recent = [(key: Key, id: ID)?](repeating: nil, count: 64)
  }

  private static let table = LockedState(Table())

  /// The number of `site`, given it on first use.
  static func id(for site: CallSite) -> ID {
    let key = Key(site)
    let slot = Int(truncatingIfNeeded: (key.file >> 4) ^ UInt(bitPattern: key.line)) & 63
    return table.withLock { table in
      if let recent = table.recent[slot], recent.key == key {
        return recent.id
      }
      if let id = table.ids[key] {
        table.recent[slot] = (key, id)
        return id
      }
      // Past four billion distinct call sites, later ones share the last number.
      let id = ID(truncatingIfNeeded: Swift.min(table.sites.count, Int(ID.max)))
      if table.sites.count <= Int(ID.max) {
        table.sites.append(site)
      }
      table.ids[key] = id
      table.recent[slot] = (key, id)
      return id
    }
  }

  /// The call site numbered `id`.
  static func site(_ id: ID) -> CallSite {
    table.withLock { $0.sites[Int(id)] }
  }
}
