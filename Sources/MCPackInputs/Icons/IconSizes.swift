import MCPackSchema

/// The slots of `[icon] sizes = "all"`: what Xcode 14 and later write
/// when "All Sizes" is chosen for iOS, one universal iOS set that serves
/// iPhone and iPad alike (`"idiom" : "universal", "platform" : "ios"`),
/// in Xcode's order, the 1024 pt entry without a scale as in the
/// single-size set. The shape is that of a set Xcode wrote in a public
/// project, github.com/Manraj21-goku/Kaio-Flex-iOS-App- at
/// 5124c5b1fbaff8b32af1a149fb0f471b34b85122, AppIcon.appiconset/Contents.json
/// (its 16 entries, a screenshot of 2023-07-29 dragged into one slot);
/// the per-idiom sets before Xcode 14 (iphone, ipad, ios-marketing) have
/// iPad @1x slots current Xcode reports as unused.
package struct IconSlot: Equatable {
    /// Points, as Contents.json writes them ("83.5").
    package var points: String
    package var scale: Int

    package var pixels: Int { Int((Double(points)! * Double(scale)).rounded()) }
    package var isStoreIcon: Bool { points == "1024" }
    /// The store icon is the single-size set's AppIcon.png, so that moving
    /// between the two forms leaves that file as it is.
    package var filename: String { isStoreIcon ? IconAppearance.default.filename : "AppIcon-\(points)@\(scale)x.png" }

    package var entry: AssetCatalogContents.Image {
        AssetCatalogContents.Image(filename: filename, idiom: "universal", platform: "ios", scale: isStoreIcon ? nil : "\(scale)x",
                                  size: "\(points)x\(points)")
    }

    package static let allSizes: [IconSlot] = [
        ("20", 2), ("20", 3), ("29", 2), ("29", 3), ("38", 2), ("38", 3), ("40", 2), ("40", 3), ("60", 2), ("60", 3),
        ("64", 2), ("64", 3), ("68", 2), ("76", 2), ("83.5", 2), ("1024", 1),
    ].map { IconSlot(points: $0.0, scale: $0.1) }
}

/// The appearances of the single-size app icon (iOS 18 and later): the
/// default, dark and tinted home screens.
package enum IconAppearance: String, Codable, Sendable, CaseIterable {
    case `default`, dark, tinted

    /// The file in the icon set.
    package var filename: String { self == .default ? "AppIcon.png" : "AppIcon-\(rawValue).png" }

    /// Its Contents.json entry: the universal 1024 pt iOS icon, with its
    /// luminosity appearance unless it is the default.
    package var entry: AssetCatalogContents.Image {
        AssetCatalogContents.Image(appearances: self == .default ? nil : [.init(value: rawValue)], filename: filename,
                                  idiom: "universal", platform: "ios", size: "1024x1024")
    }
}
