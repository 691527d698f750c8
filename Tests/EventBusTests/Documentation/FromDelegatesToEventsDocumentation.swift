import EventBus
import Foundation
import Testing

// The code of FromDelegatesToEvents.md: one sign-in screen, rewritten four times. Each step lives in its own
// namespace so that every step can call its types by the same names.

extension Documentation {
  @Suite struct FromDelegatesToEvents {
    // MARK: Step 1: a delegate with one method per change

    enum DelegateStep {
      // snippet: delegates-protocol
      protocol SignInViewModelDelegate: AnyObject {
        func signInViewModelDidStartLoading(_ viewModel: SignInViewModel)
        func signInViewModelDidStopLoading(_ viewModel: SignInViewModel)
        func signInViewModel(_ viewModel: SignInViewModel, didFailWith message: String)
        func signInViewModel(_ viewModel: SignInViewModel, didSignIn userName: String)
      }

      final class SignInViewModel {
        weak var delegate: SignInViewModelDelegate?

        func signIn(user: String, password: String) {
          delegate?.signInViewModelDidStartLoading(self)
          if password.isEmpty {
            delegate?.signInViewModel(self, didFailWith: "Enter your password")
          } else {
            delegate?.signInViewModel(self, didSignIn: user)
          }
          delegate?.signInViewModelDidStopLoading(self)
        }
      }
      // end-snippet

      // snippet: delegates-screen
      final class SignInScreen: SignInViewModelDelegate {
        private(set) var isSpinnerVisible = false
        private(set) var errorText: String?
        private(set) var greeting: String?

        func signInViewModelDidStartLoading(_ viewModel: SignInViewModel) {
          isSpinnerVisible = true
        }
        func signInViewModelDidStopLoading(_ viewModel: SignInViewModel) {
          isSpinnerVisible = false
        }
        func signInViewModel(_ viewModel: SignInViewModel, didFailWith message: String) {
          errorText = message
        }
        func signInViewModel(_ viewModel: SignInViewModel, didSignIn userName: String) {
          greeting = "Welcome, \(userName)"
        }
      }
      // end-snippet
    }

    @Test func theDelegateScreenWorksForItsOneListener() {
      typealias Step = DelegateStep
      let viewModel = Step.SignInViewModel()
      let screen = Step.SignInScreen()
      viewModel.delegate = screen
      viewModel.signIn(user: "ada", password: "")
      #expect(screen.errorText == "Enter your password")
      viewModel.signIn(user: "ada", password: "analytical")
      #expect(screen.greeting == "Welcome, ada")
      #expect(!screen.isSpinnerVisible)
    }

    // MARK: Step 2: one enum, one method, one switch

    enum EnumStep {
      // snippet: delegates-enum
      enum SignInEvent: Sendable, Equatable {
        case loading(Bool)
        case failed(message: String)
        case signedIn(userName: String)
      }

      protocol SignInViewModelDelegate: AnyObject {
        func handle(event: SignInEvent)
      }

      final class SignInViewModel {
        weak var delegate: SignInViewModelDelegate?

        func signIn(user: String, password: String) {
          delegate?.handle(event: .loading(true))
          if password.isEmpty {
            delegate?.handle(event: .failed(message: "Enter your password"))
          } else {
            delegate?.handle(event: .signedIn(userName: user))
          }
          delegate?.handle(event: .loading(false))
        }
      }
      // end-snippet

      // snippet: delegates-enum-screen
      final class SignInScreen: SignInViewModelDelegate {
        private(set) var isSpinnerVisible = false
        private(set) var errorText: String?
        private(set) var greeting: String?

        func handle(event: SignInEvent) {
          switch event {
          case .loading(let isLoading):
            isSpinnerVisible = isLoading
          case .failed(let message):
            errorText = message
          case .signedIn(let userName):
            greeting = "Welcome, \(userName)"
          }
        }
      }
      // end-snippet
    }

