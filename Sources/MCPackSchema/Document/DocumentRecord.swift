import Foundation

/// The document's record in bundle.json (`components.document`): the
/// master it was made from and how its pyramid was cut, which is what a
/// reader needs to find the pyramid (`layout`).
public struct DocumentRecord: Codable, Sendable, Equatable {
    public static let component = "document"

    public struct PyramidSettings: Codable, Sendable, Equatable {
        public var tileSize: Int
        public var overlap: Int
        public var tileFormat: String
        public var quality: Int
        public var layout: String
        /// The IIIF service's base; absent for Deep Zoom.
        public var iiifBaseURL: String?

        public init(tileSize: Int, overlap: Int, tileFormat: String, quality: Int, layout: String, iiifBaseURL: String? = nil) {
            self.tileSize = tileSize
            self.overlap = overlap
            self.tileFormat = tileFormat
            self.quality = quality
            self.layout = layout
            self.iiifBaseURL = iiifBaseURL
        }

        enum CodingKeys: String, CodingKey {
            case tileSize = "tile_size", overlap, tileFormat = "tile_format", quality, layout, iiifBaseURL = "iiif_base_url"
        }
    }

    public var image: String
    public var sha256: String
    public var format: String
    public var width: Int
    public var height: Int
    /// The pyramid's name: its .dzi or IIIF folder under data/document/.
    public var name: String
    public var levels: Int
    public var tiles: Int
    public var settings: PyramidSettings
    /// What the master file was and what was done to it; absent in
    /// bundles made before mcpack converted colour.
    public var picture: PictureRecord?
    /// The libvips version that cut the tiles: another version may encode
    /// other bytes, so a later build copies tiles from this bundle only
    /// when its own libvips is the same. Absent in older bundles.
    public var libvips: String?

    public init(image: String, sha256: String, format: String, width: Int, height: Int, name: String, levels: Int, tiles: Int,
                settings: PyramidSettings, picture: PictureRecord? = nil, libvips: String? = nil) {
        self.image = image
        self.sha256 = sha256
        self.format = format
        self.width = width
        self.height = height
        self.name = name
        self.levels = levels
        self.tiles = tiles
        self.settings = settings
        self.picture = picture
        self.libvips = libvips
    }

    /// Where the pyramid is and how it is cut; nil for a layout this
    /// version does not know.
    public var layout: PyramidLayout? {
        guard let kind = PyramidLayout.Kind(rawValue: settings.layout) else { return nil }
        return PyramidLayout(name: name, kind: kind, width: width, height: height, tileSize: settings.tileSize,
                             overlap: settings.overlap, tileFormat: settings.tileFormat)
    }
}
