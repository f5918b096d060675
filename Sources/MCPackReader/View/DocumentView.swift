#if canImport(UIKit)
import MCPackSchema
import UIKit

/// The scan, zoomable, with the clause overlays in their colours: a
/// scroll view over a content view the master's size in points (one point
/// a master pixel), tiles drawn by a CATiledLayer, which asks only for
/// what is in view at the zoom. Thin on purpose: which level, which tiles,
/// where they go, the memory they take, when a failed tile is drawn again,
/// the zoom range, where the scan sits and which clause a finger touched
/// are the tested core's (KioskDocument, TileCache, TileRetry,
/// ContentInsets, KioskBundle).
@MainActor
public final class DocumentView: UIScrollView {
    /// The bundle shown. Setting it shows the new one: new tiles, overlays
    /// and cache, at the fitting zoom.
    public var bundle: KioskBundle {
        didSet { load() }
    }
    /// Called with the topmost clause under a tap, or nil for a tap beside
    /// every overlay.
    public var onClauseTap: ((Clause?) -> Void)?
    /// The menu entry whose clauses are shown and can be tapped; nil shows
    /// them all.
    public var category: ClauseCategory? {
        didSet { showOverlays() }
    }

    /// The app's delegate, if it sets one. The scroll view's own delegate
    /// stays the view's zooming proxy, which answers which view zooms (this
    /// delegate's `viewForZooming(in:)` is not asked: the scan zooms) and
    /// hands every other message to this one.
    public override var delegate: (any UIScrollViewDelegate)? {
        get { zoomProxy.app }
        set {
            zoomProxy.app = newValue === zoomProxy ? nil : newValue
            // UIScrollView notes which messages its delegate answers when
            // the delegate is set: set the proxy again so that it asks
            // again, now that the app's delegate is part of the answer.
            super.delegate = nil
            super.delegate = zoomProxy
        }
    }

    private let fixedBudget: Int?
    private let zoomProxy = ZoomingDelegate()
    private var content = UIView()
    private var tiles: TiledDocumentLayer?
    private var overlays: [(clause: Clause, layer: CAShapeLayer)] = []
    /// Set when a bundle is loaded: the next layout fits the scan.
    private var needsFit = true
    /// The screen size (pixels) the cache's budget was made for.
    private var budgetedScreen: CGSize?

