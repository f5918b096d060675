import Foundation

/// What the preview page's script draws: the bundle, where the document's
/// tiles are, the categories and the clauses. It is written into
/// index.html as a JSON script element (`id="bundle-data"`), not fetched,
/// since browsers refuse fetch() of a file:// URL; verify reads it back to
/// check it against clauses.json and categories.json.
struct PreviewData: Codable, Equatable {
    /// The id of the script element holding the data in index.html.
    static let elementID = "bundle-data"

    struct BundleInfo: Codable, Equatable {
        var name: String
        var version: String
        var title: String
        var sourceDate: String
        /// The archive's file name, for the lines on checking it.
        var archive: String

        enum CodingKeys: String, CodingKey { case name, version, title, sourceDate = "source_date", archive }
    }

    struct Document: Codable, Equatable {
        var layout: String
        var width: Int
        var height: Int
        var tileSize: Int
        var overlap: Int
        var tileExtension: String
        /// The deepest level's number: level 0 is 1 x 1 px, each doubles.
        var maxLevel: Int
        /// The .dzi or info.json, relative to the page.
        var descriptor: String
        /// The folder the tiles are under, relative to the page, ending in `/`.
        var tiles: String

        enum CodingKeys: String, CodingKey {
            case layout, width, height, tileSize = "tile_size", overlap, tileExtension = "tile_extension", maxLevel = "max_level"
            case descriptor, tiles
        }

        /// Where the page finds the pyramid, relative to the page.
        init(_ pyramid: PyramidLayout) {
            let geometry = DeepZoomGeometry(width: pyramid.width, height: pyramid.height, tileSize: pyramid.tileSize, overlap: pyramid.overlap)
            let iiif = pyramid.layout == "iiif3"
            layout = pyramid.layout
            width = pyramid.width
            height = pyramid.height
            tileSize = pyramid.tileSize
            overlap = pyramid.overlap
            tileExtension = pyramid.tileExtension
            maxLevel = geometry.maxLevel
            descriptor = iiif ? "../document/\(pyramid.name)/info.json" : "../document/\(pyramid.name).dzi"
            tiles = iiif ? "../document/\(pyramid.name)/" : "../document/\(pyramid.name)_files/"
        }
    }

    struct Category: Codable, Equatable {
        var number: Int
        var name: String
        var filter: String?
        /// The icon, relative to the page.
        var icon: String

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(number, forKey: .number)
            try container.encode(name, forKey: .name)
            try container.encode(filter, forKey: .filter)
            try container.encode(icon, forKey: .icon)
        }
    }

    struct Clause: Codable, Equatable {
        var id: String
        var title: String
        var categories: [String]
        var colour: String
        var translation: String
        var context: String
        /// x, y, width, height in master pixels.
        var overlays: [[Int]]
    }

    var bundle: BundleInfo
    var document: Document
    var categories: [Category]
    var clauses: [Clause]
}

extension PreviewData {
    init(bundle: BundleInfo, pyramid: PyramidLayout, clauses file: ClauseFile) {
        self.bundle = bundle
        document = Document(pyramid)
        // In icon order, as categories.json lists them.
        categories = file.categories.sorted { $0.icon < $1.icon }.map {
            Category(number: $0.icon, name: $0.name, filter: $0.filter, icon: "../categories/\($0.icon).png")
        }
        clauses = file.clauses.map { clause in
            Clause(id: clause.id, title: clause.title, categories: clause.categories, colour: clause.colour,
                   translation: clause.translation, context: clause.context,
                   overlays: clause.overlays.map { [$0.x, $0.y, $0.width, $0.height] })
        }
    }

    /// The JSON as it stands in the page: compact, keys sorted, and every
    /// `<` escaped, so no text in it can close the script element.
    var scriptJSON: String {
        String(decoding: JSON.encode(self, pretty: false), as: UTF8.self)
            .trimmingCharacters(in: .newlines)
            .replacingOccurrences(of: "<", with: "\\u003c")
    }

    /// The data of a page, as `scriptJSON` put it there; nil when the page
    /// has no such element.
    static func read(fromPage html: String) -> Data? {
        guard let id = html.range(of: "id=\"\(elementID)\""),
              let open = html[id.upperBound...].firstIndex(of: ">"),
              let close = html.range(of: "</script>", range: html.index(after: open)..<html.endIndex) else { return nil }
        return Data(html[html.index(after: open)..<close.lowerBound].utf8)
    }
}

/// What Templates/preview sees: the bundle, the data for the script, and
/// the icon and launch sections, which the page shows as plain HTML.
struct PreviewContext {
    struct Icon {
        var file: String
        var src: String
        var idiom: String
        /// In points, as Contents.json writes it ("83.5x83.5").
        var size: String
        var scale: String
        var pixels: Int
    }

    struct Screen {
        var name: String
        var src: String
        var width: Int
        var height: Int
        var scale: Int
        var orientation: String
    }

    var title: String
    var name: String
    var version: String
    var sourceDate: String
    var archive: String
    var mcpackVersion: String
    var document: String
    var clauseCount: Int
    var categoryCount: Int
    var data: String
    var hasIcons: Bool
    var icons: [Icon]
    var hasLaunch: Bool
    var screens: [Screen]

    init(data: PreviewData, icons: AppIconSet?, launch: LaunchScreens?) {
        let bundle = data.bundle
        title = bundle.title
        name = bundle.name
        version = bundle.version
        sourceDate = bundle.sourceDate
        archive = bundle.archive
        mcpackVersion = MCPackVersion.current
        let d = data.document
        document = "\(d.width) x \(d.height) px, \(d.layout == "iiif3" ? "IIIF" : "Deep Zoom"), \(d.maxLevel + 1) levels of \(d.tileSize) px tiles"
        clauseCount = data.clauses.count
        categoryCount = data.categories.count
        self.data = data.scriptJSON
        // One entry a file: Contents.json may name a file for two slots.
        var seen = Set<String>()
        self.icons = (icons?.contents.images ?? []).compactMap { image in
            guard let file = image.filename, let size = image.size, let scale = image.scale, seen.insert(file).inserted else { return nil }
            let points = Double(size.split(separator: "x").first ?? "") ?? 0
            let factor = Double(scale.dropLast()) ?? 0
            return Icon(file: file, src: "../icons/AppIcon.appiconset/\(file)", idiom: image.idiom ?? "", size: size, scale: scale,
                        pixels: Int((points * factor).rounded()))
        }
        hasIcons = !self.icons.isEmpty
        screens = (launch?.screens ?? []).map { screen in
            let name = "\(screen.width)x\(screen.height)"
            return Screen(name: name, src: "../launch/preview/\(name).png", width: screen.width, height: screen.height,
                          scale: screen.scale, orientation: screen.width < screen.height ? "portrait" : "landscape")
        }
        hasLaunch = !screens.isEmpty
    }
}
