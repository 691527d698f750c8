// A @MainActor responder subscribes with `on: .main` and a handler that touches its state directly; a
// MainActorEventResponder and a bound EventView need no context at all.
import EventBus

enum ProfileEvent: Sendable {
  case name(String)
  case loading(Bool)
}

enum ProfileAction: Sendable {
  case refresh
}

@MainActor final class ProfileLabel {
  var text = ""

  func bind(to output: Output<ProfileEvent>) {
    output.subscribe(self, on: .main) { label, event in
      if case .name(let name) = event { label.text = name }
    }
  }
}

@MainActor final class ProfileSpinner: MainActorEventResponder {
  var isSpinning = false

  func handle(event: ProfileEvent) {
    if case .loading(let isLoading) = event { isSpinning = isLoading }
  }
}

final class ProfileViewModel: EventViewModel {
  let output = Output<ProfileEvent>()

  func start() {
    output.send(.name("Ada"))
  }

  func handle(event: ProfileAction) {
    output.send(.loading(true))
  }
}

@MainActor final class ProfileView: EventView {
  let output = Output<ProfileAction>()
  var viewModel: AnyEventViewModel<ProfileAction, ProfileEvent>?
  var title = ""

  func handle(event: ProfileEvent) {
    if case .name(let name) = event { title = name }
  }
}

@MainActor func showProfile(events: Output<ProfileEvent>, hub: EventHub) -> EventSubscription {
  let label = ProfileLabel()
  label.bind(to: events)
  let spinner = ProfileSpinner()
  events.subscribe(spinner)
  hub.subscribe(ProfileEvent.self, spinner)
  let view = ProfileView()
  view.bind(to: ProfileViewModel())
  return events.subscribe(on: .main) { event in
    if case .name(let name) = event { label.text = name }
  }
}
