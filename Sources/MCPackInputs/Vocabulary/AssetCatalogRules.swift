import Foundation
import MCPackSchema
import Imaging

/// The bundle's asset catalog (data/Assets.xcassets) as Xcode reads it,
/// whichever input made each of its sets. Each rule has a stable name:
///
/// - `catalog-contents`: the catalog, and every folder and set in it, has
///   a Contents.json in Xcode's shape; every file it names is there; every
///   file in a set is named by its Contents.json;
/// - `catalog-sizes`: every named picture has the size its entry claims (an
///   app icon's points times its scale; an image set's @2x and @3x twice
///   and three times its @1x);
/// - `catalog-appearances`: appearances are luminosity light, dark or
///   tinted, at most one entry per slot and appearance, and the app icon's
///   dark and tinted entries are its universal 1024 pt ones;
/// - `catalog-tinted`: a tinted picture is grey: one band, or RGB whose
///   every pixel has red, green and blue within `greyTolerance`;
/// - `catalog-alpha`: no alpha channel where Apple forbids it (the app
///   icon's default and tinted appearances, the App Store icon), whether
///   it shows through or not.
package enum AssetCatalogRules {
    package static let root = "data/\(AssetCatalog.folder)/"

    /// How far apart, in 8-bit levels, a tinted picture's red, green and
    /// blue may be in one pixel and the picture still count as grey: a
    /// grey saved as RGB through a colour conversion (an ICC transform, a
    /// wide-gamut document exported to sRGB) can round its channels a
    /// level apart. Two levels move a grey by 0.7 to 1.9 CIE76 ΔE (light
    /// to dark, green the most), under the 2.3 taken as just noticeable,
    /// so nothing accepted shows a tint; a coloured picture is tens of
    /// levels apart.
    package static let greyTolerance = 2.0

    package static func check(_ bag: BagView) -> [Problem] {
        let paths = bag.folders.files(under: root).sorted()
        guard !paths.isEmpty else { return [] }
        var problems: [Problem] = []
        if bag.files[root + "Contents.json"] == nil {
            problems.append(Problem(root + "Contents.json", "catalog-contents", "missing; Xcode reads a catalog by its Contents.json"))
        }
        // Every folder in the catalog: sets (.appiconset, .imageset,
        // .colorset) and plain folders.
        var folders = Set<String>()
        for path in paths {
            var folder = (path as NSString).deletingLastPathComponent
            while folder.count + 1 > root.count, folder + "/" != root {
                folders.insert(folder)
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
        for path in paths where path.hasSuffix("/Contents.json") {
            _ = bag.decode(AssetCatalogContents.self, path, rule: "catalog-contents", &problems)
        }
        for folder in folders.sorted() {
            let contentsPath = folder + "/Contents.json"
            guard bag.files[contentsPath] != nil else {
                problems.append(Problem(contentsPath, "catalog-contents", "missing; Xcode needs one in every folder and set of a catalog"))
                continue
            }
            let isSet = [".appiconset", ".imageset"].contains { folder.hasSuffix($0) }
            var ignored: [Problem] = []
            guard let contents = bag.decode(AssetCatalogContents.self, contentsPath, rule: "catalog-contents", &ignored) else { continue }
            if isSet {
                problems += checkSet(folder, contents, appIcon: folder.hasSuffix(".appiconset"), in: bag, among: paths)
            } else if contents.images != nil {
                problems.append(Problem(contentsPath, "catalog-contents", "lists images, but \((folder as NSString).lastPathComponent) is a folder, not a set"))
            }
        }
        return problems
    }

    /// One set's Contents.json against its files. `among`: the bag's paths
    /// the set's are among (the catalog's, sorted), when the caller has
    /// them; else every path of the bag is looked at.
    package static func checkSet(_ folder: String, _ contents: AssetCatalogContents, appIcon: Bool, in bag: BagView,
                                 among candidates: [String]? = nil) -> [Problem] {
        let contentsPath = folder + "/Contents.json"
        var problems: [Problem] = []
        guard let images = contents.images else {
            return [Problem(contentsPath, "catalog-contents", "has no \"images\" list")]
        }
        var named = Set<String>()
        var slots = Set<String>()
        var base: [String: (width: Int, height: Int)] = [:]
        for (index, image) in images.enumerated() {
            let entry = "images[\(index)]"
            let appearance = image.appearances ?? []
            for item in appearance where item.appearance != "luminosity" || !["light", "dark", "tinted"].contains(item.value) {
                problems.append(Problem(contentsPath, "catalog-appearances",
                                        "\(entry) has the appearance \(item.appearance) = \(item.value); expected luminosity light, dark or tinted"))
            }
            if appearance.count > 1 {
                problems.append(Problem(contentsPath, "catalog-appearances", "\(entry) has \(appearance.count) appearances; an entry has one"))
            }
            let slot = image.variantKey + "|" + (image.scale ?? "")
            if !slots.insert(slot).inserted {
                problems.append(Problem(contentsPath, "catalog-appearances", "\(entry) repeats the slot of an earlier entry (\(describe(image)))"))
            }
            if appIcon && image.appearanceName != "default" && (image.idiom != "universal" || image.size != "1024x1024") {
                problems.append(Problem(contentsPath, "catalog-appearances",
                                        "\(entry) is a \(image.appearanceName) icon of \(describe(image)); Xcode takes dark and tinted icons as universal 1024x1024 entries"))
            }
            // Xcode's scales are 1x, 2x and 3x and its sizes a few points up
            // to 1024: anything else is a broken (or hostile) Contents.json,
            // reported here so that the pixel arithmetic below never meets
            // a NaN, an infinity or an overflow.
            var measurable = true
            if image.scaleFactor == nil {
                problems.append(Problem(contentsPath, "catalog-contents", "\(entry) has the scale \"\(image.scale ?? "")\"; expected 1x, 2x or 3x"))
                measurable = false
            }
            if let size = image.size, image.points == nil {
                problems.append(Problem(contentsPath, "catalog-contents",
                                        "\(entry) has the size \"\(size)\"; expected WIDTHxHEIGHT in points, each above 0 and at most 10000"))
                measurable = false
            }
            let scale = image.scaleFactor ?? 1
            guard let filename = image.filename else { continue }
            let file = "\(folder)/\(filename)"
            named.insert(file)
            guard let bagFile = bag.files[file] else {
                problems.append(Problem(contentsPath, "catalog-contents", "\(entry) names \(filename), which is not in the bag"))
                continue
            }
            guard let bytes = bagFile.data ?? bagFile.head, let picture = try? Image(data: bytes) else {
                if !bagFile.damaged { problems.append(Problem(file, "catalog-contents", "not a readable image")) }
                continue
            }
            if !measurable {
                // Reported above; there is no size to hold the file to.
            } else if let size = image.size, let points = image.points {
                let want = (Int((points.width * Double(scale)).rounded()), Int((points.height * Double(scale)).rounded()))
                if picture.width != want.0 || picture.height != want.1 {
                    problems.append(Problem(file, "catalog-sizes",
                                            "is \(picture.width) x \(picture.height) px; Contents.json says \(size) @\(scale)x = \(want.0) x \(want.1) px"))
                }
            } else {
                // An image set: each scale is that multiple of the @1x, to
                // within the rounding of making the smaller from the larger.
                let key = image.variantKey
                if scale == 1 {
                    base[key] = (picture.width, picture.height)
                } else if let one = base[key], abs(one.width * scale - picture.width) >= scale || abs(one.height * scale - picture.height) >= scale {
                    problems.append(Problem(file, "catalog-sizes",
                                            "is \(picture.width) x \(picture.height) px at \(scale)x; the 1x file is \(one.width) x \(one.height) px, so it should be about \(one.width * scale) x \(one.height * scale)"))
                }
            }
            let appearanceName = image.appearanceName
            if appearanceName == "tinted", let problem = notGrey(picture) {
                problems.append(Problem(file, "catalog-tinted", problem))
            }
            if appIcon && picture.hasAlpha && (appearanceName == "default" || appearanceName == "tinted" || image.idiom == "ios-marketing") {
                problems.append(Problem(file, "catalog-alpha", alphaProblem(picture, tinted: appearanceName == "tinted")))
            }
        }
        // The set's files picked out before sorting: every path of the bag
        // sorted once a set grows with the pyramid, not with the catalog;
        // and from the catalog's paths when given, not from every path of
        // the bag once a set (17,000 for a few dozen sets).
        let prefix = folder + "/"
        let files = candidates.map { $0.filter { PathBytes.hasPrefix($0, prefix) } } ?? bag.folders.files(under: prefix).sorted()
        for file in files where file != contentsPath && !named.contains(file) {
            problems.append(Problem(file, "catalog-contents", "not named in \((folder as NSString).lastPathComponent)/Contents.json; Xcode warns of unassigned files"))
        }
        return problems
    }

    /// Why a tinted picture is not grey, or nil when it is.
    package static func notGrey(_ picture: Image) -> String? {
        guard picture.bands > 2 else { return nil }
        guard let difference = try? picture.largestChannelDifference() else {
            return "has \(picture.bands) colour bands whose pixels cannot be read; a tinted icon is a grey picture"
        }
        guard difference > greyTolerance else { return nil }
        let levels = difference.rounded() == difference ? "\(Int(difference))" : String(format: "%.1f", difference)
        return "is in colour: in its most colourful pixel red, green and blue are \(levels) levels of 255 apart, and a tinted icon is grey "
            + "(at most \(Int(greyTolerance)) apart). Save it in greyscale; [icon] tinted in bundle.toml makes a coloured master grey"
    }

    /// What is wrong with an alpha channel where Apple takes none. Apple's
    /// upload check refuses the channel itself, opaque or not: ITMS-90717
    /// reads "can't be transparent nor contain an alpha channel". So an
    /// opaque one is refused too, but told apart: it can be dropped
    /// without changing a pixel.
    package static func alphaProblem(_ picture: Image, tinted: Bool) -> String {
        let why = tinted ? "the tinted icon is an opaque grey picture"
            : "App Store Connect refuses an app icon that is transparent or has an alpha channel at all (ITMS-90717)"
        switch try? picture.alphaIsOpaque() {
        case true?: return "has an alpha channel, though every pixel is opaque; \(why). Save it without the alpha channel: no pixel changes"
        case false?: return "has transparency (alpha below fully opaque); \(why)"
        case nil: return "has an alpha channel; \(why)"
        }
    }

    private static func describe(_ image: AssetCatalogContents.Image) -> String {
        [image.idiom, image.platform, image.size, image.scale].compactMap { $0 }.joined(separator: " ")
    }
}