    /// `cacheBudget` bytes of decoded tiles at most; by default what a
    /// full-screen view needs at any zoom on the screen the view is shown
    /// on (known once it is in a window; nothing is drawn before).
    public init(bundle: KioskBundle, cacheBudget: Int? = nil) {
        self.bundle = bundle
        fixedBudget = cacheBudget
        super.init(frame: .zero)
        zoomProxy.view = self
        super.delegate = zoomProxy
        showsVerticalScrollIndicator = false
        showsHorizontalScrollIndicator = false
        bouncesZoom = true
        // The insets are the view's own: the safe area is in them.
        contentInsetAdjustmentBehavior = .never
        addGestureRecognizer(UITapGestureRecognizer(target: self, action: #selector(tapped(_:))))
        NotificationCenter.default.addObserver(self, selector: #selector(memoryWarning), name: UIApplication.didReceiveMemoryWarningNotification, object: nil)
        if #available(iOS 17, *) {
            registerForTraitChanges([UITraitDisplayScale.self]) { (view: DocumentView, _: UITraitCollection) in
                view.screenChanged()
            }
        }
        load()
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) { fatalError("DocumentView is made in code") }

    public override func didMoveToWindow() {
        super.didMoveToWindow()
        screenChanged()
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        // Before iOS 17 there is no trait change registration: a scene
        // moved to another screen is laid out again, and seen here.
        applyContentsScale()
        updateBudget()
        let document = bundle.document
        let safeArea = ContentInsets(safeAreaInsets)
        guard let range = document.zoomRange(viewSize: bounds.size, safeArea: safeArea, displayScale: Double(traitCollection.displayScale)) else { return }
        let (fit, largest) = (CGFloat(range.lowerBound), CGFloat(range.upperBound))
        // A new scan, or a new fit (a rotation): back to the whole scan.
        let refit = needsFit || minimumZoomScale != fit
        if refit || maximumZoomScale != largest {
            minimumZoomScale = fit
            maximumZoomScale = largest
        }
        if refit {
            needsFit = false
            zoomScale = fit
        }
        centre(resetOffset: refit)
    }

    @objc private func tapped(_ tap: UITapGestureRecognizer) {
        let point = tap.location(in: content)  // master pixels: one point each
        onClauseTap?(bundle.clauses(at: point, showing: category).first)
    }

    @objc private func memoryWarning() { tiles?.cache.removeAll() }

    private func showOverlays() {
        let shown = Set(bundle.clauses(showing: category).map(\.id))
        for overlay in overlays { overlay.layer.isHidden = !shown.contains(overlay.clause.id) }
    }

    /// Builds the content for `bundle`: a content view the master's size,
    /// its tiled layer with a new cache and retry policy, the overlays.
    private func load() {
        // Unzoomed, so that the new content view's frame is its size.
        minimumZoomScale = min(minimumZoomScale, 1)
        maximumZoomScale = max(maximumZoomScale, 1)
        zoomScale = 1
        content.removeFromSuperview()
        content = UIView()
        overlays = []

        let document = bundle.document
        let size = CGSize(width: document.size.width, height: document.size.height)
        content.frame = CGRect(origin: .zero, size: size)
        let retry = TileRetry()
        let layer = TiledDocumentLayer(document: document, cache: TileCache(budget: fixedBudget ?? 0), retry: retry) { [weak self] rect, delay in
            // On a drawing thread: back to the main actor after the delay.
            Task { @MainActor [weak self] in
                try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
                self?.redraw(rect, for: retry)
            }
        }
        layer.frame = content.bounds
        content.layer.addSublayer(layer)
        tiles = layer
        budgetedScreen = nil
        for clause in bundle.clauses {
            let overlay = CAShapeLayer()
            let path = CGMutablePath()
            for r in clause.overlays { path.addRect(CGRect(x: r.x, y: r.y, width: r.width, height: r.height)) }
            overlay.path = path
            let rgba = clause.rgba
            overlay.fillColor = UIColor(red: CGFloat(rgba >> 24 & 0xFF) / 255, green: CGFloat(rgba >> 16 & 0xFF) / 255,
                                        blue: CGFloat(rgba >> 8 & 0xFF) / 255, alpha: CGFloat(rgba & 0xFF) / 255).cgColor
            content.layer.addSublayer(overlay)  // in clauses.json's order: a later clause lies on top
            overlays.append((clause, overlay))
        }
        addSubview(content)
        contentSize = size
        showOverlays()
        screenChanged()
        needsFit = true
        setNeedsLayout()
    }

    /// The screen's scale for the tiled layer and its size for the cache:
    /// when the view moves to a window and when the display scale changes.
    private func screenChanged() {
        applyContentsScale()
        updateBudget()
        setNeedsLayout()
    }

    /// The cache's budget from the screen the view's scene is on (not
    /// `UIScreen.main`, deprecated): its size in pixels, both orientations.
    private func updateBudget() {
        guard fixedBudget == nil, let tiles, let pixels = window?.windowScene?.screen.nativeBounds.size,
              pixels != budgetedScreen else { return }
        budgetedScreen = pixels
        tiles.cache.budget = bundle.document.tileBudget(screenPixels: pixels)
    }

    /// A layer the view makes itself is drawn at contentsScale 1 (half
    /// resolution on a Retina screen) until it is told the screen's.
    private func applyContentsScale() {
        guard let tiles, let scale = KioskDocument.layerContentsScale(displayScale: Double(traitCollection.displayScale)),
              tiles.contentsScale != CGFloat(scale) else { return }
        tiles.contentsScale = CGFloat(scale)
        tiles.setNeedsDisplay()
    }

    /// Centres the scan where it is smaller than the view, through the
    /// content insets (on layout and while zooming); after a fit, scrolls
    /// to its top left corner. The offset is left alone otherwise: a finger
    /// may pull it past the ends for the scroll view to bounce back.
    fileprivate func centre(resetOffset: Bool) {
        let insets = ContentInsets.centring(contentSize: contentSize, viewSize: bounds.size, safeArea: ContentInsets(safeAreaInsets))
        let edges = UIEdgeInsets(top: insets.top, left: insets.left, bottom: insets.bottom, right: insets.right)
        if contentInset != edges { contentInset = edges }
        if resetOffset {
            let offset = insets.clamp(CGPoint(x: -insets.left, y: -insets.top), contentSize: contentSize, viewSize: bounds.size)
            if contentOffset != offset { contentOffset = offset }
        }
    }

    fileprivate var zoomedView: UIView { content }

    /// A tile that failed is drawn again after the delay the retry policy
    /// gave, if the layer that asked is still the one shown.
    private func redraw(_ rect: CGRect, for retry: TileRetry) {
        guard let tiles, tiles.retry === retry else { return }
        tiles.setNeedsDisplay(rect)
    }
}

private extension ContentInsets {
    init(_ insets: UIEdgeInsets) {
        self.init(top: Double(insets.top), left: Double(insets.left), bottom: Double(insets.bottom), right: Double(insets.right))
    }
}

/// The scroll view's delegate whatever the app sets: answers which view
/// zooms (the scan; the app's delegate is not asked) and keeps the scan
/// centred while zooming, and hands every other message to the app's
/// delegate. The messages of UIScrollViewDelegate are handed on one by one,
/// so that none is left unanswered if the app's delegate goes away (UIKit
/// notes which messages a delegate answers when it is set); any other the
/// app's delegate answers goes through the Objective-C runtime's
/// forwarding: `responds(to:)` says yes to it, `forwardingTarget(for:)`
/// sends it there.
@MainActor
private final class ZoomingDelegate: NSObject, UIScrollViewDelegate {
    weak var view: DocumentView?
    /// Read by the runtime's forwarding, which is not isolated; set only on
    /// the main actor, by DocumentView.delegate.
    nonisolated(unsafe) weak var app: (any UIScrollViewDelegate)?

    func viewForZooming(in scrollView: UIScrollView) -> UIView? { view?.zoomedView }

    func scrollViewDidZoom(_ scrollView: UIScrollView) {
        view?.centre(resetOffset: false)
        app?.scrollViewDidZoom?(scrollView)
    }

    func scrollViewDidScroll(_ scrollView: UIScrollView) { app?.scrollViewDidScroll?(scrollView) }
    func scrollViewWillBeginDragging(_ scrollView: UIScrollView) { app?.scrollViewWillBeginDragging?(scrollView) }
    func scrollViewWillEndDragging(_ scrollView: UIScrollView, withVelocity velocity: CGPoint, targetContentOffset: UnsafeMutablePointer<CGPoint>) {
        app?.scrollViewWillEndDragging?(scrollView, withVelocity: velocity, targetContentOffset: targetContentOffset)
    }
    func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) {
        app?.scrollViewDidEndDragging?(scrollView, willDecelerate: decelerate)
    }
    func scrollViewWillBeginDecelerating(_ scrollView: UIScrollView) { app?.scrollViewWillBeginDecelerating?(scrollView) }
    func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) { app?.scrollViewDidEndDecelerating?(scrollView) }
    func scrollViewDidEndScrollingAnimation(_ scrollView: UIScrollView) { app?.scrollViewDidEndScrollingAnimation?(scrollView) }
    func scrollViewWillBeginZooming(_ scrollView: UIScrollView, with view: UIView?) { app?.scrollViewWillBeginZooming?(scrollView, with: view) }
    func scrollViewDidEndZooming(_ scrollView: UIScrollView, with view: UIView?, atScale scale: CGFloat) {
        app?.scrollViewDidEndZooming?(scrollView, with: view, atScale: scale)
    }
    // Not implemented by a delegate, it is taken as true.
    func scrollViewShouldScrollToTop(_ scrollView: UIScrollView) -> Bool { app?.scrollViewShouldScrollToTop?(scrollView) ?? true }
    func scrollViewDidScrollToTop(_ scrollView: UIScrollView) { app?.scrollViewDidScrollToTop?(scrollView) }
    func scrollViewDidChangeAdjustedContentInset(_ scrollView: UIScrollView) { app?.scrollViewDidChangeAdjustedContentInset?(scrollView) }

