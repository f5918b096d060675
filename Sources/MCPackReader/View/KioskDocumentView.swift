#if canImport(UIKit) && canImport(SwiftUI)
import MCPackSchema
import SwiftUI
import UIKit

/// DocumentView in SwiftUI: the scan with its overlays, the menu's
/// category as a binding, and the tapped clause reported.
public struct KioskDocumentView: UIViewRepresentable {
    public let bundle: KioskBundle
    public var category: ClauseCategory?
    public var onClauseTap: (Clause?) -> Void

    public init(bundle: KioskBundle, category: ClauseCategory? = nil, onClauseTap: @escaping (Clause?) -> Void = { _ in }) {
        self.bundle = bundle
        self.category = category
        self.onClauseTap = onClauseTap
    }

    public func makeUIView(context: Context) -> DocumentView {
        let view = DocumentView(bundle: bundle)
        view.category = category
        view.onClauseTap = onClauseTap
        return view
    }

    public func updateUIView(_ view: DocumentView, context: Context) {
        // A new bundle (another folder, or a new version: an update) is
        // shown afresh; the same one again leaves the zoom as it is.
        if view.bundle.identity != bundle.identity { view.bundle = bundle }
        if view.category != category { view.category = category }
        view.onClauseTap = onClauseTap
    }
}
#endif
