import Foundation
import Imaging
import MCPackReader
import Testing

/// The tiles the reader chooses, decoded and put at their frames, give the
/// master cropped and scaled there: on bundles mcpack builds, both layouts.
@Suite struct StitchTests {
    /// Mean absolute difference per band (0...255) allowed between the
    /// stitched view and the master made smaller the way libvips makes each
    /// level: what JPEG at quality 90 changes, most at the coarse levels,
    /// where the master's detail is a pixel wide. The same tiles one pixel
    /// out of place are far above it (checked below).
    static let tolerance = 4.0
    /// The same for the mean of any 8 x 8 px block: JPEG's noise averages
    /// out in a block, a tile left out of a large view (which moves the
    /// whole mean little) does not.
    static let blockTolerance = 6.0

    static let views: [CGRect] = [
        CGRect(x: 0, y: 0, width: 1001, height: 701),
        CGRect(x: 120, y: 90, width: 400, height: 300),
        CGRect(x: 250, y: 250, width: 8, height: 8),
        CGRect(x: 500, y: 120, width: 501, height: 581),
        CGRect(x: 700, y: 500, width: 600, height: 600),  // past the corner
        CGRect(x: 126, y: 0, width: 127, height: 701),
    ]
    static let scales = [2.0, 1, 0.75, 0.5, 0.3, 0.25, 0.125, 0.05, 0.004]

    @Test(arguments: ["dz", "iiif3"])
    func theChosenTilesStitchToTheMaster(layout: String) async throws {
        let fixture = try await (layout == "dz" ? ReaderFixture.deepZoom : ReaderFixture.iiif).value
        let bundle = try fixture.open()
        let levels = try Self.masterLevels(fixture)
        for view in Self.views {
            for scale in Self.scales {
                let stitched = try Self.stitch(bundle.document, view: view, scale: scale)
                let expected = Self.masterView(levels, bundle.document, view: view, level: stitched.level)
                let pixels = try Pixels(stitched.image)
                let difference = pixels.meanDifference(to: expected), block = pixels.largestBlockDifference(to: expected)
                #expect(difference.allSatisfy { $0 < Self.tolerance } && block < Self.blockTolerance,
                        "\(layout): view \(view) at scale \(scale), level \(stitched.level.level): \(difference), a block \(block)")
            }
        }
    }

    /// The comparison can fail: at every level, the same tiles one pixel
    /// out of place, or one tile left out, are far from the master.
    @Test(arguments: ["dz", "iiif3"])
    func aMisplacedOrMissingTileIsSeen(layout: String) async throws {
        let fixture = try await (layout == "dz" ? ReaderFixture.deepZoom : ReaderFixture.iiif).value
        let bundle = try fixture.open()
        let levels = try Self.masterLevels(fixture)
        let view = CGRect(x: 0, y: 0, width: 1001, height: 701)
        for scale in [1.0, 0.5, 0.25, 0.125, 0.0625] {
            let level = bundle.document.level(forScale: scale)
            let expected = Self.masterView(levels, bundle.document, view: view, level: level)
            let shifted = try Pixels(Self.stitch(bundle.document, view: view, scale: scale, shift: 1).image).meanDifference(to: expected)
            #expect(shifted.max()! > 2 * Self.tolerance, "shifted at scale \(scale): \(shifted)")
            let missing = try Pixels(Self.stitch(bundle.document, view: view, scale: scale, dropping: 1).image).largestBlockDifference(to: expected)
            #expect(missing > 2 * Self.blockTolerance, "a tile left out at scale \(scale): a block \(missing)")
        }
    }

    /// The master and each level made from it as libvips makes a pyramid
    /// (2 x 2 means), finest first: the master "scaled there" by the same
    /// arithmetic, so that what is left is JPEG's noise.
    static func masterLevels(_ fixture: ReaderFixture) throws -> [Pixels] {
        var levels = [try Pixels(Image(contentsOf: fixture.masterPath))]
        while levels.last!.width > 1 || levels.last!.height > 1 { levels.append(levels.last!.halved()) }
        return levels
    }

    /// The view's part of the chosen level, in the level's pixels: the
    /// rectangle of level pixels the view touches.
    static func levelRegion(_ document: KioskDocument, view: CGRect, level: TileLevel) -> (x: Int, y: Int, width: Int, height: Int) {
        let visible = view.intersection(CGRect(x: 0, y: 0, width: document.size.width, height: document.size.height))
        let d = Double(level.downsample)
        let x0 = Int((visible.minX / d).rounded(.down)), y0 = Int((visible.minY / d).rounded(.down))
        let x1 = min(Int((visible.maxX / d).rounded(.up)), level.width), y1 = min(Int((visible.maxY / d).rounded(.up)), level.height)
        return (x0, y0, x1 - x0, y1 - y0)
    }

    /// The chosen tiles decoded and placed as the app places them: at
    /// their frames, in the chosen level's pixels (the app then scales the
    /// whole by scale / level scale). `shift` moves every tile; `dropping`
    /// leaves that many out.
    static func stitch(_ document: KioskDocument, view: CGRect, scale: Double, shift: Int = 0, dropping: Int = 0) throws -> (image: Image, level: TileLevel) {
        let level = document.level(forScale: scale)
        let region = levelRegion(document, view: view, level: level)
        let tiles = document.tiles(covering: view, scale: scale).dropFirst(dropping)
        let pieces = try tiles.map { tile -> (image: Image, left: Int, top: Int) in
            let image = try Image(contentsOf: tile.url.path)
            #expect(image.width == tile.pixelSize.width && image.height == tile.pixelSize.height, "\(tile.url.lastPathComponent)")
            let d = Double(level.downsample)
            // The frame, back in level pixels, must be the picture's own
            // size, but for the rounded-up last pixel of a level.
            #expect(abs(tile.frame.width / d - Double(image.width)) < 1 && abs(tile.frame.height / d - Double(image.height)) < 1)
            return (image, Int(tile.frame.minX / d) - region.x + shift, Int(tile.frame.minY / d) - region.y + shift)
        }
        return (try Image.assembled(width: region.width, height: region.height, pieces: pieces), level)
    }

    /// The master at the chosen level, cropped to the same level pixels.
    static func masterView(_ levels: [Pixels], _ document: KioskDocument, view: CGRect, level: TileLevel) -> Pixels {
        let region = levelRegion(document, view: view, level: level)
        let scaled = levels[level.downsample.trailingZeroBitCount]
        return scaled.cropped(x: region.x, y: region.y, width: region.width, height: region.height)
    }
}
