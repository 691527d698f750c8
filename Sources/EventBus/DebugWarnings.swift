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

    /// The capture whose body is running in this task (or on this thread, outside a task), if any.
    @TaskLocal private static var currentCapture: Int?

    /// Hands `text` to the capture of `callSite`'s file whose body is running where the warning is made, or else to
    /// every capture of that file, or, if there is none, writes it to standard error as a line. So two tests of one
    /// file that run side by side, each capturing what its own body provokes, each get their own warnings; a warning
    /// made on another thread (a queue's block, a thread the test started) goes to every capture of its file.
    package static func emit(_ text: String, about callSite: CallSite) {
      let fileID = "\(callSite.fileID)"
      let current = currentCapture
      let isCaptured = state.withLock { state in
        if let current, state.captures[current]?.fileID == fileID {
          state.captures[current]?.warnings.append(text)
          return true
        }
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
    /// are not written to standard error; of the warnings made in `body`'s own task, only this capture's.
    package static func capturing(inFile fileID: String = #fileID, _ body: () throws -> Void) rethrows -> [String] {
      let id = begin(fileID)
      defer { _ = end(id) }
      try $currentCapture.withValue(id) { try body() }
      return end(id)
    }

    /// Runs `body` and returns the warnings about subscriptions made in `fileID` while it ran, on any thread, which
    /// are not written to standard error; of the warnings made in `body`'s own task, only this capture's.
    package static func capturing(
      inFile fileID: String = #fileID, _ body: () async throws -> Void
    ) async rethrows -> [String] {
      let id = begin(fileID)
      defer { _ = end(id) }
      try await $currentCapture.withValue(id) { try await body() }
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
