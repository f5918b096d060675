import Foundation

/// info.json of a IIIF Image API 3 level 0 service: what build writes and
/// verify reads back. libvips's own info.json is replaced by this one, since
/// it lists fewer scale factors than dzsave writes tiles for (with depth
/// "onepixel") and knows nothing of the full images.
struct IIIFImageInfo: Codable, Equatable {
    struct Size: Codable, Equatable {
        var width: Int
        var height: Int
    }

    struct Tiles: Codable, Equatable {
        var width: Int
        var height: Int?
        var scaleFactors: [Int]
    }

    var context = "http://iiif.io/api/image/3/context.json"
    var id: String
    var type = "ImageService3"
    var protocolURI = "http://iiif.io/api/image"
    var profile = "level0"
    var width: Int
    var height: Int
    /// Present when `max` is smaller than the image (a huge master).
    var maxWidth: Int?
    var maxHeight: Int?
    var sizes: [Size]?
    var tiles: [Tiles]

    enum CodingKeys: String, CodingKey {
        case context = "@context", id, type, protocolURI = "protocol", profile, width, height, maxWidth, maxHeight, sizes, tiles
    }

    /// The size `full/max/0/default.<ext>` has.
    var maxSize: Size {
        Size(width: maxWidth ?? width, height: maxHeight ?? height)
    }
}

/// The static files of a IIIF level 0 service, as mcpack lays them out in
/// `data/document/<name>/`: dzsave's tiles
/// (`<x>,<y>,<w>,<h>/<w'>,<h'>/0/default.<ext>`), the full image at its
/// largest offered size (`full/max/0/default.<ext>`), and the full image at
/// each size info.json lists (`full/<w>,<h>/0/default.<ext>`), which level 0
/// clients may ask for.
struct IIIFLayout {
    /// The longest side `full/max` may have. A 34,000 px master in one
    /// picture is more than a browser or an iPad will decode (iOS Safari
    /// stops at 16.7 million pixels, 4096 x 4096); info.json then declares
    /// maxWidth and maxHeight, and max means this size.
    static let maxFullSide = 4096

    var width: Int
    var height: Int
    var tileWidth: Int
    var tileHeight: Int
    var scaleFactors: [Int]
    var ext: String

    /// What dzsave writes for a master of `width` x `height` ("onepixel"
    /// depth: every scale factor down to a one-pixel level).
    init(width: Int, height: Int, tileSize: Int, ext: String) {
        let levels = DeepZoomGeometry(width: width, height: height, tileSize: tileSize, overlap: 0).maxLevel
        self.init(width: width, height: height, tileWidth: tileSize, tileHeight: tileSize,
                  scaleFactors: (0...levels).map { 1 << $0 }, ext: ext)
    }

    init(width: Int, height: Int, tileWidth: Int, tileHeight: Int, scaleFactors: [Int], ext: String) {
        self.width = width
        self.height = height
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
        self.scaleFactors = scaleFactors
        self.ext = ext
    }

    /// The layout an info.json describes; nil when it has no usable tiles.
    init?(_ info: IIIFImageInfo, ext: String) {
        guard let tile = info.tiles.first, tile.width > 0, (tile.height ?? tile.width) > 0, info.width > 0, info.height > 0,
              !tile.scaleFactors.isEmpty, tile.scaleFactors.allSatisfy({ $0 > 0 }) else { return nil }
        self.init(width: info.width, height: info.height, tileWidth: tile.width, tileHeight: tile.height ?? tile.width,
                  scaleFactors: tile.scaleFactors, ext: ext)
    }

    static func scaled(_ value: Int, _ scale: Int) -> Int { (value + scale - 1) / scale }

    /// `full/max` fitted inside maxFullSide, aspect kept; the image's own
    /// size when it fits already.
    var maxSize: IIIFImageInfo.Size {
        let side = Self.maxFullSide
        guard max(width, height) > side else { return .init(width: width, height: height) }
        if width >= height {
            return .init(width: side, height: max(1, Int((Double(height) * Double(side) / Double(width)).rounded())))
        }
        return .init(width: max(1, Int((Double(width) * Double(side) / Double(height)).rounded())), height: side)
    }