    nonisolated override func responds(to selector: Selector!) -> Bool {
        if super.responds(to: selector) { return true }
        return app?.responds(to: selector) ?? false
    }

    nonisolated override func forwardingTarget(for selector: Selector!) -> Any? {
        if let app, app.responds(to: selector) { return app }
        return super.forwardingTarget(for: selector)
    }
}

/// Draws the tiles CATiledLayer asks for, on its own threads: the core
/// chooses them for the rectangle and the scale of each request, and says
/// when to ask again for one that failed.
final class TiledDocumentLayer: CATiledLayer {
    let document: KioskDocument?
    let cache: TileCache<CGImage>
    let retry: TileRetry
    /// Marks `rect` as needing display after `delay` seconds; called on a
    /// drawing thread.
    let redraw: @Sendable (_ rect: CGRect, _ delay: Double) -> Void

    init(document: KioskDocument, cache: TileCache<CGImage>, retry: TileRetry, redraw: @escaping @Sendable (CGRect, Double) -> Void) {
        self.document = document
        self.cache = cache
        self.retry = retry
        self.redraw = redraw
        super.init()
        // One CATiledLayer level for each pyramid level, so each request's
        // scale is a power of two the core maps to a pyramid level.
        levelsOfDetail = document.levels.count
        levelsOfDetailBias = 2
        tileSize = CGSize(width: 512, height: 512)
        needsDisplayOnBoundsChange = true
    }

