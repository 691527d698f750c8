import Testing

@testable import EventBus

@MainActor
@Suite struct CatalogBindingExampleTests {
  typealias CatalogView = CatalogBindingExample.CatalogView
  typealias CatalogViewModel = CatalogBindingExample.CatalogViewModel

  /// Returns the next prepared answer on each fetch.
  final class InMemoryCatalog: CatalogBindingExample.CatalogService {
    private var answers: [Result<[String], any Error>]

    init(_ answers: [Result<[String], any Error>]) {
      self.answers = answers
    }

    func fetchItems() throws -> [String] {
      try answers.removeFirst().get()
    }
  }

  @Test func boundInThreeLinesTheViewShowsTheLoadedCatalog() async {
    let view = CatalogView()
    let viewModel = CatalogViewModel(service: InMemoryCatalog([.success(["Tea", "Coffee"])]))
    view.bind(to: viewModel)

    #expect(await eventually { view.rows == ["Tea", "Coffee"] && !view.isSpinnerVisible })
    #expect(view.title == "Catalog")
    #expect(view.alertMessage == nil)
  }

  @Test func tappingRefreshReloadsAndAFailureShowsAnError() async {
    let view = CatalogView()
    let viewModel = CatalogViewModel(
      service: InMemoryCatalog([.success(["Tea"]), .failure(CatalogBindingExample.ServiceUnavailable())]))
    view.bind(to: viewModel)
    #expect(await eventually { view.rows == ["Tea"] })

    view.tapRefresh()
    #expect(await eventually { view.alertMessage == "The catalog could not be loaded." && !view.isSpinnerVisible })
    #expect(view.rows == ["Tea"])
  }

  @Test func swipingARowRemovesIt() async {
    let view = CatalogView()
    let viewModel = CatalogViewModel(service: InMemoryCatalog([.success(["Tea", "Coffee", "Cocoa"])]))
    view.bind(to: viewModel)
    #expect(await eventually { view.rows.count == 3 })

    view.swipe(row: 1)
    #expect(await eventually { view.rows == ["Tea", "Cocoa"] })
  }

  /// The view model can be tested without a view: record its output and drive it with view events.
  @Test func theViewModelAloneSendsTitleLoadingAndItems() {
    let viewModel = CatalogViewModel(service: InMemoryCatalog([.success(["Tea"])]))
    let recorder = EventRecorder(viewModel.output)
    viewModel.start()
    viewModel.handle(event: .itemSwiped(index: 0))
    #expect(
      recorder.events == [.title("Catalog"), .loading(true), .items(["Tea"]), .loading(false), .items([])])
  }

  @Test func releasingTheViewReleasesTheViewModelToo() async {
    weak var weakView: CatalogView?
    weak var weakViewModel: CatalogViewModel?
    do {
      let view = CatalogView()
      let viewModel = CatalogViewModel(service: InMemoryCatalog([.success(["Tea"])]))
      weakView = view
      weakViewModel = viewModel
      view.bind(to: viewModel)
      #expect(await eventually { view.rows == ["Tea"] })
    }
    #expect(weakView == nil)
    #expect(weakViewModel == nil)
  }
}
