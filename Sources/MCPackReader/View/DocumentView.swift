#if canImport(UIKit)
import MCPackSchema
import UIKit

/// The scan, zoomable, with the clause overlays in their colours: a
/// scroll view over a content view the master's size in points (one point
/// a master pixel), tiles drawn by a CATiledLayer, which asks only for
/// what is in view at the zoom. Thin on purpose: which level, which tiles,
/// where they go, the memory they take and which clause a finger touched
/// are the tested core's (KioskDocument, TileCache, KioskBundle).
@MainActor
public final class DocumentView: UIScrollView, UIScrollViewDelegate {
    public let bundle: KioskBundle
    /// Called with the topmost clause under a tap, or nil for a tap beside
    /// every overlay.
    public var onClauseTap: ((Clause?) -> Void)?
    /// The menu entry whose clauses are shown and can be tapped; nil shows
    /// them all.
    public var category: ClauseCategory? {
        didSet { showOverlays() }
    }

    private let content = UIView()
    private let tiles: TiledDocumentLayer
    private var overlays: [(clause: Clause, layer: CAShapeLayer)] = []

    /// `cacheBudget` bytes of decoded tiles at most; by default what a
    /// full-screen view needs at any zoom on this screen.
    public init(bundle: KioskBundle, cacheBudget: Int? = nil) {
        self.bundle = bundle
        let size = CGSize(width: bundle.document.size.width, height: bundle.document.size.height)
        let screen = UIScreen.main.nativeBounds.size
        let budget = cacheBudget ?? bundle.document.decodedBytes(viewport: CGSize(width: max(screen.width, screen.height), height: max(screen.width, screen.height)))
        tiles = TiledDocumentLayer(document: bundle.document, cache: TileCache(budget: budget))
        super.init(frame: .zero)
        delegate = self
        showsVerticalScrollIndicator = false
        showsHorizontalScrollIndicator = false
        bouncesZoom = true
        content.frame = CGRect(origin: .zero, size: size)
        tiles.frame = content.bounds
        content.layer.addSublayer(tiles)
        for clause in bundle.clauses {
            let layer = CAShapeLayer()
            let path = CGMutablePath()
            for r in clause.overlays { path.addRect(CGRect(x: r.x, y: r.y, width: r.width, height: r.height)) }
            layer.path = path
            let rgba = clause.rgba
            layer.fillColor = UIColor(red: CGFloat(rgba >> 24 & 0xFF) / 255, green: CGFloat(rgba >> 16 & 0xFF) / 255,
                                      blue: CGFloat(rgba >> 8 & 0xFF) / 255, alpha: CGFloat(rgba & 0xFF) / 255).cgColor
            content.layer.addSublayer(layer)  // in clauses.json's order: a later clause lies on top
            overlays.append((clause, layer))
        }
        addSubview(content)
        contentSize = size
        addGestureRecognizer(UITapGestureRecognizer(target: self, action: #selector(tapped(_:))))
        NotificationCenter.default.addObserver(self, selector: #selector(memoryWarning), name: UIApplication.didReceiveMemoryWarningNotification, object: nil)
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) { fatalError("DocumentView is made in code") }

    public override func layoutSubviews() {
        super.layoutSubviews()
        // The whole scan fits at the smallest zoom; a master pixel may take
        // four screen pixels at the largest.
        let size = bundle.document.size
        guard bounds.width > 0, size.width > 0 else { return }
        let fit = min(bounds.width / CGFloat(size.width), bounds.height / CGFloat(size.height))
        if minimumZoomScale != fit {
            minimumZoomScale = fit
            maximumZoomScale = max(fit, 4 / max(window?.screen.scale ?? 2, 1))
            zoomScale = fit
        }
    }

    public func viewForZooming(in scrollView: UIScrollView) -> UIView? { content }

    @objc private func tapped(_ tap: UITapGestureRecognizer) {
        let point = tap.location(in: content)  // master pixels: one point each
        onClauseTap?(bundle.clauses(at: point, showing: category).first)
    }

    @objc private func memoryWarning() { tiles.cache.removeAll() }

    private func showOverlays() {
        let shown = Set(bundle.clauses(showing: category).map(\.id))
        for overlay in overlays { overlay.layer.isHidden = !shown.contains(overlay.clause.id) }
    }
}

/// Draws the tiles CATiledLayer asks for, on its own threads: the core
/// chooses them for the rectangle and the scale of each request.
final class TiledDocumentLayer: CATiledLayer {
    let document: KioskDocument?
    let cache: TileCache<CGImage>

    init(document: KioskDocument, cache: TileCache<CGImage>) {
        self.document = document
        self.cache = cache
        super.init()
        // One CATiledLayer level for each pyramid level, so each request's
        // scale is a power of two the core maps to a pyramid level.
        levelsOfDetail = document.levels.count
        levelsOfDetailBias = 2
        tileSize = CGSize(width: 512, height: 512)
        // Tiles appear at once; a fade would show the white behind them.
        needsDisplayOnBoundsChange = true
    }

    // Core Animation copies layers (for presentation); the copy shares the
    // document and the cache.
    override init(layer: Any) {
        let other = layer as? TiledDocumentLayer
        document = other?.document
        cache = other?.cache ?? TileCache(budget: 0)
        super.init(layer: layer)
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) { fatalError("TiledDocumentLayer is made in code") }

    override class func fadeDuration() -> CFTimeInterval { 0 }

    override func draw(in context: CGContext) {
        guard let document else { return }
        let rect = context.boundingBoxOfClipRect
        // Device pixels per master pixel, zoom and screen scale together.
        let scale = Double(hypot(context.ctm.a, context.ctm.b))
        for tile in document.tiles(covering: rect, scale: scale) {
            guard let image = try? cache.tile(for: tile, load: Self.decode) else { continue }
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
