import SwiftUI
import UIKit
import UIKit.UIGestureRecognizerSubclass

/// Calls `touched` when a finger comes down anywhere in the window, and
/// takes nothing from the views under it: the idle timer of the update
/// switch. Placed as a background, it watches its window, not itself.
struct TouchActivity: UIViewRepresentable {
    let touched: @MainActor () -> Void

    func makeUIView(context: Context) -> WindowWatcher { WindowWatcher(touched: touched) }

    func updateUIView(_ view: WindowWatcher, context: Context) { view.touched = touched }
}

/// A window-wide gesture recognizer rather than a SwiftUI gesture: the scan
/// is a UIScrollView, whose pans and pinches a SwiftUI gesture above it
/// would not see or would delay.
final class WindowWatcher: UIView {
    var touched: @MainActor () -> Void
    private var recognizer: TouchRecognizer?

    init(touched: @escaping @MainActor () -> Void) {
        self.touched = touched
        super.init(frame: .zero)
        isUserInteractionEnabled = false
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) { fatalError("not used from a storyboard") }

    override func didMoveToWindow() {
        super.didMoveToWindow()
        if let recognizer { recognizer.view?.removeGestureRecognizer(recognizer) }
        recognizer = nil
        guard let window else { return }
        let recognizer = TouchRecognizer { [weak self] in self?.touched() }
        window.addGestureRecognizer(recognizer)
        self.recognizer = recognizer
    }
}

/// Fails at the first touch, having reported it: a failed recognizer never
/// cancels, delays or blocks the touches the other recognizers get.
final class TouchRecognizer: UIGestureRecognizer, UIGestureRecognizerDelegate {
    private let onTouch: @MainActor () -> Void

    init(onTouch: @escaping @MainActor () -> Void) {
        self.onTouch = onTouch
        super.init(target: nil, action: nil)
        cancelsTouchesInView = false
        delaysTouchesBegan = false
        delaysTouchesEnded = false
        delegate = self
    }

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        onTouch()
        state = .failed
    }

    func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer, shouldRecognizeSimultaneouslyWith other: UIGestureRecognizer) -> Bool {
        true
    }
}
