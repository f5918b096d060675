import Foundation
import Imaging

/// The master scan becomes a tile pyramid in data/document/: Deep Zoom
/// (`<name>.dzi`, `<name>_files/<level>/<col>_<row>.<ext>`) or IIIF 3
/// (`<name>/info.json` and static tiles). Its size also bounds the clause
/// overlays. Tiles come from the work cache when the master and settings
/// are unchanged.
enum DocumentInput: BundleInput {
    static let table = "document"
    static let component = "document"
    static let payload = ["document/"]
    static let formats = ["tiff", "png", "jpeg"]

    struct Settings: Sendable, Equatable {
        var image: String
        var tileSize: Int
        var overlap: Int
        var tileFormat: String
        var quality: Int
        var layout: String
        /// `#RRGGBB` to flatten a master with alpha onto; nil refuses alpha.
        var background: String?
    }

    struct Plan: InputPlan {
        var settings: Settings
        var format: String
        var size: MasterSize
        var picture: PictureImport.Checked
        var sources: [SourceRef] { [.large(path: settings.image)] }
    }

    struct Record: Codable, Sendable, Equatable {
        struct PyramidSettings: Codable, Sendable, Equatable {
            var tileSize: Int
            var overlap: Int
            var tileFormat: String
            var quality: Int
            var layout: String

            enum CodingKeys: String, CodingKey {
                case tileSize = "tile_size", overlap, tileFormat = "tile_format", quality, layout
            }
        }

        var image: String
        var sha256: String
        var format: String
        var width: Int
        var height: Int
        /// The pyramid's name: its .dzi or IIIF folder under data/document/.
        var name: String
        var levels: Int
        var tiles: Int
        var settings: PyramidSettings
        /// What the master file was and what was done to it; absent in
        /// bundles made before mcpack converted colour.
        var picture: PictureImport.Record?
    }

    static func settings(_ t: TableReader, paths: ProjectPaths) -> Settings? {
        let image = paths.check(t, "image", kind: .file)
        let tileSize = t.int("tile_size", in: 1...8192, required: false) ?? 254
        let overlap = t.int("overlap", in: 0...64, required: false) ?? 1
        let tileFormat = t.choice("tile_format", of: ["jpeg", "png", "webp"], required: false) ?? "jpeg"
        let quality = t.int("quality", in: 1...100, required: false) ?? 85
        let layout = t.choice("layout", of: ["dz", "iiif3"], required: false) ?? "dz"
        let background = t.string("background", required: false) ?? "#FFFFFF"
        if background != "none", background.range(of: "^#[0-9A-Fa-f]{6}$", options: .regularExpression) == nil {
            t.error("background", "\"\(background)\" is not a colour; expected #RRGGBB (e.g. \"#FFFFFF\", the default) or \"none\" to refuse a master with alpha")
        }
        if overlap * 2 >= tileSize {
            t.error("overlap", "an overlap of \(overlap) px leaves no tile content with tile_size \(tileSize); use an overlap under half the tile size")
        }
        t.rejectUnknownKeys(known: ["image", "tile_size", "overlap", "tile_format", "quality", "layout", "background"])
        guard let image else { return nil }
        return Settings(image: image, tileSize: tileSize, overlap: overlap, tileFormat: tileFormat, quality: quality, layout: layout,
                        background: background == "none" ? nil : background)
    }

    static func check(_ settings: Settings, needs: NoNeeds?, in env: CheckEnvironment) -> Checked<Plan> {
        let url = env.project.url(settings.image)
        // libvips reads only the header here, so a PNG cut short would
        // otherwise pass every check and fail part-way through tiling.
        if let problem = ImageFileCheck.problem(atPath: url.path) {
            env.problem(settings.image, problem)
            return .failed
        }
        let image: Image
        do {
            image = try Image(contentsOf: url.path, sequential: true)
        } catch {
            env.problem(settings.image, "not an image mcpack can read (\(error)); the master must be TIFF, PNG or JPEG")
            return .failed
        }
        guard let format = image.format, formats.contains(format) else {
            env.problem(settings.image, "is \(image.format ?? "an unknown format"); the master must be TIFF, PNG or JPEG")
            return .failed
        }
        guard let picture = PictureImport.check(image, path: settings.image, env: env) else { return .failed }
        if picture.facts.hasAlpha && settings.background == nil {
            env.problem(settings.image, "has an alpha channel, which tiles cannot show; remove it, or set [document] background = \"#RRGGBB\" in \(env.project.configDisplayPath) to flatten it onto that colour (white when the key is left out)")
            return .failed
        }
        let size = MasterSize(width: picture.width, height: picture.height, note: picture.sizeNote)
        return Checked(plan: Plan(settings: settings, format: format, size: size, picture: picture),
                       facts: [size, layout(settings, size: size)])
    }

