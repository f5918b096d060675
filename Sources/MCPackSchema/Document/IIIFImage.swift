import Foundation

/// info.json of a IIIF Image API 3 level 0 service: what build writes and
/// verify reads back. libvips's own info.json is replaced by this one, since
/// it lists fewer scale factors than dzsave writes tiles for (with depth
/// "onepixel") and knows nothing of the full images.
public struct IIIFImageInfo: Codable, Equatable, Sendable {
    public struct Size: Codable, Equatable, Sendable {
        public var width: Int
        public var height: Int

        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    public struct Tiles: Codable, Equatable, Sendable {
        public var width: Int
        public var height: Int?
        public var scaleFactors: [Int]

        public init(width: Int, height: Int?, scaleFactors: [Int]) {
            self.width = width
            self.height = height
            self.scaleFactors = scaleFactors
        }
    }

    public var context = "http://iiif.io/api/image/3/context.json"
    public var id: String
    public var type = "ImageService3"
    public var protocolURI = "http://iiif.io/api/image"
    public var profile = "level0"
    public var width: Int
    public var height: Int
    /// Present when `max` is smaller than the image (a huge master).
    public var maxWidth: Int?
    public var maxHeight: Int?
    public var sizes: [Size]?
    public var tiles: [Tiles]

    enum CodingKeys: String, CodingKey {
        case context = "@context", id, type, protocolURI = "protocol", profile, width, height, maxWidth, maxHeight, sizes, tiles
    }

    public init(id: String, width: Int, height: Int, maxWidth: Int? = nil, maxHeight: Int? = nil, sizes: [Size]?, tiles: [Tiles]) {
        self.id = id
        self.width = width
        self.height = height
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.sizes = sizes
        self.tiles = tiles
    }

    /// The size `full/max/0/default.<ext>` has.
    public var maxSize: Size {
        Size(width: maxWidth ?? width, height: maxHeight ?? height)
    }
}

/// The static files of a IIIF level 0 service, as mcpack lays them out in
/// `data/document/<name>/`: dzsave's tiles
/// (`<x>,<y>,<w>,<h>/<w'>,<h'>/0/default.<ext>`), the full image at its
/// largest offered size (`full/max/0/default.<ext>`), and the full image at
/// each size info.json lists (`full/<w>,<h>/0/default.<ext>`), which level 0
/// clients may ask for.
public struct IIIFLayout: Sendable, Equatable {
    /// The longest side `full/max` may have. A 34,000 px master in one
    /// picture is more than a browser or an iPad will decode (iOS Safari
    /// stops at 16.7 million pixels, 4096 x 4096); info.json then declares
    /// maxWidth and maxHeight, and max means this size.
    public static let maxFullSide = 4096

    public var width: Int
    public var height: Int
    public var tileWidth: Int
    public var tileHeight: Int
    public var scaleFactors: [Int]
    public var ext: String

    /// What dzsave writes for a master of `width` x `height` ("onepixel"
    /// depth: every scale factor down to a one-pixel level).
    public init(width: Int, height: Int, tileSize: Int, ext: String) {
        let levels = PyramidGeometry(width: width, height: height, tileSize: tileSize, overlap: 0).maxLevel
        self.init(width: width, height: height, tileWidth: tileSize, tileHeight: tileSize,
                  scaleFactors: (0...levels).map { 1 << $0 }, ext: ext)
    }

    public init(width: Int, height: Int, tileWidth: Int, tileHeight: Int, scaleFactors: [Int], ext: String) {
        self.width = width
        self.height = height
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
        self.scaleFactors = scaleFactors
        self.ext = ext
    }

    /// The layout an info.json describes; nil when it has no usable tiles.
    public init?(_ info: IIIFImageInfo, ext: String) {
        guard let tile = info.tiles.first, tile.width > 0, (tile.height ?? tile.width) > 0, info.width > 0, info.height > 0,
              !tile.scaleFactors.isEmpty, tile.scaleFactors.allSatisfy({ $0 > 0 }) else { return nil }
        self.init(width: info.width, height: info.height, tileWidth: tile.width, tileHeight: tile.height ?? tile.width,
                  scaleFactors: tile.scaleFactors, ext: ext)
    }

    public static func scaled(_ value: Int, _ scale: Int) -> Int { (value + scale - 1) / scale }

    /// `full/max` fitted inside maxFullSide, aspect kept; the image's own
    /// size when it fits already.
    public var maxSize: IIIFImageInfo.Size {
        let side = Self.maxFullSide
        guard max(width, height) > side else { return .init(width: width, height: height) }
        if width >= height {
            return .init(width: side, height: max(1, Int((Double(height) * Double(side) / Double(width)).rounded())))
        }
        return .init(width: max(1, Int((Double(width) * Double(side) / Double(height)).rounded())), height: side)
    }

    /// The levels dzsave writes as one tile: the whole image, small enough
    /// for a thumbnail, smallest first.
    public var wholeSizes: [IIIFImageInfo.Size] {
        scaleFactors.sorted(by: >).compactMap { scale in
            let size = IIIFImageInfo.Size(width: Self.scaled(width, scale), height: Self.scaled(height, scale))
            return size.width <= tileWidth && size.height <= tileHeight ? size : nil
        }
    }

    public func info(id: String) -> IIIFImageInfo {
        let max = maxSize
        let fitted = max.width != width || max.height != height
        return IIIFImageInfo(id: id, width: width, height: height, maxWidth: fitted ? max.width : nil, maxHeight: fitted ? max.height : nil,
                             sizes: wholeSizes, tiles: [.init(width: tileWidth, height: tileHeight == tileWidth ? nil : tileHeight,
                                                              scaleFactors: scaleFactors)])
    }

    /// Each tile's path inside the service folder, with the pixel size its
    /// region and scale factor give it.
    public var tiles: [(path: String, width: Int, height: Int)] {
        var tiles: [(String, Int, Int)] = []
        for scale in scaleFactors {
            let (columns, rows) = (Self.scaled(width, tileWidth * scale), Self.scaled(height, tileHeight * scale))
            for column in 0..<columns {
                for row in 0..<rows { tiles.append(tile(scaleFactor: scale, column: column, row: row)) }
            }
        }
        return tiles
    }

    /// The tile at (column, row) of the level `scale` divides the image
    /// by: its path inside the service folder (its region in full-size
    /// pixels, clipped to the image, and the size that region has at this
    /// scale) and that pixel size. A viewer asks for one tile; `tiles`
    /// lists them all.
    public func tile(scaleFactor scale: Int, column: Int, row: Int) -> (path: String, width: Int, height: Int) {
        let (spanX, spanY) = (tileWidth * scale, tileHeight * scale)
        let (x, y) = (column * spanX, row * spanY)
        let (w, h) = (min(spanX, width - x), min(spanY, height - y))
        let (sw, sh) = (Self.scaled(w, scale), Self.scaled(h, scale))
        return ("\(x),\(y),\(w),\(h)/\(sw),\(sh)/0/default.\(ext)", sw, sh)
    }

    public var fullMaxPath: String { "full/max/0/default.\(ext)" }

    public func fullPath(_ size: IIIFImageInfo.Size) -> String { "full/\(size.width),\(size.height)/0/default.\(ext)" }

    /// The tile that holds the whole image at `size` (one of `wholeSizes`).
    public func wholeTilePath(_ size: IIIFImageInfo.Size) -> String { "0,0,\(width),\(height)/\(size.width),\(size.height)/0/default.\(ext)" }

    /// The file extension IIIF gives a tile format.
    public static func ext(_ format: String) -> String { format == "jpeg" ? "jpg" : format }
}
