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

    /// Which platforms the document is for, by icon shape.
    public struct SupportedPlatforms: Codable, Equatable, Sendable {
        public enum Squares: Equatable, Sendable {
            /// Every square-icon platform: iOS and macOS.
            case shared
            case only([String])
        }

        public var squares: Squares?
        public var circles: [String]?

        enum CodingKeys: String, CodingKey { case squares, circles }

        public init(squares: Squares?, circles: [String]? = nil) {
            self.squares = squares
            self.circles = circles
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let list = try? container.decodeIfPresent([String].self, forKey: .squares) {
                squares = .only(list)
            } else if let word = try? container.decodeIfPresent(String.self, forKey: .squares) {
                // Only "shared" has been seen; another word is taken as the
                // name of one platform, as a list of one would be.
                squares = word == "shared" ? .shared : .only([word])
            }
            circles = try? container.decodeIfPresent([String].self, forKey: .circles)
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch squares {
            case .shared?: try container.encode("shared", forKey: .squares)
            case .only(let list)?: try container.encode(list, forKey: .squares)
            case nil: break
            }
            try container.encodeIfPresent(circles, forKey: .circles)
        }

        /// True when an iOS (or iPadOS) app gets its icon from the document.
        public var includesIOS: Bool {
            switch squares {
            case .shared?: return true
            case .only(let list)?: return list.contains { $0.caseInsensitiveCompare("iOS") == .orderedSame }
            case nil: return false
            }
        }

        /// The platforms as a message names them: "macOS (square icon) and
        /// watchOS (round icon)".
        public var described: String {
            var parts: [String] = []
            switch squares {
            case .shared?: parts.append("every square-icon platform")
            case .only(let list)? where !list.isEmpty: parts.append("\(list.joined(separator: ", ")) (square icon)")
            default: break
            }
            if let circles, !circles.isEmpty { parts.append("\(circles.joined(separator: ", ")) (round icon)") }
            return parts.isEmpty ? "no platform" : parts.joined(separator: " and ")
        }
    }

    public var groups: [Group]
    /// Absent in a document written before Icon Composer recorded it;
    /// then nothing is known of its platforms.
    public var supportedPlatforms: SupportedPlatforms?

    enum CodingKeys: String, CodingKey { case groups, supportedPlatforms = "supported-platforms" }

    public init(groups: [Group], supportedPlatforms: SupportedPlatforms? = nil) {
        self.groups = groups
        self.supportedPlatforms = supportedPlatforms
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        groups = try container.decode([Group].self, forKey: .groups)
        supportedPlatforms = try? container.decodeIfPresent(SupportedPlatforms.self, forKey: .supportedPlatforms)
    }

    /// Why an iOS app's asset catalog cannot take this document, or nil
    /// when it can (its platforms include iOS, or it does not say).
    public var notForIOS: String? {
        guard let platforms = supportedPlatforms, !platforms.includesIOS else { return nil }
        return "supported-platforms lists \(platforms.described), not iOS; the bundle is for an iPad app, whose icon the document must "
            + "draw for iOS. Add iOS to the document's platforms in Icon Composer and save it again"
    }

    /// The folder a document's pictures sit in, beside icon.json.
    public static let assetsFolder = "Assets"

    /// Every layer with where it is in icon.json ("groups[0].layers[1]").
    public var layers: [(location: String, layer: Layer)] {
        groups.enumerated().flatMap { g, group in
            group.layers.enumerated().map { l, layer in ("groups[\(g)].layers[\(l)]", layer) }
        }
    }
}
