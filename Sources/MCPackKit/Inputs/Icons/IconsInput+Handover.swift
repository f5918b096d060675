extension IconsInput {
    static func handover(_ record: Record, files: [String]) -> [HandoverPart] {
        let folder = files.first.map { path -> String in
            let parts = path.split(separator: "/")
            return parts.count > 2 ? parts.prefix(2).joined(separator: "/") + "/" : "icons/"
        } ?? "icons/AppIcon.appiconset/"
        return [HandoverPart(
            path: folder,
            purpose: "the app icon set for Xcode, `Contents.json` and \(record.icons.count) sizes made from `\(record.master)` for \(record.idioms.joined(separator: ", ")); the store icon has no alpha")]
    }
}
