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

        public init(appearances: [Appearance]? = nil, filename: String? = nil, idiom: String? = nil, platform: String? = nil,
                    scale: String? = nil, size: String? = nil) {
            self.appearances = appearances
            self.filename = filename
            self.idiom = idiom
            self.platform = platform
            self.scale = scale
            self.size = size
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
    }

    /// A folder's namespace flag; absent for the catalog and image sets.
    public struct Properties: Codable, Equatable, Sendable {
        public var providesNamespace: Bool

        enum CodingKeys: String, CodingKey { case providesNamespace = "provides-namespace" }

        public init(providesNamespace: Bool) { self.providesNamespace = providesNamespace }
    }

    /// Absent in the catalog's own Contents.json and in a folder's.
    public var images: [Image]?
    public var info = Info()
    public var properties: Properties?

    public init(images: [Image]?, properties: Properties? = nil) {
        self.images = images
        self.properties = properties
    }

    /// The Contents.json of the catalog itself, or of a folder in it that
    /// gives its images no namespace: only `info`.
    public static let folder = AssetCatalogContents(images: nil)
}
