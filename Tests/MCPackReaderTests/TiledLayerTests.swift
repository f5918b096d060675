import Foundation
import MCPackReader
import MCPackSchema
import Testing

/// What DocumentView's CATiledLayer is given: its contents scale, and the
/// pyramid level for each request's scale (the CTM in draw(in:), a power
/// of two times the contents scale).
@Suite struct TiledLayerTests {
    static let documents = [GeometryTests.deepZoom, GeometryTests.iiif]

    // MARK: Contents scale

    /// A layer the view makes itself has contentsScale 1 until it is set:
    /// it takes the screen's display scale, and keeps its own while the
    /// display scale is unknown (0, before the view is on a screen).
    @Test func theLayerTakesTheScreensScale() {
        #expect(KioskDocument.layerContentsScale(displayScale: 2) == 2)
        #expect(KioskDocument.layerContentsScale(displayScale: 3) == 3)
        #expect(KioskDocument.layerContentsScale(displayScale: 1) == 1)
        #expect(KioskDocument.layerContentsScale(displayScale: 0) == nil)
        #expect(KioskDocument.layerContentsScale(displayScale: -2) == nil)
        #expect(KioskDocument.layerContentsScale(displayScale: .nan) == nil)
        #expect(KioskDocument.layerContentsScale(displayScale: .infinity) == nil)
    }

