import Foundation
import MCPackReader
import MCPackSchema
import Testing

/// The tile cache's budget and the decoded bytes of a view.
@Suite struct MemoryTests {
    @Test func theLeastRecentlyUsedTileGoesFirst() {
        let cache = TileCache<String>(budget: 300)
        let keys = (0..<4).map { TileKey(level: 1, column: $0, row: 0) }
        cache.insert("a", bytes: 100, for: keys[0])
        cache.insert("b", bytes: 100, for: keys[1])
        cache.insert("c", bytes: 100, for: keys[2])
        #expect(cache.tile(for: keys[0]) == "a")  // now the most recent
        cache.insert("d", bytes: 100, for: keys[3])
        #expect(cache.tile(for: keys[1]) == nil)
        #expect(cache.keysByAge == [keys[2], keys[0], keys[3]])
        #expect(cache.usedBytes == 300)
        // Inserting a held key again replaces it.
        cache.insert("c2", bytes: 50, for: keys[2])
        #expect(cache.usedBytes == 250)
        #expect(cache.tile(for: keys[2]) == "c2")
        // A tile larger than the budget is not held, and drops nothing.
        cache.insert("huge", bytes: 301, for: TileKey(level: 2, column: 0, row: 0))
        #expect(cache.count == 3)
        cache.removeAll()
        #expect(cache.count == 0 && cache.usedBytes == 0)
    }

    /// A visitor's thousand steps of panning and zooming over the 34,000 px
    /// scan, each drawing the tiles in view through the cache: it never
    /// holds more than its budget, and it holds every tile of the view.
    @Test(arguments: [GeometryTests.deepZoom, GeometryTests.iiif])
    func aThousandStepsOfPanAndZoomStayWithinTheBudget(document: KioskDocument) {
        let viewport = CGSize(width: 2048, height: 1536)
        let budget = document.decodedBytes(viewport: viewport)
        let cache = TileCache<TileKey>(budget: budget)
        var random = SeededRandom(seed: 1215)
        var centre = CGPoint(x: 17_000, y: 12_000)
        var scale = 0.05
        var loads = 0
        for step in 0..<1000 {
            if step % 7 == 0 {
                scale = min(2, max(0.02, scale * pow(2, Double(random.next(in: -1000...1000)) / 1000)))
            } else {
                centre.x += Double(random.next(in: -600...600)) / scale
                centre.y += Double(random.next(in: -600...600)) / scale
                centre.x = min(max(centre.x, 0), Double(document.size.width))
                centre.y = min(max(centre.y, 0), Double(document.size.height))
            }
            let view = CGRect(x: centre.x - viewport.width / 2 / scale, y: centre.y - viewport.height / 2 / scale,
                              width: viewport.width / scale, height: viewport.height / scale)
            let tiles = document.tiles(covering: view, scale: scale)
            let bytes = tiles.reduce(0) { $0 + $1.decodedBytes }
            #expect(bytes <= document.decodedBytes(viewport: viewport, scale: scale), "step \(step)")
            #expect(document.decodedBytes(viewport: viewport, scale: scale) <= budget)
            for tile in tiles {
                _ = cache.tile(for: tile) { loads += 1; return $0.key }
                #expect(cache.usedBytes <= budget)
            }
            // The view's own tiles all fit, so all are still held.
            #expect(tiles.allSatisfy { cache.contains($0.key) }, "step \(step)")
        }
        #expect(loads > cache.count)  // tiles were dropped and loaded again
    }

    /// decodedBytes is the most any placement of the viewport needs: every
    /// placement's tiles need no more, and some placement needs exactly it.
    @Test func decodedBytesIsTheWorstPlacement() {
        let document = KioskDocument(deepZoom: DeepZoomDescriptor(tileSize: 254, overlap: 1, format: "jpeg", width: 5000, height: 3000),
                                     tilesFolder: URL(fileURLWithPath: "/t"))
        for (viewport, scale) in [(CGSize(width: 1024, height: 768), 1.0), (CGSize(width: 600, height: 500), 0.5), (CGSize(width: 300, height: 200), 0.3)] {
            let worst = document.decodedBytes(viewport: viewport, scale: scale)
            let level = document.level(forScale: scale)
            var largest = 0
            for dx in stride(from: 0, through: 254 * level.downsample, by: 7) {
                for dy in stride(from: 0, through: 254 * level.downsample, by: 7) {
                    let view = CGRect(x: Double(254 * level.downsample + dx), y: Double(254 * level.downsample + dy),
                                      width: viewport.width / scale, height: viewport.height / scale)
                    let bytes = document.tiles(covering: view, scale: scale).reduce(0) { $0 + $1.decodedBytes }
                    #expect(bytes <= worst)
                    largest = max(largest, bytes)
                }
            }
            #expect(largest == worst, "\(viewport) at \(scale)")
        }
        // The whole of a small level in view: every tile of it.
        let small = document.levels[8]
        let all = (0..<small.columns).flatMap { c in (0..<small.rows).map { document.tile(level: small, column: c, row: $0).decodedBytes } }
        #expect(document.decodedBytes(viewport: CGSize(width: 4096, height: 4096), in: small) == all.reduce(0, +))
    }

