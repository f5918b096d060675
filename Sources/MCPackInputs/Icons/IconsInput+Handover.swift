import MCPackSchema

extension IconsInput {
    package static func handover(_ record: Record, files: [String]) -> [HandoverPart] {
        let appearances = ["default"] + [record.dark.map { _ in "dark" }, record.tinted.map { _ in "tinted" }].compactMap { $0 }
        let what = record.sizes == .all
            ? "\(record.icons.count) sizes made from `\(record.master)`, Xcode's \"All Sizes\" set for iOS (iPhone and iPad alike)"
            : "one 1024 x 1024 px picture per appearance (\(appearances.joined(separator: ", "))) made from `\(record.master)`"
                + (record.dark.map { ", `\($0.master)`" } ?? "") + (record.tinted.map { " and `\($0.master)` (made greyscale)" } ?? "")
        var parts = [HandoverPart(
            path: AssetCatalog.appIconSet + "/",
            purpose: "the app icon set `\(AssetCatalog.appIconName)` in the catalog, `Contents.json` and \(what); the App Store icon has no alpha")]
        if files.contains(where: { $0.hasPrefix(IconComposer.bundleFolder + "/") }) {
            parts.append(HandoverPart(path: IconComposer.bundleFolder + "/",
                                      purpose: "the Icon Composer document as it was given, which Xcode 26 pairs with the icon set of the same name"))
        }
        return parts
    }
}
