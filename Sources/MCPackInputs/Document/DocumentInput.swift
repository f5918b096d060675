import MCPackBag
import Foundation
import MCPackSchema
import Imaging

/// The master scan becomes a tile pyramid in data/document/: Deep Zoom
/// (`<name>.dzi`, `<name>_files/<level>/<col>_<row>.<ext>`) or IIIF 3
/// (`<name>/info.json` and static tiles). Its size also bounds the clause
/// overlays. Tiles come from the work cache when the master and settings
/// are unchanged.
package enum DocumentInput: BundleInput {
    package static let table = "document"
    /// A project of pictures alone (an app icon, a launch screen) has none.
    package static let required = false
    package static let component = "document"
    package static let payload = ["document/"]
    package static let formats = ["tiff", "png", "jpeg"]

    package struct Settings: Sendable, Equatable {
        package var image: String
        package var tileSize: Int
        package var overlap: Int
        package var tileFormat: String
        package var quality: Int
        package var layout: PyramidLayout.Kind
        /// `#RRGGBB` to flatten a master with alpha onto; nil refuses alpha.
        package var background: String?
        /// Where document/ will be served, without a trailing slash; set
        /// whenever the layout is iiif3.
        package var iiifBaseURL: String?
    }

    package struct Plan: InputPlan {
        package var settings: Settings
        package var format: String
        package var size: MasterSize
        package var picture: PictureImport.Checked
        package var sources: [SourceRef] { [.large(path: settings.image)] }
    }

    package typealias Record = DocumentRecord

    package static func settings(_ t: TableReader, paths: ProjectPaths) -> Settings? {
        let image = paths.check(t, "image", kind: .file)
        let tileSize = t.int("tile_size", in: 1...8192, required: false) ?? 254
        let overlap = t.int("overlap", in: 0...64, required: false) ?? 1
        let tileFormat = t.choice("tile_format", of: ["jpeg", "png", "webp"], required: false) ?? "jpeg"
        let quality = t.int("quality", in: 1...100, required: false) ?? 85
        let layout = t.choice("layout", of: [PyramidLayout.Kind.deepZoom, .iiif3].map(\.rawValue), required: false)
            .flatMap(PyramidLayout.Kind.init(rawValue:)) ?? .deepZoom
        let background = t.string("background", required: false) ?? "#FFFFFF"
        var baseURL = t.string("iiif_base_url", required: false)
        if let url = baseURL, let problem = IIIFBaseURL.problem(url) {
            t.error("iiif_base_url", problem)
            baseURL = nil
        } else if layout == .iiif3, baseURL == nil, !t.has("iiif_base_url") {
            t.error("iiif_base_url", "missing; layout = \"iiif3\" needs the http:// or https:// address the bundle's document/ folder will be served under (e.g. iiif_base_url = \"https://example.org/iiif/magna-carta\"): info.json's id is that address plus the image's name, and IIIF viewers build every tile's URL from it")
        }
        if background != "none", background.wholeMatch(of: #/#[0-9A-Fa-f]{6}/#) == nil {
            t.error("background", "\"\(background)\" is not a colour; expected #RRGGBB (e.g. \"#FFFFFF\", the default) or \"none\" to refuse a master with alpha")
        }
        if overlap * 2 >= tileSize {
            t.error("overlap", "an overlap of \(overlap) px leaves no tile content with tile_size \(tileSize); use an overlap under half the tile size")
        }
        t.rejectUnknownKeys(known: ["image", "tile_size", "overlap", "tile_format", "quality", "layout", "background", "iiif_base_url"])
        guard let image, layout != .iiif3 || baseURL != nil else { return nil }
        // IIIF has no overlap, and libvips 8.14's iiif3 layout given one
        // writes edge tiles of the wrong size.
        return Settings(image: image, tileSize: tileSize, overlap: layout == .iiif3 ? 0 : overlap, tileFormat: tileFormat, quality: quality, layout: layout,
                        background: background == "none" ? nil : background,
                        iiifBaseURL: layout == .iiif3 ? baseURL.map(IIIFBaseURL.normalised) : nil)
    }

    package static func check(_ settings: Settings, needs: NoNeeds?, in env: CheckEnvironment) -> Checked<Plan> {
        let url = env.project.url(settings.image)
        // libvips reads only the header here, so a PNG cut short would
        // otherwise pass every check and fail part-way through tiling.
        if let problem = ImageFileCheck.problem(atPath: url.path) {
            env.problem(settings.image, problem)
            return .failed
        }
        if let kind = ImageFileCheck.foreignKind(atPath: url.path) {
            env.problem(settings.image, "is \(kind); the master must be TIFF, PNG or JPEG: export it as one of those")
            return .failed
        }
        let image: Image
        do {
            image = try Image(contentsOf: url.path, sequential: true)
        } catch {
            // libvips's cause alone: the file is named once, as the project names it.
            let cause = (error as? ImagingError)?.cause ?? "\(error)"
            env.problem(settings.image, "not an image mcpack can read (\(cause)); the master must be TIFF, PNG or JPEG")
            return .failed
        }
        do {
            // The first pixel, read now: a file whose header reads but whose
            // pixels the library cannot (a layout it does not support) is
            // refused before minutes of tiling. On an image of its own: a
            // sequential read cannot go back to the top for the colour check.
            try Image(contentsOf: url.path, sequential: true).cropped(left: 0, top: 0, width: 1, height: 1).decodeAll()
        } catch {
            env.problem(settings.image, "its pixels cannot be read: \((error as? ImagingError)?.cause ?? "\(error)")")
            return .failed
        }
        guard let format = image.format, formats.contains(format) else {
            // "magick" is the loader, not the format: ImageMagick read it.
            let named = image.format.map { $0 == "magick" ? "in a format mcpack does not take" : "a \($0.uppercased()) file" } ?? "in an unknown format"
            env.problem(settings.image, "is \(named); the master must be TIFF, PNG or JPEG")
            return .failed
        }
        guard let picture = PictureImport.check(image, path: settings.image, env: env) else { return .failed }
        if picture.facts.hasAlpha && settings.background == nil {
            env.problem(settings.image, "has an alpha channel, which tiles cannot show; remove it, or set [document] background = \"#RRGGBB\" in \(env.project.configDisplayPath) to flatten it onto that colour (white when the key is left out)")
            return .failed
        }
        let size = MasterSize(width: picture.width, height: picture.height, note: picture.sizeNote)
        let pyramid = layout(settings, size: size)
        var facts: [any InputFact] = [size, pyramid]
        if let base = settings.iiifBaseURL {
            facts.append(IIIFService(base: base, pyramid: pyramid, format: settings.tileFormat))
        }
        return Checked(plan: Plan(settings: settings, format: format, size: size, picture: picture), facts: facts)
    }

    /// Where the pyramid's tiles will be and how they are cut. IIIF tiles
    /// have no overlap, and libvips names JPEG ones `.jpg`.
    package static func layout(_ settings: Settings, size: MasterSize) -> PyramidLayout {
        PyramidLayout(name: pyramidName(settings.image), kind: settings.layout, width: size.width,
                      height: size.height, tileSize: settings.tileSize, overlap: settings.overlap, tileFormat: settings.tileFormat)
    }

    /// The pyramid a bundle.json record describes (verify of the pages
    /// that read it).
    package static func layout(of record: Record) -> PyramidLayout {
        // A layout this version does not know is read as Deep Zoom, whose
        // checks then name what is missing.
        record.layout ?? PyramidLayout(name: record.name, kind: .deepZoom, width: record.width, height: record.height,
                                       tileSize: record.settings.tileSize, overlap: record.settings.overlap, tileFormat: record.settings.tileFormat)
    }

    package static func make(_ plan: Plan, in env: MakeEnvironment) throws -> Made<Record> {
        let job = Tiling(plan: plan, env: env)
        do {
            // Opening the master decodes nothing: the pipeline runs when tiled.
            let (image, colour) = try job.picture()
            if let reused = job.fromPreviousArchive(colour: colour) { return reused }
            return plan.settings.layout == .iiif3 ? try job.iiif(image, colour: colour) : job.streamed(image, colour: colour)
        } catch let damaged as PreviousArchive.Damaged {
            throw damaged
        } catch {
            throw env.failure(plan.settings.image, "cannot make the tile pyramid: \(error)")
        }
    }

    /// One making of the pyramid: from an archive built before, straight
    /// into the archive (Deep Zoom), or through the work cache (IIIF).
    private struct Tiling {
        let plan: Plan
        let env: MakeEnvironment
        let settings: Settings
        let source: SourceFile
        let name: String
        let pyramid: PyramidSettings
        let geometry: PyramidGeometry
        /// Every file of the pyramid, relative to data/, in the archive's order.
        let order: PyramidOrder

        init(plan: Plan, env: MakeEnvironment) {
            self.plan = plan
            self.env = env
            settings = plan.settings
            source = env.source(settings.image)
            name = pyramidName(settings.image)
            pyramid = PyramidSettings(tileSize: settings.tileSize, overlap: settings.overlap, format: settings.tileFormat,
                                      quality: settings.quality, layout: settings.layout)
            geometry = PyramidGeometry(width: plan.size.width, height: plan.size.height, tileSize: settings.tileSize, overlap: settings.overlap)
            order = PyramidOrder(layout(settings, size: plan.size))
        }

        /// The master as it ships: 8-bit sRGB, turned upright, flattened.
        func picture() throws -> (Image, PictureImport.Record) {
            // Turning or flipping needs rows out of order: then libvips reads
            // the master whole, through a temporary file on disk if it is large.
            let master = try Image(contentsOf: env.project.url(settings.image).path, sequential: plan.picture.facts.orientation == 1)
            var (image, record) = try PictureImport.converted(master, plan.picture)
            if image.hasAlpha, let background = settings.background {
                let (r, g, b) = HexColour.rgb(background)
                image = try image.flattened(red: r, green: g, blue: b)
                record.conversions.append("alpha flattened onto \(background)")
            }
            return (image, record)
        }

        func record(tiles: Int, colour: PictureImport.Record) -> Record {
            Record(image: settings.image, sha256: source.sha256, format: plan.format,
                   width: plan.size.width, height: plan.size.height, name: name,
                   levels: geometry.maxLevel + 1, tiles: tiles,
                   settings: .init(tileSize: settings.tileSize, overlap: settings.overlap, tileFormat: settings.tileFormat,
                                   quality: settings.quality, layout: settings.layout.rawValue, iiifBaseURL: settings.iiifBaseURL),
                   picture: colour, libvips: Imaging.libraryVersion)
        }

        /// An archive built before from the same master, settings and
        /// libraries holds the tiles this build would make, byte for byte.
        /// Only the pyramid's own files: the IIIF manifest beside it is the
        /// manifest input's, made from this build's clauses.
        func fromPreviousArchive(colour: PictureImport.Record) -> Made<Record>? {
            let wanted = record(tiles: 0, colour: colour)
            let prefixes = settings.layout == .iiif3 ? ["data/document/\(name)/"] : ["data/document/\(name).dzi", "data/document/\(name)_files/"]
            guard let previous = env.previous.first(under: prefixes, expecting: Set(order.paths.map { "data/" + $0 }), where: { json in
                guard let head = try? JSONDecoder().decode(BundleJSON.Head.self, from: json), head.mcpack == MCPackVersion.current,
                      var earlier = try? BundleJSON.component(Record.self, named: component, from: json) else { return false }
                earlier.tiles = 0
                return earlier == wanted
            }, note: { env.report(.note($0)) }) else { return nil }
            let payload = previous.paths.map { path in
                let entry = previous.entries[path]!
                let bagPath = String(path.dropFirst("data/".count))
                return PayloadFile(path: bagPath, source: .archived(previous, path: path), known: (entry.sha256, entry.bytes), order: order.place(of: bagPath))
            }
            return Made(payload: payload, record: record(tiles: tileCount(payload.map(\.path)), colour: colour))
        }

        var progress: @Sendable (Int, Int, TimeInterval) -> Void {
            let total = geometry.totalTiles
            return { [env] percent, eta, elapsed in
                env.report(.progress(task: "tiling", unit: "tiles", percent: percent, secondsLeft: eta, total: total, elapsed: elapsed))
            }
        }

        /// Deep Zoom: straight from libvips into the archive, written once.
        /// The master opened has decoded nothing yet.
        func streamed(_ image: Image, colour: PictureImport.Record) -> Made<Record> {
            var stream = PyramidStream(order: order, folder: "document/", name: name, settings: pyramid, master: { image },
                                       progress: progress, describe: { env.failure(settings.image, $0) },
                                       spillFolder: env.cache("tiles").folder)
            stream.note = { env.report(.note($0)) }
            return Made(payload: [], stream: stream, record: record(tiles: geometry.totalTiles, colour: colour))
        }

        /// IIIF: tiled into the work cache, with the image service's files.
        func iiif(_ image: Image, colour: PictureImport.Record) throws -> Made<Record> {
            let key = WorkCache.key([source.sha256, name, "\(pyramid.tileSize)", "\(pyramid.overlap)", pyramid.format,
                                     "\(pyramid.quality)", pyramid.layout.rawValue, "colour-1", settings.background ?? "-",
                                     settings.iiifBaseURL.map { "iiif-2 " + $0 } ?? "-"])
            let started = Date()
            let progress = progress
            // libvips stamps vips-properties.xml with the date of tiling: it must not ship.
            let entry = try env.cache("tiles").entry(key, damage: { env.report(.note($0)) },
                                                     leaveOut: { $0.hasSuffix("vips-properties.xml") }) { folder in
                try TilePyramid.write(image, to: folder, name: name, settings: pyramid, id: settings.iiifBaseURL) { percent, eta in
                    progress(percent, eta, Date().timeIntervalSince(started))
                }
                if let base = settings.iiifBaseURL {
                    // The tiling read a sequential master to its end: the
                    // full image needs a second read of it.
                    try writeIIIFService(folder.appendingPathComponent(name), id: base + "/" + name, size: plan.size,
                                         settings: pyramid) { try picture().0 }
                }
            }
            // Once the archive holds the tiles, it is their one copy.
            let payload = entry.payload(under: "document/").map { file in
                var file = file
                file.order = order.place(of: file.path)
                return file
            }
            return Made(payload: payload, record: record(tiles: tileCount(entry.files.map(\.path)), colour: colour), transient: [entry.folder])
        }
    }

    /// The tiles among a pyramid's files: not its descriptor, nor a IIIF
    /// full image.
    package static func tileCount(_ paths: [String]) -> Int {
        paths.count { !$0.hasSuffix(".dzi") && !$0.hasSuffix("info.json") && !PathBytes.contains($0, "/full/") }
    }


    /// Completes what dzsave wrote in `folder` into a IIIF level 0 service
    /// a validator passes: info.json with the absolute id, the full image
    /// at its largest offered size and at each listed size.
    package static func writeIIIFService(_ folder: URL, id: String, size: MasterSize, settings: PyramidSettings,
                                 master: () throws -> Image) throws {
        let layout = IIIFLayout(width: size.width, height: size.height, tileSize: settings.tileSize, ext: IIIFLayout.ext(settings.format))
        let info = layout.info(id: id)
        try JSON.encode(info).write(to: folder.appendingPathComponent("info.json"))
        func file(_ path: String) throws -> URL {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            return url
        }
        // The listed sizes are the levels dzsave wrote as one tile: the
        // same bytes under the name a level 0 client asks for.
        for whole in layout.wholeSizes {
            try FileManager.default.copyItem(at: folder.appendingPathComponent(layout.wholeTilePath(whole)), to: try file(layout.fullPath(whole)))
        }
        let max = info.maxSize
        var full: Image
        if max.width == size.width && max.height == size.height {
            // At most 4096 px a side: reading the master again costs little.
            full = try master()
        } else {
            // A larger master is not read a second time (seconds and tens of
            // MB for 34,000 px): the level just larger than max is put back
            // together from the tiles just written, then scaled down.
            let scale = layout.scaleFactors.filter {
                IIIFLayout.scaled(size.width, $0) >= max.width && IIIFLayout.scaled(size.height, $0) >= max.height
            }.max() ?? 1
            let span = (x: layout.tileWidth * scale, y: layout.tileHeight * scale)
            let columns = (size.width + span.x - 1) / span.x
            var tiles: [Image] = []
            for y in stride(from: 0, to: size.height, by: span.y) {
                for x in stride(from: 0, to: size.width, by: span.x) {
                    let (w, h) = (min(span.x, size.width - x), min(span.y, size.height - y))
                    let path = "\(x),\(y),\(w),\(h)/\(IIIFLayout.scaled(w, scale)),\(IIIFLayout.scaled(h, scale))/0/default.\(layout.ext)"
                    // From memory: a level may have a thousand tiles, more
                    // files than a process may hold open.
                    tiles.append(try Image(data: Data(contentsOf: folder.appendingPathComponent(path))))
                }
            }
            full = try Image.joined(tiles, across: columns)
                .cropped(left: 0, top: 0, width: IIIFLayout.scaled(size.width, scale), height: IIIFLayout.scaled(size.height, scale))
        }
        if full.width != max.width || full.height != max.height { full = try full.resized(width: max.width, height: max.height) }
        try settings.encode(full).write(to: try file(layout.fullMaxPath))
    }

    /// The pyramid's name: the master's file name without its extension,
    /// made safe for a path (`magna-carta.tif` -> `magna-carta`).
    package static func pyramidName(_ path: String) -> String {
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let safe = String(stem.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "-" })
        return safe.isEmpty ? "document" : safe
    }
}