    @Test func aFullScreenAtOnePixelAPixel() {
        // 2048 / 254 px tiles: 9 columns, or 10 when the view starts inside
        // one; 1536: 7, or 8. Each tile 256 px with its overlaps, 4 bytes a
        // pixel: about 12 MB of pixels in view, 20 MB of tiles.
        let bytes = GeometryTests.deepZoom.decodedBytes(viewport: CGSize(width: 2048, height: 1536), scale: 1)
        #expect(bytes == (10 * 256) * (8 * 256) * 4)
        // At any scale: the level for a scale just above a half, shown at
        // nearly half size, so twice the span each way.
        let worst = GeometryTests.deepZoom.decodedBytes(viewport: CGSize(width: 2048, height: 1536))
        #expect(worst == (18 * 256) * (14 * 256) * 4)
        #expect(worst == GeometryTests.deepZoom.decodedBytes(viewport: CGSize(width: 2048, height: 1536), scale: 0.5000001))
    }

    // MARK: The budget from the screen

    /// The budget covers a full-screen view in either orientation: the
    /// screen's longer side each way, whichever way round its size is given.
    @Test(arguments: [GeometryTests.deepZoom, GeometryTests.iiif])
    func theBudgetCoversTheScreenInBothOrientations(document: KioskDocument) {
        let portrait = document.tileBudget(screenPixels: CGSize(width: 1536, height: 2048))
        let landscape = document.tileBudget(screenPixels: CGSize(width: 2048, height: 1536))
        #expect(portrait == landscape)
        #expect(portrait == document.decodedBytes(viewport: CGSize(width: 2048, height: 2048)))
        #expect(portrait >= document.decodedBytes(viewport: CGSize(width: 2048, height: 1536)))
        #expect(portrait >= document.decodedBytes(viewport: CGSize(width: 1536, height: 2048)))
        // A larger screen needs more; the iPad 2's (768 x 1024) less.
        #expect(document.tileBudget(screenPixels: CGSize(width: 2048, height: 2732)) > portrait)
        #expect(document.tileBudget(screenPixels: CGSize(width: 768, height: 1024)) < portrait)
        // 2048 / 254 px tiles: 9 columns, or 10 when the view starts inside
        // one, at twice the span (the worst zoom): 18 of 256 px each way.
        if document.kind == .deepZoom {
            #expect(portrait == (18 * 256) * (18 * 256) * KioskDocument.bytesPerPixel)
        }
    }

    /// A smaller budget drops the least recently used tiles until the rest
    /// fit; a larger one drops nothing and holds more from then on.
    @Test func theBudgetCanChangeAfterTheCacheIsMade() {
        let cache = TileCache<String>(budget: 400)
        let keys = (0..<5).map { TileKey(level: 3, column: $0, row: 0) }
        for (i, key) in keys.prefix(4).enumerated() { cache.insert("\(i)", bytes: 100, for: key) }
        #expect(cache.tile(for: keys[0]) == "0")  // now the most recent
        cache.budget = 250
        #expect(cache.budget == 250)
        #expect(cache.keysByAge == [keys[3], keys[0]])
        #expect(cache.usedBytes == 200)
        cache.budget = 1000
        #expect(cache.keysByAge == [keys[3], keys[0]])
        for key in keys { cache.insert("x", bytes: 100, for: key) }
        #expect(cache.count == 5 && cache.usedBytes == 500)
        cache.budget = 0
        #expect(cache.count == 0 && cache.usedBytes == 0)
        cache.insert("y", bytes: 1, for: keys[0])
        #expect(cache.count == 0)
        // A cache made before the screen is known holds nothing until then.
        let early = TileCache<String>(budget: 0)
        early.insert("z", bytes: 100, for: keys[1])
        #expect(early.count == 0)
        early.budget = 100
        early.insert("z", bytes: 100, for: keys[1])
        #expect(early.tile(for: keys[1]) == "z")
    }

    /// The budget changed while tiles are drawn on other threads: the cache
    /// ends within its last budget, with its books straight.
    @Test func theBudgetChangesSafelyWhileTilesAreDrawn() {
        let cache = TileCache<Int>(budget: 10_000)
        DispatchQueue.concurrentPerform(iterations: 4000) { i in
            if i % 97 == 0 {
                cache.budget = [0, 2_500, 10_000, 40_000][(i / 97) % 4]
            } else {
                let key = TileKey(level: 5, column: i % 300, row: i % 7)
                _ = cache.tile(for: TileRef(level: 5, column: key.column, row: key.row, frame: .zero,
                                            pixelSize: PixelSize(width: 5, height: 5), url: URL(fileURLWithPath: "/t"))) { $0.column }
            }
        }
        #expect(cache.usedBytes <= cache.budget)
        #expect(cache.usedBytes == cache.count * 100)
        #expect(cache.keysByAge.count == cache.count)
        cache.budget = 1_000
        #expect(cache.count <= 10 && cache.usedBytes == cache.count * 100)
    }
}
