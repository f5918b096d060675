import Foundation
import MCPackReader
import MCPackSchema
import Testing

/// The level chosen for a scale and the tiles chosen for a view, on
/// descriptors alone (no files): the arithmetic OpenSeadragon does.
@Suite struct GeometryTests {
    static let folder = URL(fileURLWithPath: "/bundle/data/document/scan_files")
    static let deepZoom = KioskDocument(deepZoom: DeepZoomDescriptor(tileSize: 254, overlap: 1, format: "jpeg", width: 34_000, height: 24_000),
                                        tilesFolder: folder)
    static let iiif = KioskDocument(iiif: IIIFLayout(width: 34_000, height: 24_000, tileSize: 256, ext: "jpg"),
                                    serviceFolder: URL(fileURLWithPath: "/bundle/data/document/scan"))

    @Test func deepZoomLevelsAreTheOnesLibvipsWrites() {
        let document = Self.deepZoom
        let geometry = PyramidGeometry(width: 34_000, height: 24_000, tileSize: 254, overlap: 1)
        #expect(document.levels.count == 17)  // ceil(log2(34,000)) = 16, and level 0
        #expect(document.fullLevel.level == 16)
        #expect(document.fullLevel.downsample == 1)
        for level in document.levels {
            let size = geometry.size(ofLevel: level.level), tiles = geometry.tiles(ofLevel: level.level)
            #expect((level.width, level.height) == size)
            #expect((level.columns, level.rows) == tiles)
            #expect(level.downsample == 1 << (16 - level.level))
        }
    }

    /// OpenSeadragon's highest level for a zoom is floor(log2(2^maxLevel *
    /// scale / minPixelRatio)) with minPixelRatio 0.5: at 0.5 the full level
    /// (its pixels take half a screen pixel), just below 0.5 the next.
    @Test func theLevelIsOpenSeadragons() {
        let document = Self.deepZoom
        #expect(document.level(forScale: 1).level == 16)
        #expect(document.level(forScale: 0.5).level == 16)
        #expect(document.level(forScale: 0.5000001).level == 16)
        #expect(document.level(forScale: 0.4999).level == 15)
        #expect(document.level(forScale: 0.25).level == 15)
        #expect(document.level(forScale: 0.2499).level == 14)
        #expect(document.level(forScale: 0.3).level == 15)
        for scale in [1.0, 0.7, 0.5, 0.33, 0.25, 0.1, 0.01] {
            let osd = min(16, Int((log2(pow(2, 16) * scale / 0.5) + 1e-9).rounded(.down)))
            #expect(document.level(forScale: scale).level == osd, "scale \(scale)")
        }
        // A zoom computed in floating point does not tip into the coarser level.
        #expect(document.level(forScale: 0.25 * (1 - 1e-12)).level == 15)
        // Beyond full size, the full level, magnified.
        #expect(document.level(forScale: 3).level == 16)
        // The whole scan on a 1024 px screen: 0.03 px a master pixel.
        #expect(document.level(forScale: 1024.0 / 34_000).downsample == 32)
        #expect(document.level(forScale: 1e-9).level == 0)
    }

    @Test func deepZoomFramesAreTheLevelFramesInMasterPixels() throws {
        let document = Self.deepZoom
        let geometry = PyramidGeometry(width: 34_000, height: 24_000, tileSize: 254, overlap: 1)
        let level = document.levels[14]
        let d = level.downsample
        #expect(d == 4)
        // Inside: [c*T - overlap, (c+1)*T + overlap) at the level, times 4.
        let inner = document.tile(level: level, column: 3, row: 2)
        #expect(inner.frame == CGRect(x: (3 * 254 - 1) * 4, y: (2 * 254 - 1) * 4, width: 256 * 4, height: 256 * 4))
        #expect(inner.pixelSize == PixelSize(width: 256, height: 256))
        #expect(inner.url.path == "/bundle/data/document/scan_files/14/3_2.jpeg")
        // The first tile has no overlap on its outer sides.
        #expect(document.tile(level: level, column: 0, row: 0).frame == CGRect(x: 0, y: 0, width: 255 * 4, height: 255 * 4))
        // The last column: 34,000 / 4 = 8,500 px, tile 33 starts at 8,381.
        let last = document.tile(level: level, column: level.columns - 1, row: 0)
        #expect(level.columns == 34)
        #expect(last.frame.minX == CGFloat(8381 * 4))
        #expect(last.frame.maxX == 34_000)
        #expect(last.pixelSize.width == 8500 - 8381)
        // Every tile's pixel size is what libvips writes.
        for level in document.levels where level.columns * level.rows < 5000 {
            for column in 0..<level.columns {
                for row in 0..<level.rows {
                    let tile = document.tile(level: level, column: column, row: row)
                    let size = geometry.tileSize(level: level.level, column: column, row: row)
                    #expect(tile.pixelSize == PixelSize(width: size.width, height: size.height))
                    #expect(document.levelFrame(level: level, column: column, row: row) == geometry.tileFrame(level: level.level, column: column, row: row))
                }
            }
        }
    }

