import Broadcasters

extension Responder {
  /// What a screen does with a keyboard event in `source-fanout`: one real call per delivery, like `handle(_:)`
  /// for the fan-out event.
  @inline(never)
  func handle(_ event: KeyboardEvent) {
    switch event {
    case .willShow: record(1)
    default: record(0)
    }
  }
}
