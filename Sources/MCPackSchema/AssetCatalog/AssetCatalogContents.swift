import Foundation

/// An asset catalog's Contents.json: what Xcode reads of the catalog
/// itself, a folder in it, an .appiconset or an .imageset. Fields are
/// optional on reading, as Xcode writes slots with no file yet (a dark or
/// tinted slot left empty) and a catalog or folder has no images at all.
///
/// The keys are Xcode's own: its files write `appearances`, `filename`,
/// `idiom`, `platform`, `scale` and `size` on an image, in that (sorted)
/// order, and `author` and `version` under `info`; JSON.encode sorts keys
/// as Xcode does.
public struct AssetCatalogContents: Codable, Equatable, Sendable {
    /// A variant of an image for one appearance: iOS 18's dark and tinted
    /// home screen icons are `{"appearance": "luminosity", "value": "dark"}`.
    public struct Appearance: Codable, Equatable, Sendable {
        public var appearance: String
        public var value: String

        public init(appearance: String = "luminosity", value: String) {
            self.appearance = appearance
            self.value = value
        }

        public static let dark = Appearance(value: "dark")
        public static let tinted = Appearance(value: "tinted")
    }

    public struct Image: Codable, Equatable, Sendable {
        public var appearances: [Appearance]?
        public var filename: String?
        public var idiom: String?
        public var platform: String?
        public var scale: String?
        public var size: String?
        /// What else tells two entries of one set apart in the sets Xcode
        /// writes, each absent unless the set varies by it: a localized
        /// set's `locale` ("en", "fr"), `language-direction`,
        /// `display-gamut` ("sRGB", "display-P3"), `width-class` and
        /// `height-class` ("compact", "regular") and `subtype`. mcpack
        /// writes none of them; verify reads them so that a localized set
        /// is not taken for one whose entries repeat a slot.
        public var locale: String?
        public var languageDirection: String?
        public var displayGamut: String?
        public var widthClass: String?
        public var heightClass: String?
        public var subtype: String?

        enum CodingKeys: String, CodingKey {
            case appearances, filename, idiom, platform, scale, size, locale, subtype
            case languageDirection = "language-direction", displayGamut = "display-gamut"
            case widthClass = "width-class", heightClass = "height-class"
        }

        public init(appearances: [Appearance]? = nil, filename: String? = nil, idiom: String? = nil, platform: String? = nil,
                    scale: String? = nil, size: String? = nil) {
            self.appearances = appearances
            self.filename = filename
            self.idiom = idiom
            self.platform = platform
            self.scale = scale
            self.size = size
        }

        /// Every way this entry's variant differs from another's but its
        /// scale, as one string: entries with the same key and scale fill
        /// the same slot; an image set's @2x and @3x are measured against
        /// the @1x of the same key.
        public var variantKey: String {
            [idiom, platform, size, appearanceName, locale, languageDirection, displayGamut, widthClass, heightClass, subtype]
                .map { $0 ?? "" }.joined(separator: "|")
        }

        /// "default", "dark" or "tinted" for a luminosity appearance; what
        /// a message or a diff calls this entry's appearance.
        public var appearanceName: String {
            appearances?.first { $0.appearance == "luminosity" }?.value ?? "default"
        }

        /// The scale as a number: 1, 2 or 3 for "1x", "2x" or "3x", 1 when
        /// there is none; nil for anything else, which Xcode does not take
        /// and which no pixel arithmetic should meet (a huge one overflows).
        public var scaleFactor: Int? {
            guard let scale else { return 1 }
            guard scale.hasSuffix("x"), let value = Int(scale.dropLast()), (1...3).contains(value) else { return nil }
            return value
        }

