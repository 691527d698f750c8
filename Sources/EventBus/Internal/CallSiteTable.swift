/// The call sites of an output's subscriptions, each stored once and named by a number.
///
/// An entry holds its call site's 4-byte number instead of the 24-byte `CallSite`, which keeps a responder entry in a
/// 64-byte heap allocation (Bench's `memory` scenario). Subscriptions are made at a few source lines, each many times, so
/// the table stays as small as the number of lines that subscribe. It lives in the output's subscriber list, under the
/// lock a subscribe takes anyway.
struct CallSiteTable: Sendable {
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

  /// Number 0, kept inline: most outputs are subscribed from one line, and then the table allocates nothing.
  private var first: (key: Key, site: CallSite)?
  /// The call sites numbered 1 and up, in order.
  private var sites: [CallSite] = []
  /// Their keys, in the same order, searched linearly while there are few; emptied once ``ids`` takes over.
  private var keys: [Key] = []
  /// Their numbers by key, built once a linear search would be long.
  private var ids: [Key: ID] = [:]
  /// The last call site looked up: a subscribe from the line that subscribed last is found at once.
  private var last: (key: Key, id: ID)?

  private static let longestLinearSearch = 16

  init() {}

  /// The number of `site`, given it on first use.
  mutating func id(for site: CallSite) -> ID {
    let key = Key(site)
    guard let first else {
      first = (key, site)
      return 0
    }
    if first.key == key {
      return 0
    }
    if let last, last.key == key {
      return last.id
    }
    let id = number(of: key) ?? append(key, site)
    last = (key, id)
    return id
  }

  /// The call site numbered `id`.
  func site(_ id: ID) -> CallSite {
    guard id > 0, !sites.isEmpty else { return first?.site ?? CallSite(fileID: "unknown", line: 0) }
    return sites[Swift.min(Int(id), sites.count) - 1]
  }

  private func number(of key: Key) -> ID? {
    if ids.isEmpty {
      return keys.firstIndex(of: key).map { ID(truncatingIfNeeded: $0 + 1) }
    }
    return ids[key]
  }

  private mutating func append(_ key: Key, _ site: CallSite) -> ID {
    // Past four billion distinct call sites, later ones share the last number.
    guard sites.count < Int(ID.max) - 1 else { return ID.max - 1 }
    sites.append(site)
    let id = ID(truncatingIfNeeded: sites.count)
    if !ids.isEmpty {
      ids[key] = id
    } else {
      keys.append(key)
      if keys.count > Self.longestLinearSearch {
        for (index, key) in keys.enumerated() {
          ids[key] = ID(truncatingIfNeeded: index + 1)
        }
        keys = []
      }
    }
    return id
  }
}
