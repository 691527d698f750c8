// Example: a view model driving a view through two event enums.
//
// The view tells the view model what the user did (`ViewEvent`); the view model tells the view what to show
// (`ViewModelEvent`). Each side has one `handle(event:)` with a `switch` instead of a delegate protocol, and neither
// holds the other: the view keeps its view model alive, and both directions are weak subscriptions.
//
// Binding them is three lines:
//
//     let view = CatalogView()
//     let viewModel = CatalogViewModel(service: service)
//     view.bind(to: viewModel)
//
// `bind` calls the view's `setupBindings()` and then the view model's `start()`, once, and delivers both directions
// on the main actor, so the view model may send from any thread. No UIKit here: the "view" keeps what it would draw
// in plain properties, which is also what the tests look at.

import EventBus

enum CatalogBindingExample {
  /// Where the items come from. The tests use an in-memory one.
  protocol CatalogService {
    func fetchItems() throws -> [String]
  }

  struct ServiceUnavailable: Error {}

  // MARK: The view model

  final class CatalogViewModel: EventViewModel {
    enum ViewEvent: Sendable, Equatable {
      case refreshTapped
      case itemSwiped(index: Int)
    }

    enum ViewModelEvent: Sendable, Equatable {
      case title(String)
      case items([String])
      case loading(Bool)
      case error(String)
    }

    let output = Output<ViewModelEvent>()
    private let service: any CatalogService
    private var items: [String] = []

    init(service: any CatalogService) {
      self.service = service
    }

    func start() {
      output.send(.title("Catalog"))
      reload()
    }

    func handle(event: ViewEvent) {
      switch event {
      case .refreshTapped:
        reload()
      case .itemSwiped(let index):
        guard items.indices.contains(index) else { return }
        items.remove(at: index)
        output.send(.items(items))
      }
    }

    private func reload() {
      output.send(.loading(true))
      do {
        items = try service.fetchItems()
        output.send(.items(items))
      } catch {
        output.send(.error("The catalog could not be loaded."))
      }
      output.send(.loading(false))
    }
  }

  // MARK: The view

  @MainActor final class CatalogView: EventView {
    typealias ViewEvent = CatalogViewModel.ViewEvent
    typealias ViewModelEvent = CatalogViewModel.ViewModelEvent

    let output = Output<ViewEvent>()
    var viewModel: AnyEventViewModel<ViewEvent, ViewModelEvent>?

    // What a real view would draw.
    private(set) var title = ""
    private(set) var rows: [String] = []
    private(set) var isSpinnerVisible = false
    private(set) var alertMessage: String?

    // Stand-ins for a button's and a list's callbacks.
    private var onRefreshTap: (() -> Void)?
    private var onSwipe: ((Int) -> Void)?

    func setupBindings() {
      // The controls feed the output. `bind` calls this once, before the view model starts.
      onRefreshTap = { [output] in output.send(.refreshTapped) }
      onSwipe = { [output] index in output.send(.itemSwiped(index: index)) }
    }

    func handle(event: ViewModelEvent) {
      switch event {
      case .title(let title): self.title = title
      case .items(let items): rows = items
      case .loading(let isLoading): isSpinnerVisible = isLoading
      case .error(let message): alertMessage = message
      }
    }

    // What the user does.
    func tapRefresh() { onRefreshTap?() }
    func swipe(row: Int) { onSwipe?(row) }
  }
}
