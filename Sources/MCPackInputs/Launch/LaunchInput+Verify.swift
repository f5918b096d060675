import MCPackBag
import Foundation
import MCPackSchema
import Imaging

extension LaunchInput {
    /// A launch PNG's header, with room for an ICC profile (iCCP) before
    /// its pixels: 40 screen-sized PNGs are too many to hold whole.
    package static func verifyKeeps(_ path: String) -> BagReader.Keep.Bytes {
        PathBytes.hasSuffix(path, ignoringCase: ".png") ? .head(256 << 10) : .digestsOnly
    }

    /// Every screen bundle.json lists has its background crop and preview at
    /// that size, the text layer's three scales agree with each other and
    /// with the points the storyboard places, and every layer is 8-bit sRGB.
    /// Only headers are read: 40 screen-sized PNGs are too many to decode.
    /// The catalog's own rules for the layers' sets are AssetCatalogRules'.
    package static func verify(_ record: Record?, in bag: BagView) -> [Problem] {
        let root = "data/launch/"
        guard bag.folders.holds(root) else { return [] }
        var problems: [Problem] = []

        let listed = record?.screens ?? bag.folders.files(under: root + "screens/")
            .map { String(($0 as NSString).lastPathComponent.dropLast(4)) }
        var expected = Set<String>()
        for screen in listed.sorted() {
            let size = screen.split(separator: "x").compactMap { Int($0) }
            for folder in ["screens", "preview"] {
                let path = "\(root)\(folder)/\(screen).png"
                expected.insert(path)
                guard let picture = header(path, in: bag, &problems) else { continue }
                if size.count == 2, picture.width != size[0] || picture.height != size[1] {
                    problems.append(Problem(path, rule, "is \(picture.width) x \(picture.height) px; the screen \(screen) needs \(size[0]) x \(size[1])"))
                }
            }
        }
        for folder in ["screens", "preview"] {
            for path in bag.folders.files(under: "\(root)\(folder)/").sorted() where !expected.contains(path) {
                problems.append(Problem(path, rule, "a screen bundle.json does not list", severity: .warning))
            }
        }

        // A bag made before the catalog kept the layers in launch/Launch.xcassets.
        let earlier = bag.folders.holds(root + "Launch.xcassets/")
        let catalog = earlier ? root + "Launch.xcassets/" : "data/\(AssetCatalog.folder)/"
        _ = header(catalog + "\(AssetCatalog.launchBackground).imageset/LaunchBackground.png", in: bag, &problems)
        let textSet = catalog + "\(AssetCatalog.launchText).imageset/"
        let texts = [1, 2, 3].map { scale in
            header(textSet + (scale == 1 ? "LaunchText.png" : "LaunchText@\(scale)x.png"), in: bag, &problems)
        }
        if let large = texts[2] {
            for scale in [1, 2] {
                guard let text = texts[scale - 1] else { continue }
                // The @3x file is the one given; the others are made from it.
                let (width, height) = textSize(scale, at3x: (large.width, large.height))
                if text.width != width || text.height != height {
                    problems.append(Problem(textSet + (scale == 1 ? "LaunchText.png" : "LaunchText@\(scale)x.png"), rule,
                                            "is \(text.width) x \(text.height) px; from the @3x layer's \(large.width) x \(large.height) it should be \(width) x \(height)"))
                }
            }
        }
        if let points = record?.textPoints, points.count == 2, let small = texts[0], points != [small.width, small.height] {
            problems.append(Problem(textSet + "LaunchText.png", rule,
                                    "is \(small.width) x \(small.height) px; bundle.json places the text at \(points[0]) x \(points[1]) points"))
        }
        return problems
    }

    private static let rule = "launch-screens"

    /// A layer's header, checked to be 8-bit sRGB; nil (with a problem,
    /// unless the archive already reported the entry damaged) when the file
    /// is missing or not a readable picture.
    private static func header(_ path: String, in bag: BagView, _ problems: inout [Problem]) -> Image? {
        guard let file = bag.files[path] else {
            let reason = bag.stoppedAt.map { "not reached: reading stopped \($0)" } ?? "missing"
            problems.append(Problem(path, rule, reason))
            return nil
        }
        guard let head = file.head ?? file.data, let picture = try? Image(data: head) else {
            if !file.damaged { problems.append(Problem(path, rule, "not a readable PNG")) }
            return nil
        }
        if let problem = PictureImport.notSRGB(picture) {
            problems.append(Problem(path, "picture-srgb", problem))
        }
        return picture
    }
}
