// A view without `setupBindings()` and a view model without `start()` conform and bind: both have defaults that do
// nothing. So does a `@MainActor` view model, conforming with an isolated conformance.
import EventBus

enum CounterViewEvent: Sendable {
  case incrementTapped
}

enum CounterViewModelEvent: Sendable {
  case count(Int)
}

final class CounterViewModel: EventViewModel {
  let output = Output<CounterViewModelEvent>()

  func handle(event: CounterViewEvent) {
    output.send(.count(1))
  }
}

@MainActor final class IsolatedCounterViewModel: @MainActor EventViewModel {
  let output = Output<CounterViewModelEvent>()
  private var count = 0

  func handle(event: CounterViewEvent) {
    count += 1
    output.send(.count(count))
  }
}

@MainActor final class CounterView: EventView {
  let output = Output<CounterViewEvent>()
  var viewModel: AnyEventViewModel<CounterViewEvent, CounterViewModelEvent>?
  var shown = 0

  func handle(event: CounterViewModelEvent) {
    if case .count(let count) = event { shown = count }
  }
}

@MainActor func showCounters() -> [CounterView] {
  let first = CounterView()
  first.bind(to: CounterViewModel())
  let second = CounterView()
  second.bind(to: IsolatedCounterViewModel())
  return [first, second]
}
