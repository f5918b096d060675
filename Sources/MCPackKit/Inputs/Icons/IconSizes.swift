import MCPackSchema

/// The icon sizes an iOS asset catalog asks for, by idiom, for
/// `[icon] sizes = "all"` (Apple's AppIcon.appiconset for iOS 7 and later).
/// The iPad @1x slots (20, 29, 40 and 76 pt) are left out: only non-Retina
/// iPads used them, and none runs an iOS later than 9, so current Xcode
/// reports them as unused (REFERENCE.md, icon sizes).
struct IconSlot: Equatable {
    var idiom: String
    /// Points, as Contents.json writes them ("83.5").
    var points: String
    var scale: Int

    var pixels: Int { Int((Double(points)! * Double(scale)).rounded()) }
    var filename: String { "AppIcon-\(points)@\(scale)x.png" }

    static func slots(for idioms: [String]) -> [IconSlot] {
        idioms.flatMap { idiom -> [IconSlot] in
            switch idiom {
            case "iphone":
                return [("20", 2), ("20", 3), ("29", 2), ("29", 3), ("40", 2), ("40", 3), ("60", 2), ("60", 3)]
                    .map { IconSlot(idiom: idiom, points: $0.0, scale: $0.1) }
            case "ipad":
                return [("20", 2), ("29", 2), ("40", 2), ("76", 2), ("83.5", 2)]
                    .map { IconSlot(idiom: idiom, points: $0.0, scale: $0.1) }
            case "ios-marketing":
                return [IconSlot(idiom: idiom, points: "1024", scale: 1)]
            default:
                return []
            }
        }
    }

    /// Slots only very old iOS versions read, which current Xcode reports
    /// as unused; no slot mcpack writes is one of them.
    static let deprecated: [IconSlot] = [("20", 1), ("29", 1), ("40", 1), ("76", 1)]
        .map { IconSlot(idiom: "ipad", points: $0.0, scale: $0.1) }
}

/// The appearances of the single-size app icon (iOS 18 and later): the
/// default, dark and tinted home screens.
enum IconAppearance: String, Codable, Sendable, CaseIterable {
    case `default`, dark, tinted

    /// The file in the icon set.
    var filename: String { self == .default ? "AppIcon.png" : "AppIcon-\(rawValue).png" }

    /// Its Contents.json entry: the universal 1024 pt iOS icon, with its
    /// luminosity appearance unless it is the default.
    var entry: AssetCatalogContents.Image {
        AssetCatalogContents.Image(appearances: self == .default ? nil : [.init(value: rawValue)], filename: filename,
                                  idiom: "universal", platform: "ios", size: "1024x1024")
    }
}
