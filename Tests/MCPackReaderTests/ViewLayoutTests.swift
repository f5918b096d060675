import Foundation
import MCPackReader
import MCPackSchema
import Testing

/// Where DocumentView puts the scan: the zoom range, and the insets that
/// centre the scan when it is smaller than the view (at the fitting zoom
/// it is, along one axis at least).
@Suite struct ViewLayoutTests {
    static let document = GeometryTests.deepZoom  // 34,000 x 24,000
    static let iPad = CGSize(width: 1024, height: 768)  // points, landscape

    @Test func theZoomRangeRunsFromTheFitToFourDevicePixelsAMasterPixel() throws {
        let document = Self.document
        let range = try #require(document.zoomRange(viewSize: Self.iPad, displayScale: 2))
        #expect(range.lowerBound == 1024.0 / 34_000)  // the width is what fits
        #expect(range.upperBound == 2)  // 4 device pixels on a 2x screen
        #expect(document.zoomRange(viewSize: Self.iPad, displayScale: 1)?.upperBound == 4)
        #expect(document.zoomRange(viewSize: Self.iPad, displayScale: 3)?.upperBound == 4.0 / 3)
        // Unknown display scale (0): as at 1x, until the view is on a screen.
        #expect(document.zoomRange(viewSize: Self.iPad, displayScale: 0)?.upperBound == 4)
        // Portrait: still the width.
        #expect(document.zoomRange(viewSize: CGSize(width: 768, height: 1024), displayScale: 2)?.lowerBound == 768.0 / 34_000)
        // The safe area is what the scan fits in.
        let safe = ContentInsets(top: 24, left: 0, bottom: 20, right: 0)
        #expect(document.zoomRange(viewSize: Self.iPad, safeArea: safe, displayScale: 2)?.lowerBound == 1024.0 / 34_000)
        let narrow = ContentInsets(top: 0, left: 100, bottom: 0, right: 100)
        #expect(document.zoomRange(viewSize: Self.iPad, safeArea: narrow, displayScale: 2)?.lowerBound == 824.0 / 34_000)
        // No area, no range.
        #expect(document.zoomRange(viewSize: .zero, displayScale: 2) == nil)
        #expect(document.zoomRange(viewSize: CGSize(width: 100, height: 100), safeArea: narrow, displayScale: 2) == nil)
        // A scan smaller than the screen fits magnified: no zooming further.
        let small = KioskDocument(deepZoom: DeepZoomDescriptor(tileSize: 254, overlap: 1, format: "jpeg", width: 100, height: 50),
                                  tilesFolder: GeometryTests.folder)
        let fixed = try #require(small.zoomRange(viewSize: Self.iPad, displayScale: 2))
        #expect(fixed.lowerBound == 10.24 && fixed.upperBound == 10.24)
    }

    /// At the fitting zoom the scan fills the width and is shorter than the
    /// view: the insets put it in the middle, top and bottom alike (the bug
    /// was no insets, the scan against the top).
    @Test func theFittedScanIsCentred() throws {
        let zoom = try #require(Self.document.zoomRange(viewSize: Self.iPad, displayScale: 2)).lowerBound
        let content = CGSize(width: 34_000 * zoom, height: 24_000 * zoom)
        let insets = ContentInsets.centring(contentSize: content, viewSize: Self.iPad)
        let spare = 768 - Double(content.height)
        #expect(abs(insets.top - spare / 2) < 1e-9 && insets.bottom == insets.top)
        #expect(insets.left == 0 && insets.right == 0)
        #expect(insets != .zero)
        // The offset that shows it: the scan's top edge at insets.top.
        let offset = insets.clamp(.zero, contentSize: content, viewSize: Self.iPad)
        #expect(offset.x == 0 && abs(Double(offset.y) + insets.top) < 1e-9)
        // Zoomed in past the view both ways: no insets, scrolls edge to edge.
        let zoomed = CGSize(width: 34_000 * 0.5, height: 24_000 * 0.5)
        #expect(ContentInsets.centring(contentSize: zoomed, viewSize: Self.iPad) == .zero)
        #expect(ContentInsets.zero.clamp(CGPoint(x: 50_000, y: -10), contentSize: zoomed, viewSize: Self.iPad)
                    == CGPoint(x: 17_000 - 1024, y: 0))
    }

    /// For any content, view and safe area: along an axis where the content
    /// is smaller than the safe area, equal spare space either side of it
    /// within the safe area, and one offset only, the centred one; along an
    /// axis where it is not, the safe area's insets, and offsets from one
    /// end to the other.
    @Test func everyScanIsCentredWithinTheSafeArea() {
        var random = SeededRandom(seed: 5)
        for _ in 0..<500 {
            let view = CGSize(width: Double(random.next(in: 200...3000)), height: Double(random.next(in: 200...3000)))
            let safe = ContentInsets(top: Double(random.next(in: 0...40)), left: Double(random.next(in: 0...40)),
                                     bottom: Double(random.next(in: 0...40)), right: Double(random.next(in: 0...40)))
            let content = CGSize(width: Double(random.next(in: 1...6000)) / 1.7, height: Double(random.next(in: 1...6000)) / 1.3)
            let insets = ContentInsets.centring(contentSize: content, viewSize: view, safeArea: safe)
            let offset = insets.clamp(CGPoint(x: Double(random.next(in: -9000...9000)), y: Double(random.next(in: -9000...9000))),
                                      contentSize: content, viewSize: view)
            for (spare, low, high, safeLow, safeHigh, size, at, viewSide) in [
                (Double(view.width) - safe.left - safe.right - Double(content.width), insets.left, insets.right, safe.left, safe.right,
                 Double(content.width), Double(offset.x), Double(view.width)),
                (Double(view.height) - safe.top - safe.bottom - Double(content.height), insets.top, insets.bottom, safe.top, safe.bottom,
                 Double(content.height), Double(offset.y), Double(view.height)),
            ] {
                if spare > 0 {
                    #expect(abs((low - safeLow) - (high - safeHigh)) < 1e-9)
                    #expect(abs(low + size + high - viewSide) < 1e-9)
                    #expect(abs(at + low) < 1e-9)  // on screen from `low` to `low + size`
                } else {
                    #expect(low == safeLow && high == safeHigh)
                    #expect(at >= -low - 1e-9 && at <= size + high - viewSide + 1e-9)
                }
            }
        }
    }
}
