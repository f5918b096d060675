import Foundation

/// An asset catalog's Contents.json: what Xcode reads of an .appiconset or
/// an .imageset. Fields are optional on reading, as Xcode writes slots with
/// no file yet.
struct AssetCatalogContents: Codable, Equatable {
    struct Image: Codable, Equatable {
        var filename: String?
        var idiom: String?
        var scale: String?
        var size: String?
    }

    struct Info: Codable, Equatable {
        var author = "mcpack"
        var version = 1
    }

    var images: [Image]
    var info = Info()
}