    // Core Animation copies layers (for presentation); the copy shares the
    // document, the cache and the retry policy.
    override init(layer: Any) {
        let other = layer as? TiledDocumentLayer
        document = other?.document
        cache = other?.cache ?? TileCache(budget: 0)
        retry = other?.retry ?? TileRetry()
        redraw = other?.redraw ?? { @Sendable _, _ in }
        super.init(layer: layer)
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) { fatalError("TiledDocumentLayer is made in code") }

    // Tiles appear at once; a fade would show the white behind them.
    override class func fadeDuration() -> CFTimeInterval { 0 }

    override func draw(in context: CGContext) {
        guard let document else { return }
        let rect = context.boundingBoxOfClipPath
        // Device pixels per master pixel, zoom and contents scale together:
        // a power of two times the contents scale.
        let scale = Double(hypot(context.ctm.a, context.ctm.b))
        for tile in document.tiles(covering: rect, bitmapScale: scale) {
            let image: CGImage
            do {
                image = try cache.tile(for: tile, load: Self.decode)
            } catch {
                // Left empty, CATiledLayer would never ask for it again.
                if let delay = retry.failed(tile.key, at: ProcessInfo.processInfo.systemUptime) { redraw(tile.frame, delay) }
                continue
            }
            retry.succeeded(tile.key)
            context.saveGState()
            // CGContext draws images bottom up; the layer's space is top down.
            context.translateBy(x: tile.frame.minX, y: tile.frame.maxY)
            context.scaleBy(x: 1, y: -1)
            context.draw(image, in: CGRect(origin: .zero, size: tile.frame.size))
            context.restoreGState()
        }
    }

    /// Decoded now, on this thread, not lazily at the first draw on the
    /// main one.
    static func decode(_ tile: TileRef) throws -> CGImage {
        guard let image = UIImage(contentsOfFile: tile.url.path)?.preparingForDisplay()?.cgImage else {
            throw KioskBundleError(path: tile.url.path, message: "is not a picture iOS can decode")
        }
        return image
    }
}
#endif
