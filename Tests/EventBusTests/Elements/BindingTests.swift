import Foundation
import Testing

@testable import EventBus

@MainActor
@Suite struct BindingTests {
  enum ViewEvent: Sendable, Equatable {
    case tapped
    case swiped(Int)
  }

  enum ViewModelEvent: Sendable, Equatable {
    case title(String)
    case count(Int)
  }

  final class CounterViewModel: EventViewModel {
    let output = Output<ViewModelEvent>()
    let calls: Log<String>
    private(set) var received: [ViewEvent] = []

    init(calls: Log<String> = Log()) {
      self.calls = calls
    }

    func start() {
      calls.append("start")
      output.send(.title("Counter"))
    }

    func handle(event: ViewEvent) {
      received.append(event)
      output.send(.count(received.count))
    }
  }

  /// A different class with the same events, as a test double would be.
  final class SilentViewModel: EventViewModel {
    let output = Output<ViewModelEvent>()
    private(set) var received: [ViewEvent] = []
    private(set) var startCount = 0

    func start() { startCount += 1 }
    func handle(event: ViewEvent) { received.append(event) }
  }

  @MainActor final class CounterView: EventView {
    let output = Output<ViewEvent>()
    var viewModel: AnyEventViewModel<ViewEvent, ViewModelEvent>?
    let calls: Log<String>
    private(set) var rendered: [ViewModelEvent] = []

    init(calls: Log<String> = Log()) {
      self.calls = calls
    }

    func setupBindings() { calls.append("setupBindings") }
    func handle(event: ViewModelEvent) { rendered.append(event) }
  }

  @Test func bindCallsSetupBindingsThenStartOnce() async {
    let calls = Log<String>()
    let view = CounterView(calls: calls)
    let viewModel = CounterViewModel(calls: calls)
    view.bind(to: viewModel)
    #expect(calls.elements == ["setupBindings", "start"])
    #expect(view.viewModel?.base === viewModel)
    #expect(await eventually { view.rendered == [.title("Counter")] })
  }

  @Test func bindingTheSameViewModelAgainCallsNothingTwice() async {
    let calls = Log<String>()
    let view = CounterView(calls: calls)
    let viewModel = CounterViewModel(calls: calls)
    view.bind(to: viewModel)
    view.bind(to: viewModel)
    view.bind(to: AnyEventViewModel(viewModel))
    #expect(calls.elements == ["setupBindings", "start"])
    #expect(viewModel.output.subscriberCount == 1)
    #expect(view.output.subscriberCount == 1)
    view.output.send(.tapped)
    #expect(await eventually { viewModel.received == [.tapped] })
  }

  @Test func viewEventsReachTheViewModelAndItsEventsReachTheViewOnTheMainActor() async {
    let view = CounterView()
    let viewModel = CounterViewModel()
    view.bind(to: viewModel)
    view.output.send(.tapped)
    view.output.send(.swiped(2))
    #expect(await eventually { viewModel.received == [.tapped, .swiped(2)] })
    #expect(await eventually { view.rendered == [.title("Counter"), .count(1), .count(2)] })
    let output = viewModel.output
    Thread.detachNewThread { output.send(.title("From a background thread")) }
    #expect(await eventually { view.rendered.last == .title("From a background thread") })
  }

  @Test func releasingTheViewReleasesTheViewAndTheViewModel() async {
    enum PrivateViewEvent: Sendable { case tapped }
    enum PrivateViewModelEvent: Sendable { case tapCount(Int) }
    final class TapViewModel: EventViewModel {
      let output = Output<PrivateViewModelEvent>()
      private var taps = 0
      func start() { output.send(.tapCount(0)) }
      func handle(event: PrivateViewEvent) {
        taps += 1
        output.send(.tapCount(taps))
      }
    }
    @MainActor final class TapView: EventView {
      let output = Output<PrivateViewEvent>()
      var viewModel: AnyEventViewModel<PrivateViewEvent, PrivateViewModelEvent>?
      var lastCount = -1
      func handle(event: PrivateViewModelEvent) {
        if case .tapCount(let count) = event { lastCount = count }
      }
    }
    weak var weakView: TapView?
    weak var weakViewModel: TapViewModel?
    do {
      let view = TapView()
      let viewModel = TapViewModel()
      weakView = view
      weakViewModel = viewModel
      view.bind(to: viewModel)
      view.output.send(.tapped)
      #expect(await eventually { view.lastCount == 1 })
    }
    #expect(weakView == nil)
    #expect(weakViewModel == nil)
    // Entries, outputs and lanes of both event types are gone (a queued main-queue block may hold a lane
    // for a moment).
    #expect(await eventually { LiveObjects.total(for: PrivateViewEvent.self) == 0 })
    #expect(await eventually { LiveObjects.total(for: PrivateViewModelEvent.self) == 0 })
  }

  @Test func aViewModelKeptElsewhereDoesNotKeepTheViewAliveOrReachIt() async {
    let viewModel = CounterViewModel()
    weak var weakView: CounterView?
    do {
      let view = CounterView()
      weakView = view
      view.bind(to: viewModel)
      #expect(await eventually { view.rendered == [.title("Counter")] })
    }
    #expect(weakView == nil)
    viewModel.output.send(.title("Nobody listens"))
    #expect(viewModel.output.subscriberCount == 0)
  }

