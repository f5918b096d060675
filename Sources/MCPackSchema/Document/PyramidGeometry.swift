import Foundation

/// The shape of a tile pyramid as libvips's dzsave cuts it ("onepixel"
/// depth): level 0 is 1 x 1, each level doubles, the deepest is the
/// master's own size, each rounded up. Build uses it for progress, verify
/// to know exactly which tiles must exist, the app to choose the tiles in
/// view. IIIF is the same pyramid with no overlap, counted from the other
/// end (scale factor 2^(maxLevel - level)).
public struct PyramidGeometry: Sendable, Equatable, Hashable {
    public var width: Int
    public var height: Int
    public var tileSize: Int
    /// Pixels each tile repeats of its neighbours, on each side that has one.
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
        let frame = tileFrame(level: level, column: column, row: row)
        return (frame.width, frame.height)
    }

    /// Where the tile at (column, row) lies in its level, in the level's
    /// pixels, overlap included.
    public func tileFrame(level: Int, column: Int, row: Int) -> PixelRect {
        let size = size(ofLevel: level)
        return Self.tileFrame(column: column, row: row, tileWidth: tileSize, tileHeight: tileSize, overlap: overlap,
                              levelWidth: size.width, levelHeight: size.height)
    }

    /// The same cut for tiles of any width and height (IIIF tiles need not
    /// be square) in a level of `levelWidth` x `levelHeight` pixels: as
    /// dzsave cuts them and OpenSeadragon's getTileBounds places them.
    public static func tileFrame(column: Int, row: Int, tileWidth: Int, tileHeight: Int, overlap: Int,
                                 levelWidth: Int, levelHeight: Int) -> PixelRect {
        let x = max(column * tileWidth - overlap, 0), y = max(row * tileHeight - overlap, 0)
        return PixelRect(x: x, y: y, width: min((column + 1) * tileWidth + overlap, levelWidth) - x,
                    height: min((row + 1) * tileHeight + overlap, levelHeight) - y)
    }

    /// Each level's columns and rows, made once for many look-ups.
    public var grid: TileGrid { TileGrid(levels: (0...maxLevel).map(tiles(ofLevel:))) }

    public var totalTiles: Int {
        (0...maxLevel).reduce(0) { total, level in
            let tiles = tiles(ofLevel: level)
            return total + tiles.columns * tiles.rows
        }
    }
}

/// A pyramid's columns and rows at each level, level 0 first.
public struct TileGrid: Sendable {
    public let levels: [(columns: Int, rows: Int)]

    /// Whether the pyramid has a tile at (level, column, row).
    public func contains(level: Int, column: Int, row: Int) -> Bool {
        levels.indices.contains(level) && (0..<levels[level].columns).contains(column) && (0..<levels[level].rows).contains(row)
    }
}

/// Where a tile pyramid is in a bag and how it is cut: what a viewer needs
/// to find its tiles. Made from the document's record in bundle.json.
public struct PyramidLayout: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable {
        /// Deep Zoom: `<name>.dzi` and `<name>_files/<level>/<col>_<row>.<ext>`.
        case deepZoom = "dz"
        /// IIIF Image API 3, level 0: `<name>/info.json` and static tiles.
        case iiif3
    }

    /// Its .dzi (Deep Zoom) or folder (IIIF) under data/document/.
    public var name: String
    public var kind: Kind
    public var geometry: PyramidGeometry
    /// The tiles' file extension (`jpeg` for Deep Zoom, `jpg` for IIIF).
    public var tileExtension: String

    public init(name: String, kind: Kind, geometry: PyramidGeometry, tileExtension: String) {
        self.name = name
        self.kind = kind
        self.geometry = geometry
        self.tileExtension = tileExtension
    }

    /// The pyramid a tile format and the settings give. IIIF tiles have no
    /// overlap, and libvips names JPEG ones `.jpg`.
    public init(name: String, kind: Kind, width: Int, height: Int, tileSize: Int, overlap: Int, tileFormat: String) {
        let iiif = kind == .iiif3
        self.init(name: name, kind: kind, geometry: PyramidGeometry(width: width, height: height, tileSize: tileSize, overlap: iiif ? 0 : overlap),
                  tileExtension: iiif ? IIIFLayout.ext(tileFormat) : tileFormat)
    }

    /// `dz` or `iiif3`, as bundle.toml and bundle.json spell it.
    public var layout: String { kind.rawValue }
    public var width: Int { geometry.width }
    public var height: Int { geometry.height }
    public var tileSize: Int { geometry.tileSize }
    public var overlap: Int { geometry.overlap }

    /// The .dzi or info.json, relative to data/.
    public var descriptorPath: String {
        kind == .iiif3 ? "document/\(name)/info.json" : "document/\(name).dzi"
    }

    /// The folder the tiles are under, relative to data/, ending in `/`.
    public var tilesFolder: String {
        kind == .iiif3 ? "document/\(name)/" : "document/\(name)_files/"
    }

    /// The Deep Zoom tile at (level, column, row), relative to data/.
    public func deepZoomTilePath(level: Int, column: Int, row: Int) -> String {
        tilesFolder + DeepZoomDescriptor.tilePath(level: level, column: column, row: row, format: tileExtension)
    }
}
