#if DEBUG
  #if canImport(Darwin)
    import Darwin
  #elseif canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif

  /// Debug builds only: where the library's warnings go. Standard error, except while a test captures the warnings
  /// about subscriptions made in one file (`capturing(inFile:_:)`): a test that provokes a warning
  /// on purpose asserts on it instead of printing it, so a warning in a test run's output always means something.
  package enum DebugWarnings {
    private struct Capture {
      let fileID: String
      var warnings: [String] = []
    }

    private struct State {
      var nextID = 0
      var captures: [Int: Capture] = [:]
    }

    private static let state = LockedState(State())

    /// Hands `text` to every capture of `callSite`'s file, or, if there is none, writes it to standard error as a
    /// line.
    package static func emit(_ text: String, about callSite: CallSite) {
      let fileID = "\(callSite.fileID)"
      let isCaptured = state.withLock { state in
        var isCaptured = false
        for id in state.captures.keys where state.captures[id]?.fileID == fileID {
          state.captures[id]?.warnings.append(text)
          isCaptured = true
        }
        return isCaptured
      }
      guard !isCaptured else { return }
      var line = text + "\n"
      line.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }

    /// Runs `body` and returns the warnings about subscriptions made in `fileID` while it ran, on any thread, which
    /// are not written to standard error.
    package static func capturing(inFile fileID: String = #fileID, _ body: () throws -> Void) rethrows -> [String] {
      let id = begin(fileID)
      defer { _ = end(id) }
      try body()
      return end(id)
    }

    /// Runs `body` and returns the warnings about subscriptions made in `fileID` while it ran, on any thread, which
    /// are not written to standard error.
    package static func capturing(
      inFile fileID: String = #fileID, _ body: () async throws -> Void
    ) async rethrows -> [String] {
      let id = begin(fileID)
      defer { _ = end(id) }
      try await body()
      return end(id)
    }

    private static func begin(_ fileID: String) -> Int {
      state.withLock { state in
        state.nextID += 1
        state.captures[state.nextID] = Capture(fileID: fileID)
        return state.nextID
      }
    }

    /// Ends capture `id`, if it has not ended, and returns what it captured.
    private static func end(_ id: Int) -> [String] {
      state.withLock { $0.captures.removeValue(forKey: id)?.warnings ?? [] }
    }
  }
#endif
