import Foundation
import MCPackSchema
import Imaging
import ImagingTestSupport
@testable import MCPackInputs
@testable import MCPackKit
import Testing

/// The threshold between a visible change and re-encoding, measured on
/// generated pictures, and how visibly changed tiles group into areas.
@Suite struct TileComparisonTests {
    /// 256 x 256 px tiles of Gaussian noise, the worst case for JPEG: its
    /// error is largest on detail. Returns the block difference between the
    /// picture saved at `quality` and that saved again at the same quality,
    /// optionally retouched in between by `retouch`.
    static func largest(quality: Int, seed: Int, retouch: ((Image) throws -> Image)? = nil) throws -> Float {
        let first = try Image(data: Image.noise(width: 256, height: 256, bands: 3, seed: seed).jpegData(quality: quality))
        let edited = try retouch?(first) ?? first
        let second = try Image(data: edited.jpegData(quality: quality))
        return try first.blockDifference(to: second, block: TileComparison.block).largest
    }

    @Test(arguments: [75, 85, 90, 95])
    func reEncodingAtTheSameQualityStaysUnderTheThreshold(quality: Int) throws {
        for seed in [1, 2, 3] {
            let largest = try Self.largest(quality: quality, seed: seed)
            #expect(largest > 0, "saving again changed nothing: the test would prove nothing")
            #expect(largest < TileComparison.threshold, "quality \(quality), seed \(seed): \(largest)")
        }
    }

    @Test func aRetouchGoesOverIt() throws {
        // A 24 x 16 px patch of another colour: small, and what a retoucher leaves.
        let patched = try Self.largest(quality: 85, seed: 1) { image in
            try Image.assembled(width: 256, height: 256, pieces: [(image, 0, 0), (try Image.solid(width: 24, height: 16, ink: [150, 110, 90]), 100, 100)])
        }
        #expect(patched > TileComparison.threshold * 2)
    }

    @Test func touchingTilesMakeOneArea() {
        let geometry = PyramidGeometry(width: 1000, height: 1000, tileSize: 100, overlap: 0)
        let level = geometry.maxLevel
        let tiles = [(1, 1), (2, 2), (7, 7)].map { TileName(level: level, column: $0.0, row: $0.1) }
        let blocks: [TileName: [PixelRect]] = [
            tiles[0]: [PixelRect(x: 180, y: 180, width: 8, height: 8)],
            tiles[1]: [PixelRect(x: 200, y: 200, width: 8, height: 8), PixelRect(x: 240, y: 216, width: 8, height: 8)],
        ]
        let regions = TileComparison.regions(tiles, blocks: blocks, geometry: geometry)
        #expect(regions == [
            ChangedRegion(x: 180, y: 180, width: 68, height: 44, tiles: ["1_1", "2_2"]),
            // No changed block recorded: the whole tile.
            ChangedRegion(x: 700, y: 700, width: 100, height: 100, tiles: ["7_7"]),
        ])
    }
}
