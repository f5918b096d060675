import Foundation
import Imaging

/// The master scan becomes a tile pyramid in data/document/: Deep Zoom
/// (`<name>.dzi`, `<name>_files/<level>/<col>_<row>.<ext>`) or IIIF 3
/// (`<name>/info.json` and static tiles). Its size also bounds the clause
/// overlays. Tiles come from the tile cache when the master and settings
/// are unchanged.
enum DocumentInput: BundleInput {
    static let formats = ["tiff", "png", "jpeg"]

    static func startAhead(_ context: GatherContext) {
        context.hashAhead(context.project.config.document.image)
    }

    static func gather(_ context: GatherContext) -> Component? {
        let settings = context.project.config.document
        let url = context.project.url(settings.image)
        // libvips reads only the header here, so a PNG cut short would
        // otherwise pass every check and fail part-way through tiling.
        if let problem = ImageFileCheck.problem(atPath: url.path) {
            context.problem(settings.image, problem)
            return nil
        }
        let image: Image
        do {
            image = try Image(contentsOf: url.path, sequential: true)
        } catch {
            context.problem(settings.image, "not an image mcpack can read (\(error)); the master must be TIFF, PNG or JPEG")
            return nil
        }
        guard let format = image.format, formats.contains(format) else {
            context.problem(settings.image, "is \(image.format ?? "an unknown format"); the master must be TIFF, PNG or JPEG")
            return nil
        }
        context.master = (image.width, image.height)
        // A build started hashing the master ahead; its check pass collects
        // it after the other inputs are checked, and the make pass uses it.
        if !context.making && context.deferHash(settings.image) { return Component(name: "document") }
        guard let source = context.hash(settings.image) else { return nil }
        let sha = source.sha256
        guard context.making else { return Component(name: "document", sources: [source]) }

        let name = pyramidName(settings.image)
        let pyramid = PyramidSettings(
            tileSize: settings.tileSize, overlap: settings.overlap, format: settings.tileFormat,
            quality: settings.quality, layout: settings.layout == "iiif3" ? .iiif3 : .deepZoom)
        let geometry = DeepZoomGeometry(width: image.width, height: image.height, tileSize: settings.tileSize, overlap: settings.overlap)
        let cache = WorkCache(project: context.project, kind: "tiles")
        let key = WorkCache.key([sha, name, "\(pyramid.tileSize)", "\(pyramid.overlap)", pyramid.format,
                                 "\(pyramid.quality)", pyramid.layout.rawValue])
        let entry: WorkCache.Entry
        do {
            let started = Date()
            let total = geometry.totalTiles
            // libvips stamps vips-properties.xml with the date of tiling: it must not ship.
            entry = try cache.entry(key, damage: { context.report(.note($0)) },
                                    leaveOut: { $0.hasSuffix("vips-properties.xml") }) { folder in
                try TilePyramid.write(master: url.path, to: folder, name: name, settings: pyramid) { percent, eta in
                    context.report(.tiling(percent: percent, secondsLeft: eta, tiles: total,
                                           elapsed: Date().timeIntervalSince(started)))
                }
            }
        } catch {
            context.problem(settings.image, "cannot make the tile pyramid: \(error)")
            return nil
        }
        let payload = entry.payload(under: "document/")
        let tiles = entry.files.count { !$0.path.hasSuffix(".dzi") && !$0.path.hasSuffix("info.json") }
        return Component(
            name: "document",
            payload: payload,
            sources: [source],
            record: [
                "image": .string(settings.image),
                "sha256": .string(sha),
                "format": .string(format),
                "width": .int(image.width),
                "height": .int(image.height),
                "name": .string(name),
                "levels": .int(geometry.maxLevel + 1),
                "tiles": .int(tiles),
                "settings": [
                    "tile_size": .int(settings.tileSize), "overlap": .int(settings.overlap),
                    "tile_format": .string(settings.tileFormat), "quality": .int(settings.quality),
                    "layout": .string(settings.layout),
                ],
            ],
            cached: entry.reused)
    }

    /// The pyramid's name: the master's file name without its extension,
    /// made safe for a path (`magna-carta.tif` -> `magna-carta`).
    static func pyramidName(_ path: String) -> String {
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let safe = String(stem.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "-" })
        return safe.isEmpty ? "document" : safe
    }
}
