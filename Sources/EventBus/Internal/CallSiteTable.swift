/// The call sites of an output's subscriptions, each stored once and named by a number.
///
/// An entry holds its call site's 4-byte number instead of the 24-byte `CallSite`, which keeps a responder entry in a
/// 64-byte heap block (Bench's `memory` scenario). Subscriptions are made at a few source lines, each many times, so
/// the table stays as small as the number of lines that subscribe. It lives in the output's roster, under the lock
/// a subscribe takes anyway.
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

  private var ids: [Key: ID] = [:]
  private var sites: [CallSite] = []
  /// The last call site looked up: a subscribe from the line that subscribed last is found without hashing.
  private var last: (key: Key, id: ID)?

  init() {}

  /// The number of `site`, given it on first use.
  mutating func id(for site: CallSite) -> ID {
    let key = Key(site)
    if let last, last.key == key {
      return last.id
    }
    let id: ID
    if let known = ids[key] {
      id = known
    } else {
      // Past four billion distinct call sites, later ones share the last number.
      id = ID(truncatingIfNeeded: Swift.min(sites.count, Int(ID.max)))
      if sites.count <= Int(ID.max) {
        sites.append(site)
      }
      ids[key] = id
    }
    last = (key, id)
    return id
  }

  /// The call site numbered `id`.
  func site(_ id: ID) -> CallSite {
    sites[Int(id)]
  }
}
