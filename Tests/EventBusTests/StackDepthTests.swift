import EventBus
import Foundation
import Runtime
import Synchronization
import Testing

// What a debugger shows at a breakpoint in a handler: the frames from the handler's own frame up to the function that
// called `send`, both included, and whether each says what it does. Debug builds only: an optimised build inlines the
// library's frames. `Thread.callStackSymbols` gives the frames, and their names because the test target links with
// `-export-dynamic` (Package.swift); a frame whose symbol is local to its file (a closure, a protocol witness) has no
// name there, and takes it from the Runtime module's backtrace, read from the symbol table as a debugger does.
#if DEBUG
  @Suite("A breakpoint in a handler shows a short stack of named frames")
  struct StackDepthTests {
    @Test("an EventResponder on .immediate: at most 6 frames, every one named")
    func responder() throws {
      let output = Output<Int>()
      let probe = StackProbe()
      output.subscribe(probe)
      stackProbeCaller(output)
      let stack = try Stack(probe.captured(), from: "StackProbe.handle(event:", to: "stackProbeCaller(")
      #expect(stack.frames.count <= 6, "\(stack)")
      #expect(stack.unnamed.isEmpty, "\(stack)")
      #expect(stack.frames.contains { $0.contains("Output.send(") }, "\(stack)")
    }

    @Test("a responder with a handler closure: the closure is the user's own frame, the rest is named")
    func responderWithClosure() throws {
      let output = Output<Int>()
      let probe = StackProbe()
      output.subscribe(probe) { probe, event in probe.handle(event: event) }
      stackProbeCaller(output)
      let stack = try Stack(probe.captured(), from: "StackProbe.handle(event:", to: "stackProbeCaller(")
      // The handler, its closure (the user's code), the entry's delivery, the loop, send, the caller.
      #expect(stack.calls.count <= 6, "\(stack)")
      #expect(stack.unnamed.allSatisfy { $0.contains("closure #1 in StackDepthTests") }, "\(stack)")
    }

    @Test("a token handler on .immediate: at most 6 frames, the library's named")
    func token() throws {
      let output = Output<Int>()
      let probe = StackProbe()
      let subscription = output.subscribe { event in probe.handle(event: event) }
      stackProbeCaller(output)
      withExtendedLifetime(subscription) {}
      let stack = try Stack(probe.captured(), from: "StackProbe.handle(event:", to: "stackProbeCaller(")
      // The handler, the user's closure, the debug-build check that the token was kept, the loop, send, the caller.
      #expect(stack.calls.count <= 6, "\(stack)")
      #expect(stack.unnamed.allSatisfy { $0.contains("closure #1 in StackDepthTests") }, "\(stack)")
    }

    @Test("operators add one named function each")
    func operators() throws {
      let output = Output<Int>()
      let probe = StackProbe()
      let subscription = output.map { $0 * 2 }.filter { $0 > 0 }.removeDuplicates().subscribe { event in
        probe.handle(event: event)
      }
      stackProbeCaller(output)
      withExtendedLifetime(subscription) {}
      let stack = try Stack(probe.captured(), from: "StackProbe.handle(event:", to: "stackProbeCaller(")
      // Each operator's frame is its named function, which may come with its forwarder (`calls`).
      #expect(stack.calls.count <= 6 + 3, "\(stack)")
      #expect(stack.calls.filter { $0.hasPrefix("deliverIfTransformed") }.count == 2, "\(stack)")
      #expect(stack.calls.filter { $0.hasPrefix("deliverIfChanged") }.count == 1, "\(stack)")
      #expect(stack.unnamed.allSatisfy { $0.contains("closure #") && $0.contains("in StackDepthTests") }, "\(stack)")
    }
  }

  /// Sends one event: the frame a debugger shows as the caller of `send`.
  @inline(never)
  func stackProbeCaller(_ output: Output<Int>) {
    output.send(1)
  }

  /// A responder that records the call stack of its first event, twice: as `Thread.callStackSymbols` gives it, and
  /// the names of the Runtime module's backtrace.
  final class StackProbe: EventResponder {
    private let captures = Mutex<(symbols: [String], backtrace: [String])?>(nil)

    func handle(event: Int) {
      let symbols = Thread.callStackSymbols
      // Symbol tables only: no inline frames (a debug build has none) and no source locations, whose debug
      // information takes seconds and hundreds of megabytes to read, which other tests measuring the heap would see.
      let backtrace = (try? Backtrace.capture(limit: 64).symbolicated(options: [.useSymbolCache]))?.frames.filter {
        !$0.inlined
      }.map {
        $0.symbol?.name ?? ""
      }
      captures.withLock { $0 = $0 ?? (symbols, backtrace ?? []) }
    }

    func captured() throws -> (symbols: [String], backtrace: [String]) {
      try #require(captures.withLock { $0 }, "the handler did not run")
    }
  }

  /// The frames from the first whose name contains `first` to the first after it whose name contains `last`, both
  /// included, demangled.
  struct Stack: CustomStringConvertible {
    let frames: [String]

    /// - Parameter capture: `Thread.callStackSymbols`, which gives the frames; and the names of a backtrace taken in
    ///   the same frame, for the frames that `callStackSymbols` leaves unnamed.
    init(_ capture: (symbols: [String], backtrace: [String]), from first: String, to last: String) throws {
      let names = capture.symbols.map(demangledName(ofFrame:))
      let start = try #require(names.firstIndex { $0.contains(first) }, "no frame \(first) in \(names)")
      let end = try #require(names[start...].firstIndex { $0.contains(last) }, "no frame \(last) in \(names)")
      // The same frames in the backtrace: the same handler frame, and the same caller as many frames above it.
      let backtrace = capture.backtrace
      let offset =
        try #require(backtrace.firstIndex { $0.contains(first) }, "no frame \(first) in \(backtrace)") - start
      try #require(
        backtrace.indices.contains(end + offset) && backtrace[end + offset].contains(last),
        "the backtrace does not have the frames of Thread.callStackSymbols: \(backtrace) and \(names)")
      frames = (start...end).map { names[$0].isEmpty ? backtrace[$0 + offset] : names[$0] }
    }

    /// The frames but the forwarders: a frame `partial apply for F` right above F's frame passes a closure or a local
    /// function its captures. A debug build often jumps from it to F, leaving no frame; an instrumented build
    /// (ThreadSanitizer) keeps it.
    var calls: [String] {
      frames.enumerated().filter { index, frame in
        !(index > 0 && frame == "partial apply for " + frames[index - 1])
      }.map(\.element)
    }

    /// Frames that do not say what they do: closures, thunks, and addresses with no symbol. A protocol witness says
    /// which method of which conformance it calls, and a partial-apply forwarder which function it calls.
    var unnamed: [String] {
      frames.filter { $0.contains("closure #") || $0.contains("thunk") || $0.isEmpty }
    }

    var description: String {
      "\(frames.count) frames:\n"
        + frames.enumerated().map { "  \($0.offset + 1) \($0.element)" }.joined(separator: "\n")
    }
  }

  /// The demangled function name of a line of `Thread.callStackSymbols`, as glibc's `backtrace_symbols` writes it:
  /// `binary(mangledName+0x1f) [0x5555…]`. Empty when the frame has no symbol.
  func demangledName(ofFrame line: String) -> String {
    guard let open = line.firstIndex(of: "("), let plus = line[open...].firstIndex(of: "+") else { return "" }
    let mangled = String(line[line.index(after: open)..<plus])
    guard !mangled.isEmpty else { return "" }
    guard let demangled = mangled.withCString({ swiftDemangle($0, UInt(strlen($0)), nil, nil, 0) }) else {
      return mangled
    }
    defer { free(demangled) }
    return String(cString: demangled)
  }

  @_silgen_name("swift_demangle")
  private func swiftDemangle(
    _ mangled: UnsafePointer<CChar>, _ length: UInt, _ output: UnsafeMutablePointer<CChar>?,
    _ outputSize: UnsafeMutablePointer<UInt>?, _ flags: UInt32
  ) -> UnsafeMutablePointer<CChar>?
#endif