  @Test func bindingAnotherViewModelDisconnectsTheFirstAndSkipsSetupBindings() async {
    let calls = Log<String>()
    let view = CounterView(calls: calls)
    let first = CounterViewModel(calls: calls)
    let second = SilentViewModel()
    view.bind(to: first)
    view.bind(to: second)
    #expect(calls.elements == ["setupBindings", "start"])
    #expect(second.startCount == 1)
    #expect(view.viewModel?.base === second)
    view.output.send(.tapped)
    #expect(await eventually { second.received == [.tapped] })
    #expect(first.received.isEmpty)
    #expect(first.output.subscriberCount == 0)
    first.output.send(.title("Stale"))
    second.output.send(.title("Current"))
    #expect(await eventually { view.rendered.last == .title("Current") })
    #expect(!view.rendered.contains(.title("Stale")))
  }

  @Test func settingTheViewModelToNilUnbindsBothDirections() async {
    let view = CounterView()
    let viewModel = CounterViewModel()
    view.bind(to: viewModel)
    #expect(await eventually { view.rendered == [.title("Counter")] })
    view.viewModel = nil
    view.output.send(.tapped)
    viewModel.output.send(.title("After unbinding"))
    #expect(view.output.subscriberCount == 0)
    #expect(viewModel.output.subscriberCount == 0)
    try? await Task.sleep(nanoseconds: 20_000_000)
    #expect(viewModel.received.isEmpty)
    #expect(view.rendered == [.title("Counter")])
  }

  @Test func anyEventViewModelForwardsToTheViewModelItWrapsAndNeverWrapsAWrapper() {
    let calls = Log<String>()
    let viewModel = CounterViewModel(calls: calls)
    let erased = AnyEventViewModel(AnyEventViewModel(viewModel))
    // Compared outside `#expect`: Swift 6.3.1 crashes expanding `#expect(anyObject === instance)`.
    let wrapsTheViewModel = erased.base === viewModel
    let forwardsTheOutput = erased.output === viewModel.output
    #expect(wrapsTheViewModel)
    #expect(forwardsTheOutput)
    let recorded = Recorder<ViewModelEvent>()
    erased.output.subscribe(recorded)
    erased.start()
    erased.handle(event: .tapped)
    #expect(calls.elements == ["start"])
    #expect(viewModel.received == [.tapped])
    #expect(recorded.events == [.title("Counter"), .count(1)])
  }

  #if compiler(>=6.2)
    @MainActor final class MainActorViewModel: @MainActor EventViewModel {
      let output = Output<ViewModelEvent>()
      private(set) var received: [ViewEvent] = []

      func start() { output.send(.title("Main actor")) }

      func handle(event: ViewEvent) {
        MainActor.assertIsolated()
        received.append(event)
        output.send(.count(received.count))
      }
    }

    @Test func aMainActorViewModelIsOnlyCalledOnTheMainActorEvenWhenTheViewOutputIsUsedElsewhere() async {
      let view = CounterView()
      let viewModel = MainActorViewModel()
      view.bind(to: viewModel)
      let viewOutput = view.output
      Thread.detachNewThread { viewOutput.send(.tapped) }
      #expect(await eventually { viewModel.received == [.tapped] })
      #expect(await eventually { view.rendered == [.title("Main actor"), .count(1)] })
    }
  #endif
}

extension BindingTests {
  @Test func theViewsOutputNamesTheBoundViewModelsOwnTypeNotTheWrapper() {
    let view = CounterView()
    let line = #line + 1
    view.bind(to: CounterViewModel())
    let description = view.output.debugDescription
    #expect(
      description.contains("responder BoundViewModel<CounterViewModel> at EventBusTests/BindingTests.swift:\(line)"))
    #expect(!description.contains("AnyEventViewModel"))
    #expect(view.viewModel?.output.debugDescription.contains("responder CounterView at") == true)

    // Wrapped by hand, as a test double is, and rebound: the name is still the view model's own.
    view.bind(to: AnyEventViewModel(AnyEventViewModel(SilentViewModel())))
    #expect(view.output.debugDescription.contains("responder BoundViewModel<SilentViewModel>"))
    #expect(view.output.subscriberCount == 1)
  }

  @Test func releasingTheViewEndsTheSubscriptionMadeOnTheViewModelsBehalf() {
    let output: Output<ViewEvent>
    let viewModel = SilentViewModel()
    do {
      let view = CounterView()
      output = view.output
      view.bind(to: viewModel)
      output.send(.tapped)
      #expect(output.subscriberCount == 1)
    }
    #expect(output.subscriberCount == 0)
    output.send(.swiped(1))
    #expect(viewModel.received == [.tapped])
  }

  @Test func aRecorderMadeAfterBindingSaysItMissedWhatStartSent() {
    let view = CounterView()
    let viewModel = CounterViewModel()
    var late: EventRecorder<ViewModelEvent>?
    var bindLine = 0
    let warnings = DebugWarnings.capturing {
      bindLine = #line + 1
      view.bind(to: viewModel)
      late = EventRecorder(viewModel.output)
    }
    #expect(late?.events == [])
    #expect(warnings.count == 1)
    let start = "EventBusTests/BindingTests.swift:\(bindLine): it does not have what start() sent"
    #expect(warnings.first?.contains("whose view model bind(to:) already started, at \(start)") == true)
    #expect(warnings.first?.contains("Create the recorder before bind(to:).") == true)
  }

  @Test func aRecorderMadeBeforeBindingRecordsWhatStartSentAndSaysNothing() {
    let view = CounterView()
    let viewModel = CounterViewModel()
    var recorder: EventRecorder<ViewModelEvent>?
    let warnings = DebugWarnings.capturing {
      recorder = EventRecorder(viewModel.output)
      view.bind(to: viewModel)
    }
    #expect(warnings.isEmpty)
    #expect(recorder?.events == [.title("Counter")])
  }
}