    /// Where the pyramid's tiles will be and how they are cut. libvips
    /// writes IIIF tiles without overlap, and names JPEG ones `.jpg`.
    static func layout(_ settings: Settings, size: MasterSize) -> PyramidLayout {
        let iiif = settings.layout == "iiif3"
        let ext = iiif && settings.tileFormat == "jpeg" ? "jpg" : settings.tileFormat
        return PyramidLayout(name: pyramidName(settings.image), layout: settings.layout, width: size.width, height: size.height,
                             tileSize: settings.tileSize, overlap: iiif ? 0 : settings.overlap, tileExtension: ext)
    }

    static func make(_ plan: Plan, in env: MakeEnvironment) throws -> Made<Record> {
        let settings = plan.settings
        let source = env.source(settings.image)
        let name = pyramidName(settings.image)
        let pyramid = PyramidSettings(
            tileSize: settings.tileSize, overlap: settings.overlap, format: settings.tileFormat,
            quality: settings.quality, layout: settings.layout == "iiif3" ? .iiif3 : .deepZoom)
        let geometry = DeepZoomGeometry(width: plan.size.width, height: plan.size.height, tileSize: settings.tileSize, overlap: settings.overlap)
        var colour = PictureImport.Record(colourSpace: "", profile: nil, bits: 8, orientation: 1, conversions: [], assumedProfile: false)
        let key = WorkCache.key([source.sha256, name, "\(pyramid.tileSize)", "\(pyramid.overlap)", pyramid.format,
                                 "\(pyramid.quality)", pyramid.layout.rawValue, "colour-1", settings.background ?? "-"])
        let entry: WorkCache.Entry
        do {
            // Turning or flipping needs rows out of order: then libvips reads
            // the master whole, through a temporary file on disk if it is large.
            let master = try Image(contentsOf: env.project.url(settings.image).path, sequential: plan.picture.facts.orientation == 1)
            var (image, record) = try PictureImport.converted(master, plan.picture)
            if image.hasAlpha, let background = settings.background {
                let (r, g, b) = IconsInput.rgb(background)
                image = try image.flattened(red: r, green: g, blue: b)
                record.conversions.append("alpha flattened onto \(background)")
            }
            colour = record
            let started = Date()
            let total = geometry.totalTiles
            // libvips stamps vips-properties.xml with the date of tiling: it must not ship.
            entry = try env.cache("tiles").entry(key, damage: { env.report(.note($0)) },
                                                 leaveOut: { $0.hasSuffix("vips-properties.xml") }) { folder in
                try TilePyramid.write(image, to: folder, name: name, settings: pyramid) { percent, eta in
                    env.report(.tiling(percent: percent, secondsLeft: eta, tiles: total, elapsed: Date().timeIntervalSince(started)))
                }
            }
        } catch {
            throw env.failure(settings.image, "cannot make the tile pyramid: \(error)")
        }
        let tiles = entry.files.count { !$0.path.hasSuffix(".dzi") && !$0.path.hasSuffix("info.json") }
        let record = Record(
            image: settings.image, sha256: source.sha256, format: plan.format,
            width: plan.size.width, height: plan.size.height, name: name,
            levels: geometry.maxLevel + 1, tiles: tiles,
            settings: .init(tileSize: settings.tileSize, overlap: settings.overlap, tileFormat: settings.tileFormat,
                            quality: settings.quality, layout: settings.layout),
            picture: colour)
        return Made(payload: entry.payload(under: "document/"), record: record, cached: entry.reused)
    }

    /// The pyramid's name: the master's file name without its extension,
    /// made safe for a path (`magna-carta.tif` -> `magna-carta`).
    static func pyramidName(_ path: String) -> String {
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let safe = String(stem.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "-" })
        return safe.isEmpty ? "document" : safe
    }
}