        /// The size in points when it is WIDTHxHEIGHT, each above 0 and at
        /// most 10000; nil when there is no size or it is not such ("nan",
        /// "inf" and "1e308" read as numbers but trap when made pixels).
        public var points: (width: Double, height: Double)? {
            let parts = (size ?? "").split(separator: "x", omittingEmptySubsequences: false).map { Double($0) }
            guard parts.count == 2, let width = parts[0], let height = parts[1],
                  [width, height].allSatisfy({ $0.isFinite && $0 > 0 && $0 <= 10_000 }) else { return nil }
            return (width, height)
        }
    }

    public struct Info: Codable, Equatable, Sendable {
        public var author = "mcpack"
        public var version = 1

        public init() {}

        enum CodingKeys: String, CodingKey { case author, version }

        /// Lenient: Xcode reads a catalog whose info lacks either key.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            author = (try? container.decodeIfPresent(String.self, forKey: .author)) ?? "mcpack"
            version = (try? container.decodeIfPresent(Int.self, forKey: .version)) ?? 1
        }
    }

    /// A folder's or a set's `properties`. mcpack writes only a folder's
    /// `provides-namespace`; Xcode writes others on image sets, e.g.
    /// `"template-rendering-intent" : "template"` (NetNewsWire's
    /// Mac/Resources/Assets.xcassets/filterActive.imageset),
    /// `"preserves-vector-representation" : true` (mastodon-ios's
    /// Communication/share.imageset), `"compression-type" : "automatic"`
    /// (IceCubesApp's HexagonPlus.imageset) and `"localizable" : true`.
    /// None is mcpack's to judge, so every field is optional, one of an
    /// unexpected type is read as absent, and unknown keys are ignored:
    /// a catalog Xcode wrote verifies whatever properties it carries.
    public struct Properties: Codable, Equatable, Sendable {
        public var providesNamespace: Bool?
        public var templateRenderingIntent: String?
        public var preservesVectorRepresentation: Bool?
        public var compressionType: String?
        public var localizable: Bool?

        enum CodingKeys: String, CodingKey {
            case providesNamespace = "provides-namespace", templateRenderingIntent = "template-rendering-intent"
            case preservesVectorRepresentation = "preserves-vector-representation", compressionType = "compression-type"
            case localizable
        }

        public init(providesNamespace: Bool? = nil, templateRenderingIntent: String? = nil, preservesVectorRepresentation: Bool? = nil,
                    compressionType: String? = nil, localizable: Bool? = nil) {
            self.providesNamespace = providesNamespace
            self.templateRenderingIntent = templateRenderingIntent
            self.preservesVectorRepresentation = preservesVectorRepresentation
            self.compressionType = compressionType
            self.localizable = localizable
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            providesNamespace = try? container.decodeIfPresent(Bool.self, forKey: .providesNamespace)
            templateRenderingIntent = try? container.decodeIfPresent(String.self, forKey: .templateRenderingIntent)
            preservesVectorRepresentation = try? container.decodeIfPresent(Bool.self, forKey: .preservesVectorRepresentation)
            compressionType = try? container.decodeIfPresent(String.self, forKey: .compressionType)
            localizable = try? container.decodeIfPresent(Bool.self, forKey: .localizable)
        }
    }

    /// Absent in the catalog's own Contents.json and in a folder's.
    public var images: [Image]?
    public var info = Info()
    public var properties: Properties?

    public init(images: [Image]?, properties: Properties? = nil) {
        self.images = images
        self.properties = properties
    }

    enum CodingKeys: String, CodingKey { case images, info, properties }

    /// `info` may be absent, and `properties` unreadable, without the file
    /// failing to read: neither is what verify holds a catalog to.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        images = try container.decodeIfPresent([Image].self, forKey: .images)
        info = try container.decodeIfPresent(Info.self, forKey: .info) ?? Info()
        properties = try? container.decodeIfPresent(Properties.self, forKey: .properties)
    }

    /// The Contents.json of the catalog itself, or of a folder in it that
    /// gives its images no namespace: only `info`.
    public static let folder = AssetCatalogContents(images: nil)
}