    @Test func aLevelRoundedUpEndsItsLastTileAtTheMastersEdge() {
        // 1001 px: level 9 is 501 px, its last pixel half outside the master.
        let document = KioskDocument(deepZoom: DeepZoomDescriptor(tileSize: 126, overlap: 1, format: "jpeg", width: 1001, height: 701), tilesFolder: Self.folder)
        let level = document.levels[9]
        #expect((level.width, level.height) == (501, 351))
        let last = document.tile(level: level, column: level.columns - 1, row: level.rows - 1)
        #expect(last.frame.maxX == 1001)
        #expect(last.frame.maxY == 701)
        #expect(last.pixelSize.width == 501 - (3 * 126 - 1))
    }

    @Test func iiifTilesAreItsRegionsAndScaleFactors() throws {
        let document = Self.iiif
        let layout = IIIFLayout(width: 34_000, height: 24_000, tileSize: 256, ext: "jpg")
        #expect(document.levels.map(\.downsample) == layout.scaleFactors.sorted(by: >))
        #expect(document.fullLevel.downsample == 1)
        #expect(document.level(forScale: 0.5).downsample == 1)
        #expect(document.level(forScale: 0.3).downsample == 2)
        for level in document.levels where level.downsample >= 8 {
            for column in 0..<level.columns {
                for row in 0..<level.rows {
                    let tile = document.tile(level: level, column: column, row: row)
                    let named = layout.tile(scaleFactor: level.downsample, column: column, row: row)
                    #expect(tile.url.path == "/bundle/data/document/scan/" + named.path)
                    #expect(tile.pixelSize == PixelSize(width: named.width, height: named.height))
                    // The region in the path is the frame: IIIF tiles do not overlap.
                    let region = named.path.split(separator: "/")[0].split(separator: ",").map { Int($0)! }
                    #expect(tile.frame == CGRect(x: region[0], y: region[1], width: region[2], height: region[3]))
                }
            }
        }
        // Every tile the layout lists is some level's tile.
        let listed = Set(layout.tiles.map(\.path))
        let named = Set(document.levels.flatMap { level in
            (0..<level.columns).flatMap { column in (0..<level.rows).map { document.tile(level: level, column: column, row: $0).url.path } }
        })
        #expect(named == Set(listed.map { "/bundle/data/document/scan/" + $0 }))
    }

    /// For many views, at many scales, in both layouts: each chosen tile's
    /// core meets the view, every tile whose core meets it is chosen, and
    /// the chosen frames cover it.
    @Test(arguments: [GeometryTests.deepZoom, GeometryTests.iiif])
    func theTilesChosenAreExactlyThoseInView(document: KioskDocument) {
        var random = SeededRandom(seed: 30)
        for _ in 0..<300 {
            let scale = pow(2, Double(random.next(in: -14_000...1_000)) / 1000)
            let width = Double(random.next(in: 1...40_000)), height = Double(random.next(in: 1...30_000))
            let view = CGRect(x: Double(random.next(in: -5_000...36_000)), y: Double(random.next(in: -5_000...26_000)), width: width, height: height)
            let level = document.level(forScale: scale)
            guard level.columns * level.rows <= 20_000 else { continue }
            let chosen = document.tiles(covering: view, scale: scale)
            let image = CGRect(x: 0, y: 0, width: document.size.width, height: document.size.height)
            let visible = view.intersection(image)
            var expected = Set<TileKey>()
            for column in 0..<level.columns {
                for row in 0..<level.rows {
                    let d = Double(level.downsample)
                    let core = CGRect(x: Double(column * document.tileWidth) * d, y: Double(row * document.tileHeight) * d,
                                      width: Double(document.tileWidth) * d, height: Double(document.tileHeight) * d)
                    let meet = core.intersection(visible)
                    if !meet.isNull, meet.width > 0, meet.height > 0 { expected.insert(TileKey(level: level.level, column: column, row: row)) }
                }
            }
            #expect(Set(chosen.map(\.key)) == expected, "view \(view) at scale \(scale)")
            #expect(chosen.count == expected.count)
            #expect(chosen.allSatisfy { $0.level == level.level && image.contains($0.frame) })
            if !expected.isEmpty {
                let union = chosen.map(\.frame).reduce(CGRect.null) { $0.union($1) }
                #expect(union.contains(visible))
            }
        }
    }

    @Test func aViewOutsideTheScanHasNoTiles() {
        #expect(Self.deepZoom.tiles(covering: CGRect(x: 40_000, y: 0, width: 100, height: 100), scale: 1).isEmpty)
        #expect(Self.deepZoom.tiles(covering: CGRect(x: -200, y: -200, width: 200, height: 200), scale: 1).isEmpty)
        #expect(Self.iiif.tiles(covering: .zero, scale: 1).isEmpty)
    }
}

/// A small deterministic generator (SplitMix64), so a failing case can be
/// run again.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
}
