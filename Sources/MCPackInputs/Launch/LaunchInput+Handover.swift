import MCPackSchema

extension LaunchInput {
    /// The launch screen's four parts: what Xcode takes (the catalog and
    /// the storyboard) and what people check it by (crops and previews).
    package static func handover(_ record: Record, files: [String]) -> [HandoverPart] {
        let screens = record.screens.count
        var parts: [HandoverPart] = []
        let background = AssetCatalog.launchSet(AssetCatalog.launchBackground) + "/"
        let text = AssetCatalog.launchSet(AssetCatalog.launchText) + "/"
        if files.contains(where: { $0.hasPrefix(background) }) {
            parts.append(HandoverPart(path: background, purpose: "the launch screen's background in the catalog, `\(AssetCatalog.launchBackground)`, from `\(record.background)`"))
        }
        if files.contains(where: { $0.hasPrefix(text) }) {
            parts.append(HandoverPart(path: text, purpose: "the launch screen's text layer in the catalog, `\(AssetCatalog.launchText)`, from `\(record.text)` at @1x, @2x and @3x"))
        }
        for file in files where file.hasSuffix(".storyboard") {
            parts.append(HandoverPart(path: file, purpose: "the launch screen: the background aspect-fill, the text centred at \(record.textPoints.map(String.init).joined(separator: " x ")) pt"))
        }
        parts.append(HandoverPart(path: "launch/screens/", purpose: "the background cropped to cover each of the \(screens) iPad screens, `<width>x<height>.png`"))
        parts.append(HandoverPart(path: "launch/preview/", purpose: "what each of the \(screens) iPad screens will show at launch, composited, for review"))
        return parts
    }
}
