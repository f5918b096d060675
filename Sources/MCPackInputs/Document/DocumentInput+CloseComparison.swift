import FileIO
import MCPackBag
import Foundation
import MCPackSchema
import Imaging

/// Which of the document's changed tiles look different, and not only read
/// different. Saving a JPEG master again changes every pixel a little, so
/// every tile of a new build has other bytes; what a person sees changed is
/// a region. Only the tiles whose bytes changed are decoded, each pair
/// compared block by block (`Image.blockDifference`).
package struct TileComparison: CloseComparison {
    /// 8 x 8 px blocks: JPEG's own, so that its re-encoding error, mostly
    /// detail inside a block around a mean it keeps, cancels in the mean.
    package static let block = 8
    /// A tile changed visibly when a block's mean moved by more than this
    /// (of 255) in any band. Saving a noise master again at the same
    /// quality moves block means by up to 4.8 (the worst seen, Gaussian
    /// noise with sigma 48 saved again at quality 85); retouches a person
    /// notices move them by 8 and more (docs/ARCHITECTURE.md has the
    /// figures; TileComparisonTests keeps the first under it).
    package static let threshold: Float = 6
    /// The overview pictures are made from the deepest level no larger than this.
    package static let overviewSide = 720

    package struct Side: Sendable {
        package var geometry: PyramidGeometry
        var name: String
        var suffix: String
        /// Tile bytes read so far, by path in the bag.
        var files: [String: Data]
        /// The archive or folder they come from.
        var location: String

        func path(_ tile: TileName) -> String { tile.path(name: name, suffix: suffix) }

        /// The deepest level whose picture fits in `side` px.
        package func level(fitting side: Int) -> Int {
            var level = geometry.maxLevel
            while level > 0 {
                let size = geometry.size(ofLevel: level)
                if max(size.width, size.height) <= side { break }
                level -= 1
            }
            return level
        }

        /// The tiles of `level` that cover `rect` (in that level's pixels).
        package func tiles(level: Int, covering rect: PixelRect) -> [TileName] {
            let size = geometry.tileSize
            let grid = geometry.tiles(ofLevel: level)
            guard rect.width > 0, rect.height > 0 else { return [] }
            let columns = max(0, rect.x / size)...min(grid.columns - 1, (rect.x + rect.width - 1) / size)
            let rows = max(0, rect.y / size)...min(grid.rows - 1, (rect.y + rect.height - 1) / size)
            return rows.flatMap { row in columns.map { TileName(level: level, column: $0, row: row) } }
        }

        /// `rect` of `level` (in its pixels), joined from its tiles, which
        /// must have been read.
        package func picture(level: Int, rect: PixelRect) throws -> Image {
            var pieces: [(image: Image, left: Int, top: Int)] = []
            for tile in tiles(level: level, covering: rect) {
                guard let data = files[path(tile)] else { throw FileError(path: location, message: "\(path(tile)) is missing") }
                let origin = geometry.tileFrame(level: level, column: tile.column, row: tile.row)
                pieces.append((try Image(data: data), origin.x - rect.x, origin.y - rect.y))
            }
            return try Image.assembled(width: rect.width, height: rect.height, pieces: pieces)
        }

        /// Reads the tiles named that are not read yet, in one pass.
        package mutating func read(_ tiles: [TileName]) throws {
            let missing = Set(tiles.map(path)).subtracting(files.keys)
            guard !missing.isEmpty else { return }
            files.merge(try BagFiles.read(missing, of: location)) { first, _ in first }
        }
    }

    package var old: Side
    package var new: Side
    /// Per level: the tiles whose bytes changed, and the largest block difference.
    package var levels: [Int: (changed: [TileName], visible: [TileName], largest: Float)] = [:]
    /// The visibly changed areas at full size, one for each group of
    /// touching tiles that changed visibly, in master pixels.
    package var regions: [ChangedRegion] = []

    package var sameGeometry: Bool { old.geometry == new.geometry }
    package var overviewLevel: (old: Int, new: Int) { (old.level(fitting: Self.overviewSide), new.level(fitting: Self.overviewSide)) }

    /// Compares the changed tiles of two Deep Zoom pyramids, read from the
    /// archives or folders at `locations`; nil when a version has no Deep
    /// Zoom document to compare.
    package static func compare(_ a: PyramidLayout?, _ b: PyramidLayout?, locations: (old: String, new: String), delta: ManifestDelta,
                                workers: Int = 2) throws -> TileComparison? {
        func side(_ pyramid: PyramidLayout?, _ location: String) -> Side? {
            guard let pyramid, pyramid.kind == .deepZoom else { return nil }
            return Side(geometry: pyramid.geometry, name: pyramid.name, suffix: pyramid.tileExtension, files: [:], location: location)
        }
        guard let old = side(a, locations.old), let new = side(b, locations.new) else { return nil }
        let changed = delta.paths.filter { $0.value.old != nil && $0.value.new != nil }.keys.compactMap(TileName.init).sorted()
        func all(_ side: Side) -> Set<String> {
            let level = side.level(fitting: overviewSide)
            let size = side.geometry.size(ofLevel: level)
            return Set(side.tiles(level: level, covering: PixelRect(x: 0, y: 0, width: size.width, height: size.height)).map(side.path))
        }
        var comparison = TileComparison(old: old, new: new)
        try comparison.compareTiles(changed, keeping: (all(old), all(new)), workers: workers)
        return comparison
    }

    private final class Results: @unchecked Sendable {
        let lock = NSLock()
        var differences: [TileName: (largest: Float, blocks: [PixelRect])] = [:]
    }

    /// Pairs read before they are compared, at most.
    static let batch = 64

    /// Reads the changed tiles of both versions side by side, each archive
    /// once, and compares each pair as soon as both halves are in, `workers`
    /// pairs at a time: a master saved again changes every tile, and
    /// holding 17,000 pairs would take a gigabyte. Tiles of `keeping` are
    /// kept (the overview is drawn from them).
    mutating func compareTiles(_ changed: [TileName], keeping: (old: Set<String>, new: Set<String>), workers: Int) throws {
        let results = Results()
        let deepest = new.geometry.maxLevel
        let same = sameGeometry
        let newGeometry = new.geometry
        func compare(_ pairs: [(tile: TileName, old: Data, new: Data)]) {
            DispatchQueue.concurrentPerform(iterations: max(1, min(workers, pairs.count))) { worker in
                for index in stride(from: worker, to: pairs.count, by: max(1, workers)) {
                    let (tile, a, b) = pairs[index]
                    var result: (largest: Float, blocks: [PixelRect]) = (255, [])
                    if same, let x = try? Image(data: a), let y = try? Image(data: b), x.width == y.width, x.height == y.height,
                       let difference = try? x.blockDifference(to: y, block: Self.block) {
                        result.largest = difference.largest
                        if tile.level == deepest {
                            let origin = newGeometry.tileFrame(level: tile.level, column: tile.column, row: tile.row)
                            result.blocks = difference.blocks(above: Self.threshold).map { block in
                                let x0 = block.column * Self.block, y0 = block.row * Self.block
                                return PixelRect(x: origin.x + x0, y: origin.y + y0, width: min(Self.block, x.width - x0), height: min(Self.block, x.height - y0))
                            }
                        }
                    }
                    // A tile that cannot be decoded or compared counts as changed visibly.
                    results.lock.withLock { results.differences[tile] = result }
                }
            }
        }

        var byPath: [String: TileName] = [:]
        for tile in changed { byPath[old.path(tile)] = tile }
        let a = try BagEntryStream(Set(byPath.keys).union(keeping.old), of: old.location)
        let b = try BagEntryStream(Set(byPath.keys).union(keeping.new), of: new.location)
        // Both archives list their tiles in one order, so a half waits
        // only until the other archive reaches the same path.
        var waiting: (old: [String: Data], new: [String: Data]) = ([:], [:])
        var done = (old: false, new: false)
        var ready: [(tile: TileName, old: Data, new: Data)] = []
        while !(done.old && done.new) {
            let fromOld = !done.old && (done.new || waiting.old.isEmpty)
            guard let (path, data) = try (fromOld ? a : b).next() else {
                if fromOld { done.old = true } else { done.new = true }
                continue
            }
            if fromOld, keeping.old.contains(path) { old.files[path] = data }
            if !fromOld, keeping.new.contains(path) { new.files[path] = data }
            guard let tile = byPath[path] else { continue }
            if fromOld {
                if let other = waiting.new.removeValue(forKey: path) { ready.append((tile, data, other)) } else { waiting.old[path] = data }
            } else {
                if let other = waiting.old.removeValue(forKey: path) { ready.append((tile, other, data)) } else { waiting.new[path] = data }
            }
            if ready.count >= Self.batch {
                compare(ready)
                ready.removeAll(keepingCapacity: true)
            }
        }
        compare(ready)

        for tile in changed {
            let difference = results.differences[tile] ?? (255, [])
            var level = levels[tile.level] ?? ([], [], 0)
            level.changed.append(tile)
            level.largest = max(level.largest, difference.largest)
            if difference.largest > Self.threshold { level.visible.append(tile) }
            levels[tile.level] = level
        }
        // Pyramids of other sizes have no common full-size grid to map.
        regions = same ? Self.regions(levels[deepest]?.visible ?? [], blocks: results.differences.mapValues(\.blocks), geometry: new.geometry) : []
    }

    /// Groups of visibly changed tiles that touch (sides or corners), each
    /// as the rectangle around its changed blocks, top to bottom.
    static func regions(_ tiles: [TileName], blocks: [TileName: [PixelRect]], geometry: PyramidGeometry) -> [ChangedRegion] {
        var left = Set(tiles)
        var regions: [ChangedRegion] = []
        for start in tiles.sorted() where left.contains(start) {
            var group: [TileName] = []
            var queue = [start]
            left.remove(start)
            while let tile = queue.popLast() {
                group.append(tile)
                for dy in -1...1 {
                    for dx in -1...1 {
                        let next = TileName(level: tile.level, column: tile.column + dx, row: tile.row + dy)
                        if left.remove(next) != nil { queue.append(next) }
                    }
                }
            }
            let rects = group.flatMap { blocks[$0] ?? [] }
            let whole = group.map { tile -> PixelRect in
                let frame = geometry.tileFrame(level: tile.level, column: tile.column, row: tile.row)
                return PixelRect(x: frame.x, y: frame.y, width: frame.width, height: frame.height)
            }
            let bounds = (rects.isEmpty ? whole : rects).dropFirst().reduce((rects.isEmpty ? whole : rects)[0]) { $0.union($1) }
            regions.append(ChangedRegion(x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height,
                                         tiles: group.sorted().map(\.shortName)))
        }
        return regions.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }

    /// Fills in each tile change's visible counts (the pyramid's input is
    /// the one whose changes carry `tiles`).
    package func annotate(_ changes: inout [Change]) {
        for index in changes.indices {
            guard var tiles = changes[index].tiles, let level = levels[tiles.level] else { continue }
            tiles.visible = level.visible.count
            tiles.visibleTiles = level.visible.map(\.shortName)
            tiles.largestDifference = (Double(level.largest) * 10).rounded() / 10
            changes[index].tiles = tiles
            changes[index].detail = tiles.summary
        }
    }
}

extension PixelRect {
    package func union(_ other: PixelRect) -> PixelRect {
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return PixelRect(x: x0, y: y0, width: max(x + width, other.x + other.width) - x0, height: max(y + height, other.y + other.height) - y0)
    }
}

extension DocumentInput {
    /// `diff --pixels`: the changed tiles decoded, to tell those that
    /// changed visibly from those only encoded again.
    package static func compareClosely(_ old: DiffSide<Record>, _ new: DiffSide<Record>, locations: (old: String, new: String),
                                       delta: ManifestDelta) throws -> (any CloseComparison)? {
        try TileComparison.compare(old.record.map(layout(of:)), new.record.map(layout(of:)), locations: locations, delta: delta)
    }
}
