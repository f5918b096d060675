import MCPackBag
import Foundation
import MCPackSchema
import Imaging

extension DocumentInput {
    /// The sample tiles whole (they are decoded); of every other IIIF
    /// picture its first 1 KB, which holds its header (a JPEG's frame
    /// header, a PNG's IHDR, a WebP's size; mcpack's tiles carry no metadata
    /// before it) for the size each must have: 17,000 tiles must cost
    /// little. Deep Zoom tiles need only their digests, the .dzi all of it.
    package static func verifyKeeps(_ path: String) -> BagReader.Keep.Bytes {
        // The descriptor is read whole: its rules count the tiles it implies.
        if isSampleTile(path) || PathBytes.hasSuffix(path, ignoringCase: ".dzi") { return .whole }
        // data/document/<name>/<region>/<size>/0/default.<ext>
        return PathBytes.withBytes(path) { $0.count { $0 == UInt8(ascii: "/") } } == 6 ? .head(1024) : .digestsOnly
    }

    /// The IIIF descriptors, `data/document/<name>/info.json`, sorted:
    /// each found in its own folder's files, byte for byte (two folders
    /// whose names Swift calls equal are two folders).
    package static func iiifDescriptors(_ bag: BagView) -> [String] {
        bag.folders.folders(in: "data/document/").flatMap { folder in
            bag.folders.files(in: folder).filter { $0.utf8.count == folder.utf8.count + 9 && PathBytes.hasSuffix($0, "/info.json") }
        }.sorted()
    }

    /// Each pyramid (Deep Zoom or IIIF) holds every tile its descriptor
    /// implies, and no other, at the master's size as bundle.json records it.
    package static func verify(_ record: Record?, in bag: BagView) -> [Problem] {
        let master = record.map { MasterSize(width: $0.width, height: $0.height) }
        return deepZoom(bag, master: master) + iiif(bag, record: record) + colour(bag)
    }

