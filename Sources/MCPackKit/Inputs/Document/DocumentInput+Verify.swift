import Foundation
import Imaging

extension DocumentInput {
    /// Each pyramid (Deep Zoom or IIIF) holds every tile its descriptor
    /// implies, and no other, at the master's size as bundle.json records it.
    static func verify(_ record: Record?, in bag: BagView) -> [Problem] {
        let master = record.map { MasterSize(width: $0.width, height: $0.height) }
        return deepZoom(bag, master: master) + iiif(bag, master: master, format: record?.settings.tileFormat) + colour(bag)
    }

    /// The top-left tile of each level (Deep Zoom `<level>/0_0`, IIIF
    /// `0,0,...`): the tiles verify decodes to check they are 8-bit sRGB,
    /// a sample of every level without reading thousands of tiles twice.
    static func isSampleTile(_ path: String) -> Bool {
        path.hasPrefix("data/document/") && (path.contains("_files/") && path.contains("/0_0.") || path.contains("/0,0,"))
    }

    private static func colour(_ bag: BagView) -> [Problem] {
        bag.files.keys.filter(isSampleTile).sorted().compactMap { path in
            guard let data = bag.files[path]?.data, let tile = try? Image(data: data),
                  let problem = PictureImport.notSRGB(tile) else { return nil }
            return Problem(path, "picture-srgb", problem)
        }
    }

    private static func deepZoom(_ bag: BagView, master: MasterSize?) -> [Problem] {
        var problems: [Problem] = []
        let descriptors = bag.files.keys.filter { $0.hasPrefix("data/document/") && $0.hasSuffix(".dzi") }.sorted()
        for path in descriptors {
            guard let data = bag.files[path]?.data, let text = String(data: data, encoding: .utf8) else { continue }
            func attribute(_ name: String) -> String? {
                guard let range = text.range(of: "\(name)=\"([^\"]*)\"", options: .regularExpression) else { return nil }
                return String(text[range].dropFirst(name.count + 2).dropLast())
            }
            guard let tileSize = attribute("TileSize").flatMap(Int.init), let overlap = attribute("Overlap").flatMap(Int.init),
                  let format = attribute("Format"), let width = attribute("Width").flatMap(Int.init),
                  let height = attribute("Height").flatMap(Int.init), tileSize > 0, width > 0, height > 0
            else {
                problems.append(Problem(path, "pyramid-dzi", "not a Deep Zoom descriptor with TileSize, Overlap, Format, Width and Height"))
                continue
            }
            if let master, master != MasterSize(width: width, height: height) {
                problems.append(Problem(path, "pyramid-dzi", "describes \(width) x \(height) but bundle.json's master is \(master.width) x \(master.height)"))
            }
            let geometry = DeepZoomGeometry(width: width, height: height, tileSize: tileSize, overlap: overlap)
            let folder = String(path.dropLast(4)) + "_files/"
            var expected = Set<String>()
            for level in 0...geometry.maxLevel {
                let tiles = geometry.tiles(ofLevel: level)
                for column in 0..<tiles.columns {
                    for row in 0..<tiles.rows { expected.insert("\(folder)\(level)/\(column)_\(row).\(format)") }
                }
            }
            problems += compare(expected: expected, in: folder, of: bag, descriptor: path, size: "\(width) x \(height)", kind: ".dzi")
        }
        return problems
    }

    /// A IIIF Image API 3 level 0 pyramid as libvips writes it:
    /// `<name>/<x>,<y>,<w>,<h>/<w'>,<h'>/0/default.<ext>` for each scale
    /// factor, down to one pixel.
    private static func iiif(_ bag: BagView, master: MasterSize?, format: String?) -> [Problem] {
        var problems: [Problem] = []
        let descriptors = bag.files.keys.filter {
            $0.hasPrefix("data/document/") && $0.hasSuffix("/info.json") && $0.split(separator: "/").count == 4
        }.sorted()
        for path in descriptors {
            guard let info = bag.decode(IIIFInfo.self, path, rule: "pyramid-iiif", &problems) else { continue }
            guard let tile = info.tiles.first, tile.width > 0, info.width > 0, info.height > 0 else {
                problems.append(Problem(path, "pyramid-iiif", "has no tiles with a width, or no image width and height"))
                continue
            }
            if let master, master != MasterSize(width: info.width, height: info.height) {
                problems.append(Problem(path, "pyramid-iiif", "describes \(info.width) x \(info.height) but bundle.json's master is \(master.width) x \(master.height)"))
            }
            let folder = String(path.dropLast("info.json".count))
            let present = bag.files.keys.filter { $0.hasPrefix(folder) && $0 != path }
            // The extension from bundle.json's settings, else from the tiles.
            let ext = format.map { $0 == "jpeg" ? "jpg" : $0 }
                ?? present.lazy.map { ($0 as NSString).pathExtension }.first ?? "jpg"
            let tileWidth = tile.width
            let tileHeight = tile.height ?? tile.width
            let levels = DeepZoomGeometry(width: info.width, height: info.height, tileSize: tileWidth, overlap: 0).maxLevel
            var expected = Set<String>()
            for level in 0...levels {
                let scale = 1 << level
                let (spanX, spanY) = (tileWidth * scale, tileHeight * scale)
                for x in stride(from: 0, to: info.width, by: spanX) {
                    for y in stride(from: 0, to: info.height, by: spanY) {
                        let (w, h) = (min(spanX, info.width - x), min(spanY, info.height - y))
                        expected.insert("\(folder)\(x),\(y),\(w),\(h)/\((w + scale - 1) / scale),\((h + scale - 1) / scale)/0/default.\(ext)")
                    }
                }
            }
            problems += compare(expected: expected, in: folder, of: bag, descriptor: path, size: "\(info.width) x \(info.height)",
                                kind: "info.json", leaving: [path])
        }
        return problems
    }

    /// Tiles missing from `folder`, and files there that are no tile of the
    /// pyramid; past where reading stopped, missing tiles are counted once.
    private static func compare(expected: Set<String>, in folder: String, of bag: BagView, descriptor: String, size: String,
                                kind: String, leaving: Set<String> = []) -> [Problem] {
        var problems: [Problem] = []
        let present = Set(bag.files.keys.filter { $0.hasPrefix(folder) && !leaving.contains($0) })
        let missing = expected.subtracting(present).sorted()
        if let stoppedAt = bag.stoppedAt, let first = missing.first {
            problems.append(Problem(descriptor, "pyramid-complete", "\(missing.count) tiles it implies were not reached: reading stopped \(stoppedAt) (first: \(first))"))
        } else {
            for tile in missing { problems.append(Problem(tile, "pyramid-complete", "a tile the \(kind) implies is missing")) }
        }
        for extra in present.subtracting(expected).sorted() {
            problems.append(Problem(extra, "pyramid-complete", "not a tile of the \(size) pyramid the \(kind) describes"))
        }
        return problems
    }
}

/// What verify reads of a IIIF Image API 3 info.json.
struct IIIFInfo: Decodable {
    struct Tiles: Decodable {
        var width: Int
        var height: Int?
        var scaleFactors: [Int]
    }

    var id: String
    var width: Int
    var height: Int
    var tiles: [Tiles]
}
