import Testing

@testable import Bench

extension BenchTestSuite {
  @Suite struct ProgressLineTests {
    @Test func progressIsLiveOnlyOnATerminalOutsideCI() {
      #expect(ProgressLine.Mode.choose(standardErrorIsTerminal: true, environment: ["TERM": "xterm"]) == .live)
      #expect(ProgressLine.Mode.choose(standardErrorIsTerminal: false, environment: [:]) == .silent)
      #expect(ProgressLine.Mode.choose(standardErrorIsTerminal: true, environment: ["CI": "true"]) == .silent)
      #expect(ProgressLine.Mode.choose(standardErrorIsTerminal: true, environment: ["CI": "1"]) == .silent)
      #expect(ProgressLine.Mode.choose(standardErrorIsTerminal: true, environment: ["CI": ""]) == .live)
      #expect(ProgressLine.Mode.choose(standardErrorIsTerminal: true, environment: ["TERM": "dumb"]) == .silent)
    }

    @Test func aLiveLineRewritesItselfAndIsErasedOnce() {
      var written: [String] = []
      let line = ProgressLine(mode: .live) { written.append($0) }
      line.clear()
      #expect(written.isEmpty, "nothing to erase before anything was shown")
      line.show("[1/3] fanout, N = 1 · 0 s")
      line.show("[2/3] fanout, N = 10 · 1 s")
      line.clear()
      line.clear()
      #expect(
        written == [
          ProgressLine.eraseLine + "[1/3] fanout, N = 1 · 0 s", ProgressLine.eraseLine + "[2/3] fanout, N = 10 · 1 s",
          ProgressLine.eraseLine,
        ])
    }

    @Test func aLongStatusIsCutSoTheLineNeverWraps() {
      var written: [String] = []
      let line = ProgressLine(mode: .live) { written.append($0) }
      line.show(String(repeating: "x", count: 200))
      let shown = written[0].dropFirst(ProgressLine.eraseLine.count)
      #expect(shown.count == ProgressLine.maximumWidth)
      #expect(shown.hasSuffix("…"))
    }

    @Test func aSilentLineWritesNothing() {
      var written: [String] = []
      let line = ProgressLine(mode: .silent) { written.append($0) }
      line.show("[1/3] fanout, N = 1 · 0 s")
      line.clear()
      #expect(written.isEmpty)
    }

    @Test func aRunShowsProgressOnlyWhenLiveAndLeavesTheTablesClean() {
      let command = ["--scenario", "fanout", "--contender", "direct-call", "--n", "1,2", "--iterations", "2"]
      let live = RecordedRun(command, progress: .live)
      #expect(live.status == 0)
      #expect(live.errors.hasPrefix(ProgressLine.eraseLine + "[1/2] fanout, N = 1"))
      #expect(live.errors.contains(ProgressLine.eraseLine + "[2/2] fanout, N = 2"))
      #expect(live.errors.hasSuffix(ProgressLine.eraseLine), "the line is erased before the tables")
      #expect(!live.output.contains(ProgressLine.eraseLine))
      let silent = RecordedRun(command, progress: .silent)
      #expect(silent.status == 0)
      #expect(silent.errors.isEmpty)
      #expect(silent.output.contains("fanout: ns per delivery"))
    }
  }
}
