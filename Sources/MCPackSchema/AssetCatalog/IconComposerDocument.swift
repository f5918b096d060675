import Foundation

/// The `icon.json` of an Icon Composer document (Xcode 26's `.icon`: a
/// folder with icon.json and the layers' pictures under Assets/), as far as
/// mcpack reads it: its groups and their layers' pictures. Everything else
/// (fills, glass, shadows, specializations) is Icon Composer's and is
/// shipped as it is, byte for byte; unknown keys are ignored on reading.
///
/// The shape is that of icon.json files Icon Composer wrote in public
/// projects, e.g. github.com/e-marchand/TestAppIcon,
/// TestAppIcon/AppIcon.icon/icon.json: `groups[].layers[]` with `name`
/// and `image-name`, and `supported-platforms`.
public struct IconComposerDocument: Codable, Equatable, Sendable {
    public struct Layer: Codable, Equatable, Sendable {
        public var name: String?
        /// A file under the document's Assets/ folder.
        public var imageName: String?
        public var hidden: Bool?

        enum CodingKeys: String, CodingKey { case name, imageName = "image-name", hidden }

        public init(name: String?, imageName: String?, hidden: Bool? = nil) {
            self.name = name
            self.imageName = imageName
            self.hidden = hidden
        }
    }

    public struct Group: Codable, Equatable, Sendable {
        public var name: String?
        public var layers: [Layer]

        public init(name: String? = nil, layers: [Layer]) {
            self.name = name
            self.layers = layers
        }
    }

    public var groups: [Group]

    public init(groups: [Group]) { self.groups = groups }

    /// The folder a document's pictures sit in, beside icon.json.
    public static let assetsFolder = "Assets"

    /// Every layer with where it is in icon.json ("groups[0].layers[1]").
    public var layers: [(location: String, layer: Layer)] {
        groups.enumerated().flatMap { g, group in
            group.layers.enumerated().map { l, layer in ("groups[\(g)].layers[\(l)]", layer) }
        }
    }
}
