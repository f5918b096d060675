import Foundation
import MCPackSchema

/// The scan as a tile pyramid (Deep Zoom or IIIF level 0): which level to
/// show at a zoom, which tiles of it are in view, where each one goes and
/// what it costs in memory. Pure arithmetic on the descriptor: nothing
/// here reads a tile.
///
/// Coordinates are the master's pixels (the scan at full size, origin top
/// left); a scale is screen pixels per master pixel.
public struct KioskDocument: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case deepZoom
        case iiif
    }

    public let kind: Kind
    /// The master's size in pixels.
    public let size: PixelSize
    /// A tile's size in its level's pixels, overlap left out.
    public let tileWidth: Int
    public let tileHeight: Int
    /// Pixels a Deep Zoom tile repeats of each neighbour; 0 for IIIF.
    public let overlap: Int
    /// Every level, coarsest first; the last is the finest (the master's
    /// own size when the pyramid has it, as mcpack's always do).
    public let levels: [TileLevel]
    /// The folder tiles are named under.
    public let tilesFolder: URL
    /// Deep Zoom: the tiles' extension. IIIF: the service's layout, which
    /// names each tile.
    let tileExtension: String
    let iiif: IIIFLayout?

    /// A Deep Zoom pyramid as its .dzi describes it, its tiles under
    /// `tilesFolder` (`<name>_files/`) as `<level>/<column>_<row>.<format>`.
    public init(deepZoom descriptor: DeepZoomDescriptor, tilesFolder: URL) {
        let geometry = descriptor.geometry
        kind = .deepZoom
        size = PixelSize(width: descriptor.width, height: descriptor.height)
        tileWidth = descriptor.tileSize
        tileHeight = descriptor.tileSize
        overlap = descriptor.overlap
        // libvips writes every level down to 1 x 1 ("onepixel" depth), each
        // half the next rounded up: the levels OpenSeadragon's DziTileSource
        // counts, level maxLevel = ceil(log2(max(width, height))) at full size.
        levels = (0...geometry.maxLevel).map { level in
            let (width, height) = geometry.size(ofLevel: level)
            let (columns, rows) = geometry.tiles(ofLevel: level)
            return TileLevel(level: level, downsample: 1 << (geometry.maxLevel - level), width: width, height: height, columns: columns, rows: rows)
        }
        self.tilesFolder = tilesFolder
        tileExtension = descriptor.format
        iiif = nil
    }

    /// A IIIF level 0 service as its info.json describes it (`layout`), the
    /// service's files under `serviceFolder`.
    public init(iiif layout: IIIFLayout, serviceFolder: URL) {
        kind = .iiif
        size = PixelSize(width: layout.width, height: layout.height)
        tileWidth = layout.tileWidth
        tileHeight = layout.tileHeight
        overlap = 0
        // One level per scale factor, numbered from the coarsest: for the
        // factors 1, 2, 4, ... 2^n mcpack writes, these are OpenSeadragon's
        // IIIFTileSource levels (maxLevel = log2 of the largest factor).
        levels = Array(Set(layout.scaleFactors)).sorted(by: >).enumerated().map { index, factor in
            let (width, height) = (IIIFLayout.scaled(layout.width, factor), IIIFLayout.scaled(layout.height, factor))
            return TileLevel(level: index, downsample: factor, width: width, height: height,
                             columns: IIIFLayout.scaled(width, layout.tileWidth), rows: IIIFLayout.scaled(height, layout.tileHeight))
        }
        tilesFolder = serviceFolder
        tileExtension = layout.ext
        iiif = layout
    }

    /// The pyramid a bundle.json record points at, read from its .dzi or
    /// info.json under `dataFolder` (the bag's data/).
    init(layout: PyramidLayout, dataFolder: URL) throws {
        let descriptorPath = "data/" + layout.descriptorPath
        let data = try KioskBundle.read(descriptorPath, in: dataFolder.deletingLastPathComponent())
        let tiles = dataFolder.appendingPathComponent(layout.tilesFolder, isDirectory: true)
        switch layout.kind {
        case .deepZoom:
            guard let descriptor = DeepZoomDescriptor(data) else {
                throw KioskBundleError(path: descriptorPath, message: "not a Deep Zoom descriptor (an <Image> with TileSize, Overlap, Format and a <Size> with Width and Height, all positive)")
            }
            self.init(deepZoom: descriptor, tilesFolder: tiles)
        case .iiif3:
            let info: IIIFImageInfo
            do { info = try JSONDecoder().decode(IIIFImageInfo.self, from: data) } catch {
                throw KioskBundleError(path: descriptorPath, message: JSON.describe(error))
            }
            guard let iiif = IIIFLayout(info, ext: layout.tileExtension) else {
                throw KioskBundleError(path: descriptorPath, message: "tiles[0] gives no usable tile size and scale factors")
            }
            self.init(iiif: iiif, serviceFolder: tiles)
        }
    }

    // MARK: Levels

    /// The finest level.
    public var fullLevel: TileLevel { levels[levels.count - 1] }

    /// The level to draw at `scale` (screen pixels per master pixel), as
    /// OpenSeadragon's TiledImage chooses it (`_updateLevelsForViewport`,
    /// tiledimage.js, with its default `minPixelRatio` of 0.5): the finest
    /// level whose pixels still take at least half a screen pixel, that is
    /// whose own scale is at most twice `scale`; beyond full size, the full
    /// level, magnified. A tile is then shown at between half and all of
    /// its size, never more than a level's worth sharper than the screen.
    public func level(forScale scale: Double) -> TileLevel {
        // A scale computed from a zoom (0.25 as 0.2499999999) stays on the
        // level an exact one gives.
        let limit = 2 * scale * (1 + 1e-9)
        return levels.last { $0.scale <= limit } ?? levels[0]
    }

    /// The level to draw a CATiledLayer request at `scale` (device pixels
    /// per master pixel: the scale of its context's CTM, a power of two
    /// times the layer's contents scale): the coarsest level whose own
    /// scale is at least `scale`, so the request gets every pixel it asks
    /// for and no more; beyond full size, the full level, magnified; below
    /// the coarsest level, the coarsest. At a power of two it is the level
    /// of exactly that scale, where `level(forScale:)` (a continuous zoom's
    /// rule) gives the next finer one, four times the pixels.
    public func level(forBitmapScale scale: Double) -> TileLevel {
        // A scale computed in floating point (0.25 as 0.2500000001) stays
        // on the level an exact one gives.
        let needed = scale * (1 - 1e-9)
        return levels.first { $0.scale >= needed } ?? fullLevel
    }

    // MARK: Tiles in view

    /// The tiles of the level for `scale` that show some of `rect` (master
    /// pixels), row by row: each tile's core (its share of the level,
    /// overlap left out) meets the rectangle, and together they cover it.
    public func tiles(covering rect: CGRect, scale: Double) -> [TileRef] {
        tiles(covering: rect, in: level(forScale: scale))
    }

    /// The tiles a CATiledLayer request for `rect` (master pixels) at
    /// `bitmapScale` (device pixels per master pixel) draws: those of
    /// `level(forBitmapScale:)` that show some of it.
    public func tiles(covering rect: CGRect, bitmapScale: Double) -> [TileRef] {
        tiles(covering: rect, in: level(forBitmapScale: bitmapScale))
    }

    /// The tiles of `level` that show some of `rect` (master pixels).
    public func tiles(covering rect: CGRect, in level: TileLevel) -> [TileRef] {
        guard let (columns, rows) = cells(covering: rect, in: level) else { return [] }
        return rows.flatMap { row in columns.map { tile(level: level, column: $0, row: row) } }
    }

    /// The columns and rows of `level` whose cores meet `rect`.
    func cells(covering rect: CGRect, in level: TileLevel) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
        let view = rect.standardized.intersection(CGRect(x: 0, y: 0, width: size.width, height: size.height))
        guard !view.isNull, view.width > 0, view.height > 0 else { return nil }
        // A level pixel p covers master pixels [p * downsample, (p + 1) * downsample).
        let spanX = Double(tileWidth * level.downsample), spanY = Double(tileHeight * level.downsample)
        func range(_ low: Double, _ high: Double, _ span: Double, _ count: Int) -> ClosedRange<Int> {
            let first = min(max(Int((low / span).rounded(.down)), 0), count - 1)
            let last = min(max(Int((high / span).rounded(.up)) - 1, first), count - 1)
            return first...last
        }
        return (range(Double(view.minX), Double(view.maxX), spanX, level.columns), range(Double(view.minY), Double(view.maxY), spanY, level.rows))
    }

    /// The tile at (column, row) of `level`.
    public func tile(level: TileLevel, column: Int, row: Int) -> TileRef {
        let pixels = levelFrame(level: level, column: column, row: row)
        // As OpenSeadragon's TileSource.getTileBounds places a tile: its
        // level frame (overlap included) times the level's downsample,
        // clipped to the image. A level rounded up to whole pixels has a
        // last pixel partly outside the master; it is drawn squeezed into
        // what is left, as OpenSeadragon draws it.
        let d = level.downsample
        let x = pixels.x * d, y = pixels.y * d
        let frame = CGRect(x: x, y: y, width: min((pixels.x + pixels.width) * d, size.width) - x,
                           height: min((pixels.y + pixels.height) * d, size.height) - y)
        let url: URL
        if let iiif {
            url = tilesFolder.appendingPathComponent(iiif.tile(scaleFactor: d, column: column, row: row).path)
        } else {
            url = tilesFolder.appendingPathComponent(DeepZoomDescriptor.tilePath(level: level.level, column: column, row: row, format: tileExtension))
        }
        return TileRef(level: level.level, column: column, row: row, frame: frame,
                       pixelSize: PixelSize(width: pixels.width, height: pixels.height), url: url)
    }

    /// Where the tile at (column, row) lies in its level, in the level's
    /// pixels, overlap included: libvips's dzsave cut (PyramidGeometry's
    /// tileFrame) with this pyramid's tile width, height and overlap.
    public func levelFrame(level: TileLevel, column: Int, row: Int) -> PixelRect {
        PyramidGeometry.tileFrame(column: column, row: row, tileWidth: tileWidth, tileHeight: tileHeight, overlap: overlap,
                                  levelWidth: level.width, levelHeight: level.height)
    }

    // MARK: Memory

    /// Bytes a decoded tile takes: 4 a pixel (8-bit RGBA, how iOS decodes a
    /// JPEG for drawing).
    public static let bytesPerPixel = 4

    /// The memory the tiles in view need at most, wherever a viewport of
    /// `viewport` screen pixels is placed, at `scale` (screen pixels per
    /// master pixel): the tiles of the level for that scale, decoded.
    public func decodedBytes(viewport: CGSize, scale: Double) -> Int {
        let level = level(forScale: scale)
        let toLevel = level.scale / scale
        return decodedBytes(levelSpan: (Double(viewport.width) * toLevel, Double(viewport.height) * toLevel), in: level)
    }

    /// The most the tiles in view need at any scale: the budget a tile
    /// cache needs to hold a whole view whatever the zoom. The worst scale
    /// is a level's half (the level is then shown at half size, so twice as
    /// many of its pixels each way are in view).
    public func decodedBytes(viewport: CGSize) -> Int {
        levels.map { level in
            let span = 2 * (1 + 1e-9)
            return decodedBytes(levelSpan: (Double(viewport.width) * span, Double(viewport.height) * span), in: level)
        }.max() ?? 0
    }

    /// The tile cache's budget for a full-screen view on a screen of
    /// `screenPixels` (its native size in pixels, as `UIScreen.nativeBounds`
    /// gives it, fixed in portrait): what the view needs at any zoom in
    /// either orientation, that is for a square viewport the screen's
    /// longer side each way.
    public func tileBudget(screenPixels: CGSize) -> Int {
        let side = max(abs(screenPixels.width), abs(screenPixels.height))
        return decodedBytes(viewport: CGSize(width: side, height: side))
    }

    /// The same for a viewport showing `level` at one screen pixel a pixel.
    public func decodedBytes(viewport: CGSize, in level: TileLevel) -> Int {
        decodedBytes(levelSpan: (Double(viewport.width), Double(viewport.height)), in: level)
    }

    private func decodedBytes(levelSpan span: (Double, Double), in level: TileLevel) -> Int {
        // A span of s pixels meets at most ceil(s / tile) + 1 tiles in a
        // row (it may start inside one); of those, the run of neighbouring
        // columns (and rows) with the most pixels, overlaps included.
        func widest(_ span: Double, tile: Int, count: Int, size: (Int) -> Int) -> Int {
            let n = min(count, Int((span / Double(tile)).rounded(.up)) + 1)
            guard n > 0 else { return 0 }
            let sizes = (0..<count).map(size)
            var run = sizes[0..<n].reduce(0, +), best = run
            for i in n..<count {
                run += sizes[i] - sizes[i - n]
                best = max(best, run)
            }
            return best
        }
        let width = widest(span.0, tile: tileWidth, count: level.columns) { levelFrame(level: level, column: $0, row: 0).width }
        let height = widest(span.1, tile: tileHeight, count: level.rows) { levelFrame(level: level, column: 0, row: $0).height }
        return width * height * Self.bytesPerPixel
    }
}

