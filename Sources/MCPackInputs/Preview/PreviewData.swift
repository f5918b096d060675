import Foundation
import MCPackSchema

/// What the preview page's script draws: the bundle, where the document's
/// tiles are, the categories and the clauses. It is written into
/// index.html as a JSON script element (`id="bundle-data"`), not fetched,
/// since browsers refuse fetch() of a file:// URL; verify reads it back to
/// check it against clauses.json and categories.json.
package struct PreviewData: Codable, Equatable {
    /// The id of the script element holding the data in index.html.
    package static let elementID = "bundle-data"

    /// bundle.json's head (`BundleJSON.Info`) and beside its fields the
    /// archive's file name, for the lines on checking it.
    package struct BundleInfo: Codable, Equatable {
        package var info: BundleJSON.Info
        package var archive: String

        package init(info: BundleJSON.Info, archive: String) {
            self.info = info
            self.archive = archive
        }

        package init(from decoder: Decoder) throws {
            info = try BundleJSON.Info(from: decoder)
            archive = try decoder.container(keyedBy: AnyKey.self).decode(String.self, forKey: AnyKey("archive"))
        }

        package func encode(to encoder: Encoder) throws {
            try info.encode(to: encoder)
            var container = encoder.container(keyedBy: AnyKey.self)
            try container.encode(archive, forKey: AnyKey("archive"))
        }
    }

    /// The pyramid as the page's script reads it: the layout's fields, and
    /// where the page finds it, as written into the page (verify compares
    /// them with what bundle.json's record gives).
    package struct Document: Codable, Equatable {
        package var pyramid: PyramidLayout
        /// The deepest level's number: level 0 is 1 x 1 px, each doubles.
        package var maxLevel: Int
        /// The .dzi or info.json, relative to the page.
        package var descriptor: String
        /// The folder the tiles are under, relative to the page, ending in `/`.
        package var tiles: String

        package enum CodingKeys: String, CodingKey {
            case layout, width, height, tileSize = "tile_size", overlap, tileExtension = "tile_extension", maxLevel = "max_level"
            case descriptor, tiles
        }

        package init(_ pyramid: PyramidLayout) {
            self.pyramid = pyramid
            maxLevel = pyramid.geometry.maxLevel
            descriptor = "../" + pyramid.descriptorPath
            tiles = "../" + pyramid.tilesFolder
        }

        package func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(pyramid.layout, forKey: .layout)
            try c.encode(pyramid.width, forKey: .width)
            try c.encode(pyramid.height, forKey: .height)
            try c.encode(pyramid.tileSize, forKey: .tileSize)
            try c.encode(pyramid.overlap, forKey: .overlap)
            try c.encode(pyramid.tileExtension, forKey: .tileExtension)
            try c.encode(maxLevel, forKey: .maxLevel)
            try c.encode(descriptor, forKey: .descriptor)
            try c.encode(tiles, forKey: .tiles)
        }

        package init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let kind = try c.decode(PyramidLayout.Kind.self, forKey: .layout)
            descriptor = try c.decode(String.self, forKey: .descriptor)
            tiles = try c.decode(String.self, forKey: .tiles)
            maxLevel = try c.decode(Int.self, forKey: .maxLevel)
            // The page does not name the pyramid; its descriptor's path does.
            let file = (descriptor as NSString).lastPathComponent
            let name = kind == .iiif3 ? ((descriptor as NSString).deletingLastPathComponent as NSString).lastPathComponent
                                      : (file as NSString).deletingPathExtension
            pyramid = PyramidLayout(
                name: name, kind: kind,
                geometry: PyramidGeometry(width: try c.decode(Int.self, forKey: .width), height: try c.decode(Int.self, forKey: .height),
                                          tileSize: try c.decode(Int.self, forKey: .tileSize), overlap: try c.decode(Int.self, forKey: .overlap)),
                tileExtension: try c.decode(String.self, forKey: .tileExtension))
        }
    }

    /// A category of the menu and its icon's path relative to the page;
    /// nil when the bundle has no category icons (a project without them).
    package struct ShownCategory: Codable, Equatable {
        package var category: ClauseCategory
        package var icon: String?

        package init(_ category: ClauseCategory, icon path: String?) {
            self.category = category
            icon = path.map { "../" + $0 }
        }

        package func encode(to encoder: Encoder) throws {
            try category.encode(to: encoder, iconKey: "number", extra: icon.map { ["icon": $0] } ?? [:])
        }

        package init(from decoder: Decoder) throws {
            category = try ClauseCategory(from: decoder, iconKey: "number")
            icon = try decoder.container(keyedBy: AnyKey.self).decodeIfPresent(String.self, forKey: AnyKey("icon"))
        }
    }

    package var bundle: BundleInfo
    package var document: Document
    package var categories: [ShownCategory]
    package var clauses: [Clause]
    /// `[clauses] measured_width`, so that Measure mode gives the line to
    /// paste in the pixels clauses.toml is written in.
    package var measuredWidth: Int?

    package enum CodingKeys: String, CodingKey {
        case bundle, document, categories, clauses
        case measuredWidth = "measured_width"
    }
}

