// An async `main` that sends on the main actor after its first suspension, when Swift concurrency on Linux serves the
// main actor from the main queue on a thread other than the first: a `.main` handler must still run before `send`
// returns. Built against the EventBus sources and run by Scripts/check-main-actor-inline.sh, which fails unless this
// prints "inline".

@MainActor final class Label {
  var text = ""
}

@main struct MainActorInline {
  static func main() async {
    try? await Task.sleep(nanoseconds: 1)
    await MainActor.run {
      let output = Output<Int>()
      let label = Label()
      output.subscribe(label, on: .main) { label, value in label.text = "\(value)" }
      output.send(7)
      print(label.text.isEmpty ? "deferred" : "inline")
    }
  }
}