extension KioskDocument: CustomStringConvertible {
    public var description: String {
        "\(kind == .deepZoom ? "Deep Zoom" : "IIIF") \(size.width) x \(size.height), \(tileWidth) x \(tileHeight) px tiles, overlap \(overlap), \(levels.count) levels"
    }
}

/// One level of the pyramid.
public struct TileLevel: Sendable, Hashable {
    /// Its number as the pyramid names it: the Deep Zoom folder, or for
    /// IIIF the place of its scale factor from the largest (0).
    public var level: Int
    /// Master pixels per pixel of this level: 2^(maxLevel - level) for Deep
    /// Zoom, the scale factor for IIIF.
    public var downsample: Int
    /// The level's size in its own pixels.
    public var width: Int
    public var height: Int
    public var columns: Int
    public var rows: Int

    public init(level: Int, downsample: Int, width: Int, height: Int, columns: Int, rows: Int) {
        self.level = level
        self.downsample = downsample
        self.width = width
        self.height = height
        self.columns = columns
        self.rows = rows
    }

    /// Pixels of this level per master pixel.
    public var scale: Double { 1 / Double(downsample) }
}

/// A tile to draw: which, where, and its file. Hashed by its key and file
/// alone, the rest following from them: `CGRect` is `Hashable` on Apple's
/// platforms only from macOS 15 and iOS 18, above the package's floors.
public struct TileRef: Sendable, Hashable {
    public var level: Int
    public var column: Int
    public var row: Int
    /// Where the tile's picture goes, in master pixels, overlap included.
    public var frame: CGRect
    /// The picture's own size in pixels.
    public var pixelSize: PixelSize
    /// The tile's file.
    public var url: URL

    public init(level: Int, column: Int, row: Int, frame: CGRect, pixelSize: PixelSize, url: URL) {
        self.level = level
        self.column = column
        self.row = row
        self.frame = frame
        self.pixelSize = pixelSize
        self.url = url
    }

    public var key: TileKey { TileKey(level: level, column: column, row: row) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(url)
    }

    public static func == (a: TileRef, b: TileRef) -> Bool {
        a.key == b.key && a.url == b.url && a.frame == b.frame && a.pixelSize == b.pixelSize
    }

    /// The memory its picture takes decoded.
    public var decodedBytes: Int { pixelSize.width * pixelSize.height * KioskDocument.bytesPerPixel }
}

/// A tile's name in a cache.
public struct TileKey: Sendable, Hashable {
    public var level: Int
    public var column: Int
    public var row: Int

    public init(level: Int, column: Int, row: Int) {
        self.level = level
        self.column = column
        self.row = row
    }
}