    /// On a Retina iPad (2048 x 1536 pixels, 1024 x 768 points) at the
    /// fitting zoom, a master pixel takes 2 x zoom device pixels: a layer at
    /// the screen's scale asks for a level with at least that many, a layer
    /// left at 1.0 (the bug) for one with half as many each way.
    @Test(arguments: TiledLayerTests.documents)
    func aLayerAtTheScreensScaleAsksForEveryPixelTheScreenShows(document: KioskDocument) throws {
        let zoom = try #require(document.zoomRange(viewSize: CGSize(width: 1024, height: 768), displayScale: 2)).lowerBound
        let onScreen = 2 * zoom
        let retina = document.level(forBitmapScale: try #require(KioskDocument.layerContentsScale(displayScale: 2)) * zoom)
        #expect(retina.scale >= onScreen)
        let unset = document.level(forBitmapScale: 1 * zoom)
        #expect(unset.scale < onScreen)
        #expect(unset.scale * 2 == retina.scale)
    }

    // MARK: The level for a request

    /// Each power of two is the scale of a level: that level is drawn, even
    /// when the scale was computed with a rounding error either way.
    @Test(arguments: TiledLayerTests.documents)
    func aPowerOfTwoDrawsTheLevelOfThatScale(document: KioskDocument) {
        for level in document.levels {
            #expect(document.level(forBitmapScale: level.scale) == level, "level \(level.level)")
            #expect(document.level(forBitmapScale: level.scale * (1 + 1e-12)) == level)
            #expect(document.level(forBitmapScale: level.scale * (1 - 1e-12)) == level)
        }
        // 34,000 px: 2^-k for k in 0...16 are the Deep Zoom levels 16...0.
        if document.kind == .deepZoom {
            for k in 0...16 {
                #expect(document.level(forBitmapScale: pow(2, -Double(k))).level == 16 - k)
            }
        }
    }

    /// Between two levels' scales, the finer one: the coarser would give
    /// the request fewer pixels than it asks for.
    @Test(arguments: TiledLayerTests.documents)
    func aScaleBetweenLevelsDrawsTheFinerOne(document: KioskDocument) {
        for (coarser, finer) in zip(document.levels, document.levels.dropFirst()) {
            for scale in [coarser.scale * 1.0001, (coarser.scale * finer.scale).squareRoot(), finer.scale * 0.9999] {
                #expect(document.level(forBitmapScale: scale) == finer, "scale \(scale)")
            }
        }
    }

    /// Beyond full size, the full level, magnified; below the coarsest
    /// level, the coarsest.
    @Test(arguments: TiledLayerTests.documents)
    func beyondTheEndsTheEndLevels(document: KioskDocument) {
        for scale in [1.0, 1.0000001, 1.5, 2, 3, 4, 8, 1e6] {
            #expect(document.level(forBitmapScale: scale) == document.fullLevel, "scale \(scale)")
        }
        #expect(document.level(forBitmapScale: document.levels[0].scale / 2) == document.levels[0])
        #expect(document.level(forBitmapScale: 1e-12) == document.levels[0])
    }

    /// The continuous-zoom rule (`level(forScale:)`, OpenSeadragon's) at a
    /// power of two picks the next finer level, twice the pixels each way;
    /// it stays as it was for its other callers.
    @Test(arguments: TiledLayerTests.documents)
    func theContinuousZoomRuleWouldDrawTheNextFinerLevel(document: KioskDocument) {
        for level in document.levels.dropLast() {
            let bitmap = document.level(forBitmapScale: level.scale), continuous = document.level(forScale: level.scale)
            #expect(bitmap == level)
            #expect(continuous.scale == 2 * level.scale, "level \(level.level)")
        }
        #expect(document.level(forScale: 1) == document.fullLevel)
        #expect(document.level(forScale: 0.25).scale == 0.5)
    }

    /// A request is CATiledLayer's tile: 512 x 512 device pixels at a power
    /// of two scale s, 512 / s master pixels each way, on a grid of that.
    /// With 256 px IIIF tiles, the level of scale s has 256 / s master
    /// pixels a tile: the request decodes 2 x 2 whole tiles, exactly its
    /// own 512 x 512 pixels; the continuous-zoom rule decodes 4 x 4 of the
    /// level twice as fine, four times as many.
    @Test func aRequestDecodesItsOwnPixelsNotFourTimesThem() {
        let document = GeometryTests.iiif
        for k in 1...5 {
            let s = pow(2, -Double(k)), side = 512 / s
            let request = CGRect(x: side, y: 0, width: side, height: side)  // inside the scan
            let drawn = document.tiles(covering: request, bitmapScale: s)
            #expect(drawn.count == 4)
            #expect(drawn.reduce(0) { $0 + $1.decodedBytes } == 512 * 512 * KioskDocument.bytesPerPixel, "scale \(s)")
            let continuous = document.tiles(covering: request, scale: s)
            #expect(continuous.count == 16)
            #expect(continuous.reduce(0) { $0 + $1.decodedBytes } == 4 * 512 * 512 * KioskDocument.bytesPerPixel)
        }
    }

    /// For any request CATiledLayer makes (a power of two times a contents
    /// scale of 1, 2 or 3) and for any scale at all: the level drawn has at
    /// least the pixels asked for (full size aside), the next coarser one
    /// would not, so it holds less than twice them each way; and it never
    /// decodes more than the continuous-zoom rule's level would. (The two
    /// rules differ only at the powers of two, which are what a layer at
    /// contents scale 1 or 2 asks for.)
    @Test(arguments: TiledLayerTests.documents)
    func noRequestDecodesMoreThanItNeeds(document: KioskDocument) {
        var random = SeededRandom(seed: 512)
        let coarsest = document.levels[0].scale
        for i in 0..<600 {
            let scale = i % 3 == 2
                ? pow(2, Double(random.next(in: -16_000...2_000)) / 1000)
                : Double(random.next(in: 1...3)) * pow(2, Double(random.next(in: -17...2)))
            let level = document.level(forBitmapScale: scale)
            if scale <= 1 {
                #expect(level.scale >= scale * (1 - 1e-9), "scale \(scale)")
            } else {
                #expect(level == document.fullLevel)
            }
            if let index = document.levels.firstIndex(of: level), index > 0 {
                #expect(document.levels[index - 1].scale < scale, "scale \(scale)")
            }
            if scale >= coarsest, scale <= 1 {
                #expect(level.scale < 2 * scale * (1 + 1e-9), "scale \(scale)")
            }
            // A request inside the scan (CATiledLayer asks for none beyond
            // the layer's bounds; a sliver at an edge meets partial tiles).
            let side = 512 / scale
            let x = Double(random.next(in: 0...max(0, 34_000 - Int(side.rounded(.up)))))
            let y = Double(random.next(in: 0...max(0, 24_000 - Int(side.rounded(.up)))))
            let request = CGRect(x: x, y: y, width: side, height: side)
            let continuousLevel = document.level(forScale: scale)
            #expect(level.scale <= continuousLevel.scale)
            guard continuousLevel.columns * continuousLevel.rows <= 20_000 else { continue }
            let drawn = document.tiles(covering: request, bitmapScale: scale).reduce(0) { $0 + $1.decodedBytes }
            let continuous = document.tiles(covering: request, scale: scale).reduce(0) { $0 + $1.decodedBytes }
            #expect(drawn <= continuous, "scale \(scale), request \(request)")
        }
    }
}