    /// The levels dzsave writes as one tile: the whole image, small enough
    /// for a thumbnail, smallest first.
    var wholeSizes: [IIIFImageInfo.Size] {
        scaleFactors.sorted(by: >).compactMap { scale in
            let size = IIIFImageInfo.Size(width: Self.scaled(width, scale), height: Self.scaled(height, scale))
            return size.width <= tileWidth && size.height <= tileHeight ? size : nil
        }
    }

    func info(id: String) -> IIIFImageInfo {
        let max = maxSize
        let fitted = max.width != width || max.height != height
        return IIIFImageInfo(id: id, width: width, height: height, maxWidth: fitted ? max.width : nil, maxHeight: fitted ? max.height : nil,
                             sizes: wholeSizes, tiles: [.init(width: tileWidth, height: tileHeight == tileWidth ? nil : tileHeight,
                                                              scaleFactors: scaleFactors)])
    }

    /// Each tile's path inside the service folder, with the pixel size its
    /// region and scale factor give it.
    var tiles: [(path: String, width: Int, height: Int)] {
        var tiles: [(String, Int, Int)] = []
        for scale in scaleFactors {
            let (spanX, spanY) = (tileWidth * scale, tileHeight * scale)
            for x in stride(from: 0, to: width, by: spanX) {
                for y in stride(from: 0, to: height, by: spanY) {
                    let (w, h) = (min(spanX, width - x), min(spanY, height - y))
                    let (sw, sh) = (Self.scaled(w, scale), Self.scaled(h, scale))
                    tiles.append(("\(x),\(y),\(w),\(h)/\(sw),\(sh)/0/default.\(ext)", sw, sh))
                }
            }
        }
        return tiles
    }

    var fullMaxPath: String { "full/max/0/default.\(ext)" }

    func fullPath(_ size: IIIFImageInfo.Size) -> String { "full/\(size.width),\(size.height)/0/default.\(ext)" }

    /// The tile that holds the whole image at `size` (one of `wholeSizes`).
    func wholeTilePath(_ size: IIIFImageInfo.Size) -> String { "0,0,\(width),\(height)/\(size.width),\(size.height)/0/default.\(ext)" }

    /// The file extension IIIF gives a tile format.
    static func ext(_ format: String) -> String { format == "jpeg" ? "jpg" : format }
}

/// `[document] iiif_base_url`: the absolute HTTP(S) URL under which the
/// bundle's document/ folder will be served.
enum IIIFBaseURL {
    /// The problem with `text` as a base URL, or nil when it is one.
    static func problem(_ text: String) -> String? {
        let example = "e.g. \"https://example.org/iiif/magna-carta\""
        if text.contains(where: { $0.isWhitespace }) {
            return "\"\(text)\" contains white space; write a space in a URL as %20, \(example)"
        }
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased() else {
            return "\"\(text)\" is not an absolute URL; expected the http:// or https:// address the document/ folder will be served under, \(example)"
        }
        guard scheme == "http" || scheme == "https" else {
            return "\"\(text)\" uses the \(scheme): scheme; IIIF viewers fetch over HTTP, so expected http:// or https://, \(example)"
        }
        guard let host = url.host, !host.isEmpty else {
            return "\"\(text)\" has no host; expected the address the document/ folder will be served under, \(example)"
        }
        if url.query != nil || url.fragment != nil {
            return "\"\(text)\" has a query or fragment; viewers append paths to the base, so give the folder's address alone, \(example)"
        }
        return nil
    }

    /// The base without a trailing slash, so `base + "/" + name` is the id.
    static func normalised(_ text: String) -> String {
        var text = text
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// Whether `text` is an absolute HTTP(S) URI, as every IIIF id must be.
    static func isAbsolute(_ text: String) -> Bool {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = url.host else { return false }
        return !host.isEmpty
    }
}
