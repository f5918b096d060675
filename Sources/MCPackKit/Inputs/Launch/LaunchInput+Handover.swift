extension LaunchInput {
    /// The launch screen's four parts: what Xcode takes (the catalog and
    /// the storyboard) and what people check it by (crops and previews).
    static func handover(_ record: Record, files: [String]) -> [HandoverPart] {
        let screens = record.screens.count
        var parts: [HandoverPart] = []
        let catalog = files.first { $0.hasPrefix("launch/") && $0.contains(".xcassets/") }
            .map { String($0[..<$0.range(of: ".xcassets/")!.upperBound]) }
        if let catalog {
            parts.append(HandoverPart(path: catalog, purpose: "the launch layers for Xcode: `LaunchBackground` from `\(record.background)` and `LaunchText` from `\(record.text)` at @1x, @2x and @3x"))
        }
        for file in files where file.hasSuffix(".storyboard") {
            parts.append(HandoverPart(path: file, purpose: "the launch screen: the background aspect-fill, the text centred at \(record.textPoints.map(String.init).joined(separator: " x ")) pt"))
        }
        parts.append(HandoverPart(path: "launch/screens/", purpose: "the background cropped to cover each of the \(screens) iPad screens, `<width>x<height>.png`"))
        parts.append(HandoverPart(path: "launch/preview/", purpose: "what each of the \(screens) iPad screens will show at launch, composited, for review"))
        return parts
    }
}