extension PreviewData {
    /// `icons`: the category icons by number, relative to data/.
    package init(bundle: BundleInfo, pyramid: PyramidLayout, clauses file: ClauseFile, icons: [Int: String] = [:], measuredWidth: Int? = nil) {
        self.bundle = bundle
        self.measuredWidth = measuredWidth
        document = Document(pyramid)
        // In icon order, as categories.json lists them.
        categories = CategoriesDocument(file.categories).categories.map { ShownCategory($0, icon: icons[$0.icon]) }
        clauses = file.clauses
    }

    /// The JSON as it stands in the page: compact, keys sorted, and every
    /// `<` escaped, so no text in it can close the script element.
    package var scriptJSON: String {
        String(decoding: JSON.encode(self, pretty: false), as: UTF8.self)
            .trimmingCharacters(in: .newlines)
            .replacingOccurrences(of: "<", with: "\\u003c")
    }

    /// The data of a page, as `scriptJSON` put it there; nil when the page
    /// has no such element.
    package static func read(fromPage html: String) -> Data? {
        guard let id = html.range(of: "id=\"\(elementID)\""),
              let open = html[id.upperBound...].firstIndex(of: ">"),
              let close = html.range(of: "</script>", range: html.index(after: open)..<html.endIndex) else { return nil }
        return Data(html[html.index(after: open)..<close.lowerBound].utf8)
    }
}

/// What Templates/preview sees: the bundle, the data for the script, and
/// the icon and launch sections, which the page shows as plain HTML.
package struct PreviewContext {
    package struct Icon {
        package var file: String
        package var src: String
        package var idiom: String
        /// In points, as Contents.json writes it ("83.5x83.5").
        package var size: String
        package var scale: String
        package var pixels: Int
        /// "default", "dark" or "tinted": the home screen it is for.
        package var appearance: String
    }

    package struct Screen {
        package var name: String
        package var src: String
        package var width: Int
        package var height: Int
        package var scale: Int
        package var orientation: String
    }

    package var title: String
    package var name: String
    package var version: String
    package var sourceDate: String
    package var archive: String
    package var mcpackVersion: String
    package var document: String
    package var clauseCount: Int
    package var categoryCount: Int
    package var data: String
    /// Whether Measure mode gives copy pixels (`[clauses] measured_width`), and that width.
    package var hasMeasuredWidth: Bool
    package var measuredWidth: Int
    package var hasIcons: Bool
    package var icons: [Icon]
    package var hasLaunch: Bool
    package var screens: [Screen]
    package var gallery: [Section]

    /// A section of pictures and sounds another input publishes, with each
    /// one's path from the page.
    package struct Section {
        package struct Shown {
            package var picture: PreviewSection.Picture
            package var src: String
        }

        package struct Played {
            package var sound: PreviewSection.Sound
            package var src: String
        }

        package var section: PreviewSection
        package var hasPictures: Bool
        package var pictures: [Shown]
        package var hasSounds: Bool
        package var sounds: [Played]
    }

    package init(data: PreviewData, icons: AppIconSet?, launch: LaunchScreens?, gallery: [PreviewSection] = []) {
        let bundle = data.bundle.info
        title = bundle.title
        name = bundle.name
        version = bundle.version
        sourceDate = bundle.sourceDate
        archive = data.bundle.archive
        mcpackVersion = MCPackVersion.current
        let d = data.document, pyramid = d.pyramid
        document = "\(pyramid.width) x \(pyramid.height) px, \(pyramid.kind == .iiif3 ? "IIIF" : "Deep Zoom"), \(d.maxLevel + 1) levels of \(pyramid.tileSize) px tiles"
        clauseCount = data.clauses.count
        categoryCount = data.categories.count
        self.data = data.scriptJSON
        hasMeasuredWidth = data.measuredWidth != nil
        measuredWidth = data.measuredWidth ?? 0
        // One entry a file: Contents.json may name a file for two slots.
        var seen = Set<String>()
        self.icons = (icons?.contents.images ?? []).compactMap { image in
            guard let file = image.filename, let size = image.size, seen.insert(file).inserted else { return nil }
            // The single-size entries have no scale: 1024 pt at 1x.
            let scale = image.scale ?? "1x"
            // A size or scale Xcode would not take (verify names it) shows
            // as 0 px rather than trapping on NaN or overflow.
            let pixels = image.points.flatMap { points in image.scaleFactor.map { Int((points.width * Double($0)).rounded()) } } ?? 0
            return Icon(file: file, src: "../\(AssetCatalog.appIconSet)/\(file)", idiom: image.idiom ?? "", size: size, scale: scale,
                        pixels: pixels, appearance: image.appearanceName)
        }
        hasIcons = !self.icons.isEmpty
        screens = (launch?.screens ?? []).map { screen in
            let name = "\(screen.width)x\(screen.height)"
            return Screen(name: name, src: "../launch/preview/\(name).png", width: screen.width, height: screen.height,
                          scale: screen.scale, orientation: screen.width < screen.height ? "portrait" : "landscape")
        }
        hasLaunch = !screens.isEmpty
        self.gallery = gallery.filter { !$0.pictures.isEmpty || !$0.sounds.isEmpty }.map { section in
            Section(section: section, hasPictures: !section.pictures.isEmpty,
                    pictures: section.pictures.map { Section.Shown(picture: $0, src: "../" + $0.path) },
                    hasSounds: !section.sounds.isEmpty, sounds: section.sounds.map { Section.Played(sound: $0, src: "../" + $0.path) })
        }
    }
}