    @Test func theEnumScreenHandlesEveryCaseInOneSwitch() {
      typealias Step = EnumStep
      let viewModel = Step.SignInViewModel()
      let screen = Step.SignInScreen()
      viewModel.delegate = screen
      viewModel.signIn(user: "ada", password: "")
      #expect(screen.errorText == "Enter your password")
      viewModel.signIn(user: "ada", password: "analytical")
      #expect(screen.greeting == "Welcome, ada")
      #expect(!screen.isSpinnerVisible)
    }

    // MARK: Step 3: an output for every listener

    enum OutputStep {
      typealias SignInEvent = EnumStep.SignInEvent

      // snippet: delegates-output
      final class SignInViewModel: Sendable {
        let output = Output<SignInEvent>()

        func signIn(user: String, password: String) {
          output.send(.loading(true))
          if password.isEmpty {
            output.send(.failed(message: "Enter your password"))
          } else {
            output.send(.signedIn(userName: user))
          }
          output.send(.loading(false))
        }
      }
      // end-snippet

      // snippet: delegates-output-screen
      @MainActor final class SignInScreen: MainActorEventResponder {
        private(set) var isSpinnerVisible = false
        private(set) var errorText: String?
        private(set) var greeting: String?

        func handle(event: SignInEvent) {
          switch event {
          case .loading(let isLoading):
            isSpinnerVisible = isLoading
          case .failed(let message):
            errorText = message
          case .signedIn(let userName):
            greeting = "Welcome, \(userName)"
          }
        }
      }

      final class SignInAnalytics: EventResponder {
        // handle(event:) runs on whichever thread calls send, so the count is in a lock box.
        private let failureCount = Locked(0)

        var failures: Int { failureCount.withLock { $0 } }

        func handle(event: SignInEvent) {
          if case .failed = event {
            failureCount.withLock { $0 += 1 }
          }
        }
      }
      // end-snippet
    }

    @Test @MainActor func everyListenerHearsEveryEvent() async {
      typealias SignInViewModel = OutputStep.SignInViewModel
      typealias SignInScreen = OutputStep.SignInScreen
      typealias SignInAnalytics = OutputStep.SignInAnalytics
      // snippet: delegates-output-subscribe
      let viewModel = SignInViewModel()
      let screen = SignInScreen()
      let analytics = SignInAnalytics()
      viewModel.output.subscribe(screen)
      viewModel.output.subscribe(analytics)

      viewModel.signIn(user: "ada", password: "")
      // analytics.failures == 1; on the main actor: screen.errorText == "Enter your password"
      // end-snippet
      #expect(analytics.failures == 1)
      await Documentation.mainQueueRoundTrip()
      #expect(screen.errorText == "Enter your password")
      #expect(!screen.isSpinnerVisible)
    }

    // MARK: Step 4: both directions

    enum BindingStep {
      // snippet: delegates-binding-events
      enum ViewEvent: Sendable {
        case signInTapped(user: String, password: String)
      }

      enum ViewModelEvent: Sendable {
        case loading(Bool)
        case failed(message: String)
        case signedIn(userName: String)
      }
      // end-snippet

      // snippet: delegates-binding-view-model
      final class SignInViewModel: EventResponder {
        let output = Output<ViewModelEvent>()

        func handle(event: ViewEvent) {
          switch event {
          case .signInTapped(let user, let password):
            signIn(user: user, password: password)
          }
        }

        private func signIn(user: String, password: String) {
          output.send(.loading(true))
          if password.isEmpty {
            output.send(.failed(message: "Enter your password"))
          } else {
            output.send(.signedIn(userName: user))
          }
          output.send(.loading(false))
        }
      }
      // end-snippet

      // snippet: delegates-binding-view
      @MainActor final class SignInView: MainActorEventResponder {
        let output = Output<ViewEvent>()
        private let viewModel: SignInViewModel
        private(set) var isSpinnerVisible = false
        private(set) var errorText: String?
        private(set) var greeting: String?

        init(viewModel: SignInViewModel) {
          self.viewModel = viewModel
          viewModel.output.subscribe(self)  // view model → view, on the main actor
          output.subscribe(viewModel)  // view → view model
        }

        func signInButtonTapped(user: String, password: String) {
          output.send(.signInTapped(user: user, password: password))
        }

