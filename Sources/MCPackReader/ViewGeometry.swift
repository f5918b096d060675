import Foundation

// The arithmetic of DocumentView (UIKit, which only Apple's compilers see)
// kept here, where it is tested: the layer's contents scale, the zoom
// range, and where the scan sits in the view. A view's sizes are in points;
// the scroll view's content is the master at one point a pixel, scaled by
// the zoom.

extension KioskDocument {
    /// Device pixels a master pixel takes at the largest zoom.
    public static let largestMagnification = 4.0

    /// The `contentsScale` a CATiledLayer the view makes itself needs: the
    /// screen's (the view's `traitCollection.displayScale`), which UIKit
    /// sets only on a view's own layer. Nil while it is unknown (a trait
    /// collection's display scale is 0 until the view is on a screen): the
    /// layer keeps the one it has.
    public static func layerContentsScale(displayScale: Double) -> Double? {
        displayScale.isFinite && displayScale > 0 ? displayScale : nil
    }

    /// The zoom scales (points per master pixel) a view of `viewSize`
    /// points offers: from the whole scan fitting inside the safe area to
    /// `largestMagnification` device pixels a master pixel on a screen of
    /// `displayScale` (1 when unknown), or the fit when that is larger.
    /// Nil for a view or a scan with no area.
    public func zoomRange(viewSize: CGSize, safeArea: ContentInsets = .zero, displayScale: Double) -> ClosedRange<Double>? {
        let width = Double(viewSize.width) - safeArea.left - safeArea.right
        let height = Double(viewSize.height) - safeArea.top - safeArea.bottom
        guard width > 0, height > 0, size.width > 0, size.height > 0 else { return nil }
        let fit = min(width / Double(size.width), height / Double(size.height))
        let screen = Self.layerContentsScale(displayScale: displayScale) ?? 1
        return fit...max(fit, Self.largestMagnification / screen)
    }
}

/// A scroll view's content insets, in points (what `UIEdgeInsets` holds,
/// named here so that the arithmetic runs where UIKit does not).
public struct ContentInsets: Sendable, Equatable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static let zero = ContentInsets(top: 0, left: 0, bottom: 0, right: 0)

    /// The insets that centre content of `contentSize` (the scroll view's
    /// `contentSize`: the scan at the current zoom) in the safe area of a
    /// view of `viewSize`, along each axis where it is smaller than that
    /// area; along an axis where it is not, the safe area's insets alone,
    /// so it scrolls from edge to edge of the safe area.
    public static func centring(contentSize: CGSize, viewSize: CGSize, safeArea: ContentInsets = .zero) -> ContentInsets {
        let spareWidth = Double(viewSize.width) - safeArea.left - safeArea.right - Double(contentSize.width)
        let spareHeight = Double(viewSize.height) - safeArea.top - safeArea.bottom - Double(contentSize.height)
        let x = max(0, spareWidth / 2), y = max(0, spareHeight / 2)
        return ContentInsets(top: safeArea.top + y, left: safeArea.left + x, bottom: safeArea.bottom + y, right: safeArea.right + x)
    }

    /// `offset` (a scroll view's `contentOffset`) moved to the nearest one
    /// these insets allow for content of `contentSize` in a view of
    /// `viewSize`: from -left to contentWidth + right - viewWidth across,
    /// and the same down; where the content and insets are narrower than
    /// the view, -left (-top).
    public func clamp(_ offset: CGPoint, contentSize: CGSize, viewSize: CGSize) -> CGPoint {
        func clamp(_ value: Double, low: Double, high: Double) -> Double { min(max(value, low), max(low, high)) }
        return CGPoint(x: clamp(Double(offset.x), low: -left, high: Double(contentSize.width) + right - Double(viewSize.width)),
                       y: clamp(Double(offset.y), low: -top, high: Double(contentSize.height) + bottom - Double(viewSize.height)))
    }
}