    /// The top-left tile of each level (Deep Zoom `<level>/0_0`, IIIF
    /// `0,0,...`): the tiles verify decodes to check they are 8-bit sRGB,
    /// a sample of every level without reading thousands of tiles twice.
    package static func isSampleTile(_ path: String) -> Bool {
        guard PathBytes.hasPrefix(path, "data/document/") else { return false }
        // Asked of every file of a bag, twice: the components are counted
        // in the bytes in place, not found by Foundation's String search (a
        // tenth of a verify) nor split into an array (more than the rest of
        // the question cost).
        let sample: (UnsafeBufferPointer<UInt8>) -> Bool = { bytes in
            let slash = UInt8(ascii: "/")
            var parts = 0
            // Where components 2 (its end), 3 and 4 start; empty ones
            // (two slashes) are not components, as `split` has it.
            var thirdEnd = 0, fourthStart = 0, fifthStart = 0
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == slash {
                if index > start {
                    switch parts {
                    case 2: thirdEnd = index
                    case 3: fourthStart = start
                    case 4: fifthStart = start
                    default: break
                    }
                    parts += 1
                    if parts > 7 { return false }
                }
                start = index + 1
            }
            func starts(at offset: Int, with prefix: StaticString) -> Bool {
                offset + prefix.utf8CodeUnitCount <= bytes.count
                    && UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount).elementsEqual(bytes[offset..<(offset + prefix.utf8CodeUnitCount)])
            }
            if parts == 5 {  // data/document/<name>_files/<level>/0_0.<ext>
                return thirdEnd >= 6 && starts(at: thirdEnd - 6, with: "_files") && starts(at: fifthStart, with: "0_0.")
            }
            // data/document/<name>/0,0,<w>,<h>/<size>/0/default.<ext>
            return parts == 7 && starts(at: fourthStart, with: "0,0,")
        }
        return PathBytes.withBytes(path, sample)
    }

    private static func colour(_ bag: BagView) -> [Problem] {
        bag.folders.files(under: "data/document/").filter(isSampleTile).sorted().compactMap { path in
            guard let data = bag.files[path]?.data, let tile = try? Image(data: data),
                  let problem = PictureImport.notSRGB(tile) else { return nil }
            return Problem(path, "picture-srgb", problem)
        }
    }

    private static func deepZoom(_ bag: BagView, master: MasterSize?) -> [Problem] {
        var problems: [Problem] = []
        let descriptors = bag.folders.files(under: "data/document/").filter { PathBytes.hasSuffix($0, ".dzi") }.sorted()
        for path in descriptors {
            guard let data = bag.files[path]?.data else { continue }
            guard let dzi = DeepZoomDescriptor(data) else {
                problems.append(Problem(path, "pyramid-dzi", "not a Deep Zoom descriptor with TileSize, Overlap, Format, Width and Height"))
                continue
            }
            let (width, height, format) = (dzi.width, dzi.height, dzi.format)
            if let master, master != MasterSize(width: width, height: height) {
                problems.append(Problem(path, "pyramid-dzi", "describes \(width) x \(height) but bundle.json's master is \(master.width) x \(master.height)"))
            }
            let geometry = dzi.geometry
            let folder = String(path.dropLast(4)) + "_files/"
            let grid = geometry.grid
            let start = folder.utf8.count
            let implied = Implied(count: grid.levels.reduce(0) { $0 + $1.columns * $1.rows }) { tile in
                guard let index = DeepZoomDescriptor.tileIndex(of: tile[tile.utf8.index(tile.startIndex, offsetBy: start)...], format: format) else { return false }
                return grid.contains(level: index.level, column: index.column, row: index.row)
            } all: {
                var all = Set<String>()
                for (level, tiles) in grid.levels.enumerated() {
                    for column in 0..<tiles.columns {
                        for row in 0..<tiles.rows { all.insert(folder + DeepZoomDescriptor.tilePath(level: level, column: column, row: row, format: format)) }
                    }
                }
                return all
            }
            problems += compare(implied, in: folder, of: bag, descriptor: path, size: "\(width) x \(height)", kind: ".dzi")
        }
        return problems
    }

    /// A IIIF Image API 3 level 0 service as mcpack writes it (IIIFLayout):
    /// every tile info.json implies, at the size its region and scale factor
    /// give it; the full image at the declared max size and at each listed
    /// size; an absolute HTTP(S) id, which viewers build every URL from.
    private static func iiif(_ bag: BagView, record: Record?) -> [Problem] {
        var problems: [Problem] = []
        let descriptors = iiifDescriptors(bag)
        let master = record.map { MasterSize(width: $0.width, height: $0.height) }
        for path in descriptors {
            guard let info = bag.decode(IIIFImageInfo.self, path, rule: "pyramid-iiif", &problems) else { continue }
            let folder = String(path.dropLast("info.json".count))
            let name = String(folder.dropLast().split(separator: "/").last ?? "")
            let present = bag.folders.files(under: folder).filter { $0 != path }
            // The extension from bundle.json's settings, else from the tiles.
            let ext = record.map { IIIFLayout.ext($0.settings.tileFormat) }
                ?? present.lazy.map { ($0 as NSString).pathExtension }.first ?? "jpg"
            guard let layout = IIIFLayout(info, ext: ext) else {
                problems.append(Problem(path, "pyramid-iiif", "has no tiles with a width and scale factors, or no image width and height"))
                continue
            }
            if let master, master != MasterSize(width: info.width, height: info.height) {
                problems.append(Problem(path, "pyramid-iiif", "describes \(info.width) x \(info.height) but bundle.json's master is \(master.width) x \(master.height)"))
            }
            if !IIIFBaseURL.isAbsolute(info.id) {
                problems.append(Problem(path, "iiif-id", "id \"\(info.id)\" is not an absolute http:// or https:// URI; viewers build every tile's URL from it (set [document] iiif_base_url)"))
            } else if let base = record?.settings.iiifBaseURL, info.id != base + "/" + name {
                problems.append(Problem(path, "iiif-id", "id \"\(info.id)\" is not \"\(base)/\(name)\", the base URL bundle.json records and this folder's name"))
            } else if !info.id.hasSuffix("/" + name) {
                problems.append(Problem(path, "iiif-id", "id \"\(info.id)\" does not end in this folder's name (\(name)), so the tiles viewers ask for are not where it points"))
            }
            var sizes: [String: (width: Int, height: Int)] = [:]
            for tile in layout.tiles { sizes[folder + tile.path] = (tile.width, tile.height) }
            let max = info.maxSize
            let full = folder + layout.fullMaxPath
            if bag.files[full] == nil, bag.stoppedAt == nil {
                problems.append(Problem(full, "iiif-full", "the full image (\(max.width) x \(max.height)) that level 0 requires is missing"))
            }
            sizes[full] = (max.width, max.height)
            for size in info.sizes ?? [] { sizes[folder + layout.fullPath(size)] = (size.width, size.height) }
            let tiles = Set(sizes.keys).subtracting([full])
            problems += compare(Implied(count: tiles.count, contains: tiles.contains) { tiles }, in: folder, of: bag, descriptor: path,
                                size: "\(info.width) x \(info.height)", kind: "info.json", leaving: [path, full])
            for file in present.sorted() {
                guard let want = sizes[file], let bytes = bag.files[file].flatMap({ $0.data ?? $0.head }) else { continue }
                guard let got = PictureHeader.size(of: bytes) else {
                    problems.append(Problem(file, "pyramid-tile-size", "not a \(ext) picture whose size can be read"))
                    continue
                }
                if got != want {
                    let rule = file == full ? "iiif-full" : "pyramid-tile-size"
                    problems.append(Problem(file, rule, "is \(got.width) x \(got.height) px; its \(file == full ? "declared max size" : "region and scale") make it \(want.width) x \(want.height)"))
                }
            }
        }
        return problems
    }

    /// The tiles a descriptor implies: how many, whether a path is one, and
    /// (only when some are missing) every one of their paths.
    private struct Implied {
        var count: Int
        var contains: (String) -> Bool
        var all: () -> Set<String>
    }

    /// Tiles missing from `folder`, and files there that are no tile of the
    /// pyramid; past where reading stopped, missing tiles are counted once.
    private static func compare(_ implied: Implied, in folder: String, of bag: BagView, descriptor: String, size: String,
                                kind: String, leaving: Set<String> = []) -> [Problem] {
        var problems: [Problem] = []
        // Counted rather than set against each other: the usual pyramid is
        // whole, and two sets of 17,000 paths showed in verify's profile.
        func present(_ path: String) -> Bool { PathBytes.hasPrefix(path, folder) && !leaving.contains(path) }
        var found = 0
        var extras: [String] = []
        for path in bag.folders.files(under: folder) where !leaving.contains(path) {
            if implied.contains(path) { found += 1 } else { extras.append(path) }
        }
        let missing = found == implied.count ? [] : implied.all().filter { bag.files[$0] == nil || !present($0) }.sorted()
        if let stoppedAt = bag.stoppedAt, let first = missing.first {
            problems.append(Problem(descriptor, "pyramid-complete", "\(missing.count) tiles it implies were not reached: reading stopped \(stoppedAt) (first: \(first))"))
        } else {
            for tile in missing { problems.append(Problem(tile, "pyramid-complete", "a tile the \(kind) implies is missing")) }
        }
        for extra in extras.sorted() {
            problems.append(Problem(extra, "pyramid-complete", "not a tile of the \(size) pyramid the \(kind) describes"))
        }
        return problems
    }
}
