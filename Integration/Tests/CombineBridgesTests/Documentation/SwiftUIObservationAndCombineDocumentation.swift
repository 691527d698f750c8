import CombineBridges
import EventBus
import OpenCombine
import Testing

// The Combine code of SwiftUIObservationAndCombine.md, compiled against OpenCombine from the same bridge file that
// Apple platforms compile against Combine. The root package's DocumentationSnippetTests checks that the article's
// blocks are these regions. The view model is the article's first sample, whose region is in the root package.

/// The suites that hold the code of the DocC articles.
enum Documentation {}

extension Documentation {
  @Suite struct SwiftUIObservationAndCombine {
    enum ProfileEvent: Sendable, Equatable {
      case loading
      case loaded(name: String)
      case failed(message: String)
    }

    final class ProfileViewModel: Sendable {
      let output = Output<ProfileEvent>()

      func load() {
        output.send(.loading)
        output.send(.loaded(name: "Ada Lovelace"))
      }
    }

    // snippet: swiftui-combine-banner
    final class ProfileBanner {
      private(set) var message: String?
      private var cancellables = Set<AnyCancellable>()

      init(viewModel: ProfileViewModel) {
        viewModel.output.publisher
          .compactMap { event -> String? in
            guard case .failed(let message) = event else { return nil }
            return message
          }
          .sink { [weak self] message in self?.message = message }
          .store(in: &cancellables)
      }
    }
    // end-snippet

    @Test func aSinkReceivesTheOutputsEvents() {
      // snippet: swiftui-combine-banner-use
      let viewModel = ProfileViewModel()
      let banner = ProfileBanner(viewModel: viewModel)
      viewModel.load()
      viewModel.output.send(.failed(message: "offline"))
      // banner.message == "offline": delivered on the sending thread, before `send` returned
      // end-snippet
      #expect(banner.message == "offline")
    }

    @Test func releasingTheBannerEndsItsSubscription() {
      let viewModel = ProfileViewModel()
      do {
        let banner = ProfileBanner(viewModel: viewModel)
        #expect(viewModel.output.subscriberCount == 1)
        withExtendedLifetime(banner) {}
      }
      #expect(viewModel.output.subscriberCount == 0)
    }

    @Test func aTokenLivesAsLongAsTheSetOfCancellables() {
      let viewModel = ProfileViewModel()
      let log = Log<ProfileEvent>()
      // snippet: swiftui-combine-store
      var cancellables = Set<AnyCancellable>()
      viewModel.output.subscribe { event in print("profile:", event) }.store(in: &cancellables)
      // end-snippet
      viewModel.output.subscribe { event in log.append(event) }.store(in: &cancellables)
      viewModel.load()
      #expect(log.elements == [.loading, .loaded(name: "Ada Lovelace")])
      cancellables.removeAll()
      #expect(viewModel.output.subscriberCount == 0)
    }
  }
}