        func handle(event: ViewModelEvent) {
          switch event {
          case .loading(let isLoading):
            isSpinnerVisible = isLoading
          case .failed(let message):
            errorText = message
          case .signedIn(let userName):
            greeting = "Welcome, \(userName)"
          }
        }
      }
      // end-snippet
    }

    @Test @MainActor func theViewAndTheViewModelTalkBothWaysAndFreeEachOther() async {
      typealias SignInViewModel = BindingStep.SignInViewModel
      typealias SignInView = BindingStep.SignInView
      weak var weakViewModel: SignInViewModel?
      weak var weakView: SignInView?
      do {
        // snippet: delegates-binding-use
        let viewModel = SignInViewModel()
        let view = SignInView(viewModel: viewModel)
        view.signInButtonTapped(user: "ada", password: "analytical")
        // view.greeting == "Welcome, ada"
        // end-snippet
        await Documentation.mainQueueRoundTrip()
        #expect(view.greeting == "Welcome, ada")
        #expect(!view.isSpinnerVisible)
        view.signInButtonTapped(user: "ada", password: "")
        await Documentation.mainQueueRoundTrip()
        #expect(view.errorText == "Enter your password")
        weakView = view
        weakViewModel = viewModel
      }
      #expect(weakView == nil)
      #expect(weakViewModel == nil)
    }

    // MARK: Step 5: the same, with EventView and EventViewModel

    enum ElementStep {
      typealias ViewEvent = BindingStep.ViewEvent
      typealias ViewModelEvent = BindingStep.ViewModelEvent

      // snippet: delegates-element-view-model
      final class SignInViewModel: EventViewModel {
        let output = Output<ViewModelEvent>()

        func start() {
          output.send(.loading(false))
        }

        func handle(event: ViewEvent) {
          switch event {
          case .signInTapped(let user, let password):
            output.send(.loading(true))
            if password.isEmpty {
              output.send(.failed(message: "Enter your password"))
            } else {
              output.send(.signedIn(userName: user))
            }
            output.send(.loading(false))
          }
        }
      }
      // end-snippet

      // snippet: delegates-element-view
      @MainActor final class SignInView: EventView {
        let output = Output<ViewEvent>()
        var viewModel: AnyEventViewModel<ViewEvent, ViewModelEvent>?
        private(set) var isSpinnerVisible = true
        private(set) var errorText: String?
        private(set) var greeting: String?
        private var onSignInTap: ((String, String) -> Void)?

        func setupBindings() {
          // A real view connects its button here.
          onSignInTap = { [output] user, password in
            output.send(.signInTapped(user: user, password: password))
          }
        }

        func signInButtonTapped(user: String, password: String) {
          onSignInTap?(user, password)
        }

        func handle(event: ViewModelEvent) {
          switch event {
          case .loading(let isLoading):
            isSpinnerVisible = isLoading
          case .failed(let message):
            errorText = message
          case .signedIn(let userName):
            greeting = "Welcome, \(userName)"
          }
        }
      }
      // end-snippet
    }

    @Test @MainActor func bindConnectsBothDirectionsAndStartsTheViewModel() async {
      typealias SignInViewModel = ElementStep.SignInViewModel
      typealias SignInView = ElementStep.SignInView
      weak var weakViewModel: SignInViewModel?
      weak var weakView: SignInView?
      do {
        // snippet: delegates-element-bind
        let view = SignInView()
        view.bind(to: SignInViewModel())  // setupBindings(), then start()
        view.signInButtonTapped(user: "ada", password: "analytical")
        // view.greeting == "Welcome, ada"
        // end-snippet
        await Documentation.waitUntil { view.greeting == "Welcome, ada" && !view.isSpinnerVisible }
        #expect(view.greeting == "Welcome, ada")
        #expect(!view.isSpinnerVisible)
        weakView = view
        weakViewModel = view.viewModel?.base as? SignInViewModel
        #expect(weakViewModel != nil)
      }
      #expect(weakView == nil)
      #expect(weakViewModel == nil)
    }
  }
}
