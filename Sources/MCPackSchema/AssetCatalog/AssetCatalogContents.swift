import Foundation

/// An asset catalog's Contents.json: what Xcode reads of an .appiconset or
/// an .imageset. Fields are optional on reading, as Xcode writes slots with
/// no file yet.
public struct AssetCatalogContents: Codable, Equatable, Sendable {
    public struct Image: Codable, Equatable, Sendable {
        public var filename: String?
        public var idiom: String?
        public var scale: String?
        public var size: String?

        public init(filename: String? = nil, idiom: String? = nil, scale: String? = nil, size: String? = nil) {
            self.filename = filename
            self.idiom = idiom
            self.scale = scale
            self.size = size
        }
    }

    public struct Info: Codable, Equatable, Sendable {
        public var author = "mcpack"
        public var version = 1

        public init() {}
    }

    public var images: [Image]
    public var info = Info()

    public init(images: [Image]) {
        self.images = images
    }
}
