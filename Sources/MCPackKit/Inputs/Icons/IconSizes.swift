/// The icon sizes an iOS asset catalog asks for, by idiom
/// (Apple's AppIcon.appiconset for iOS 7 and later).
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
                return [("20", 1), ("20", 2), ("29", 1), ("29", 2), ("40", 1), ("40", 2), ("76", 1), ("76", 2), ("83.5", 2)]
                    .map { IconSlot(idiom: idiom, points: $0.0, scale: $0.1) }
            case "ios-marketing":
                return [IconSlot(idiom: idiom, points: "1024", scale: 1)]
            default:
                return []
            }
        }
    }
}
