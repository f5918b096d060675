import Foundation

/// The shape of a Deep Zoom pyramid ("onepixel" depth): level 0 is 1 x 1,
/// each level doubles, the deepest is the master's own size. Build uses it
/// for progress, verify to know exactly which tiles must exist.
public struct DeepZoomGeometry: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var tileSize: Int
    public var overlap: Int

    public init(width: Int, height: Int, tileSize: Int, overlap: Int) {
        self.width = width
        self.height = height
        self.tileSize = tileSize
        self.overlap = overlap
    }

    /// The deepest level's number; there are `maxLevel + 1` levels.
    public var maxLevel: Int {
        var level = 0
        while (1 << level) < max(width, height) { level += 1 }
        return level
    }

    public func size(ofLevel level: Int) -> (width: Int, height: Int) {
        let shift = maxLevel - level
        func scaled(_ value: Int) -> Int { max(1, (value + (1 << shift) - 1) >> shift) }
        return (scaled(width), scaled(height))
    }

    public func tiles(ofLevel level: Int) -> (columns: Int, rows: Int) {
        let size = size(ofLevel: level)
        return ((size.width + tileSize - 1) / tileSize, (size.height + tileSize - 1) / tileSize)
    }

    /// The pixel size of the tile at (column, row): its share of the level
    /// plus the overlap on each side that has a neighbour.
    public func tileSize(level: Int, column: Int, row: Int) -> (width: Int, height: Int) {
        let size = size(ofLevel: level)
        func extent(_ index: Int, _ total: Int) -> Int {
            min((index + 1) * tileSize + overlap, total) - max(index * tileSize - overlap, 0)
        }
        return (extent(column, size.width), extent(row, size.height))
    }

    public var totalTiles: Int {
        (0...maxLevel).reduce(0) { total, level in
            let tiles = tiles(ofLevel: level)
            return total + tiles.columns * tiles.rows
        }
    }
}
