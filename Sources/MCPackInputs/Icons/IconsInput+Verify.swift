import MCPackBag
import Foundation
import MCPackSchema
import Imaging

extension IconsInput {
    /// Every icon is decoded (its size, its alpha, its bands): kept whole.
    package static func verifyKeeps(_ path: String) -> BagReader.Keep.Bytes { .whole }

    /// The icon set holds the icons bundle.json lists, and its pictures are
    /// 8-bit sRGB (or grey); Xcode's own rules for the set (sizes, files,
    /// appearances, alpha, a grey tinted icon) are the catalog's
    /// (AssetCatalogRules), which this applies itself to the set of a bag
    /// made before the catalog (data/icons/AppIcon.appiconset).
    package static func verify(_ record: Record?, in bag: BagView) -> [Problem] {
        var folder = "data/\(AssetCatalog.appIconSet)"
        var path = folder + "/Contents.json"
        var problems = verifyComposer(record, in: bag)
        let legacy = "data/\(legacyFolder)/\(AssetCatalog.appIconName).appiconset"
        var isLegacy = false
        if bag.files[path] == nil {
            guard bag.files[legacy + "/Contents.json"] != nil else {
                // No icon set at all: the record asks for one only when it
                // has sizes (a bag made with the catalog).
                if record?.sizes != nil { problems.append(Problem(path, "icons-contents", "missing; bundle.json lists an app icon")) }
                return problems
            }
            (folder, path, isLegacy) = (legacy, legacy + "/Contents.json", true)
        }
        // The catalog's rules report a broken Contents.json in the catalog;
        // nothing else reads the old set's.
        var unread: [Problem] = []
        guard let contents = bag.decode(AssetCatalogContents.self, path, rule: "icons-contents", &unread) else {
            return problems + (isLegacy ? unread : [])
        }
        if isLegacy { problems += AssetCatalogRules.checkSet(folder, contents, appIcon: true, in: bag) }
        let named = Set((contents.images ?? []).compactMap(\.filename))
        for icon in record?.icons ?? [] where !named.contains(icon.file) {
            problems.append(Problem(path, "icons-contents", "does not name \(icon.file), which bundle.json lists"))
        }
        for file in named.sorted() {
            guard let data = bag.files["\(folder)/\(file)"]?.data, let image = try? Image(data: data) else { continue }
            if let problem = PictureImport.notSRGB(image) { problems.append(Problem("\(folder)/\(file)", "picture-srgb", problem)) }
        }
        return problems
    }

    /// The Icon Composer document beside the catalog, when there is one:
    /// its icon.json parses, is for iOS among its platforms, and every
    /// layer's picture is in its Assets/.
    package static func verifyComposer(_ record: Record?, in bag: BagView) -> [Problem] {
        let folder = "data/\(IconComposer.bundleFolder)"
        let json = folder + "/icon.json"
        var problems: [Problem] = []
        guard bag.files[json] != nil else {
            if record?.composer != nil { problems.append(Problem(json, "icon-composer", "missing; bundle.json lists an Icon Composer document")) }
            return problems
        }
        guard let document = bag.decode(IconComposerDocument.self, json, rule: "icon-composer", &problems) else { return problems }
        if let problem = document.notForIOS { problems.append(Problem(json, "icon-composer", problem)) }
        var named = Set<String>()
        for (location, layer) in document.layers {
            guard let image = layer.imageName else { continue }
            let file = "\(folder)/\(IconComposerDocument.assetsFolder)/\(image)"
            named.insert(file)
            if bag.files[file] == nil {
                problems.append(Problem(json, "icon-composer", "\(location) names the picture \(image), which is not in the bag"))
            }
        }
        for file in bag.folders.files(under: folder + "/").sorted() where file != json && !named.contains(file) {
            problems.append(Problem(file, "icon-composer", "no layer of icon.json uses it", severity: .warning))
        }
        return problems
    }

    /// Each appearance by name ("app icon, dark: changed"), what its master
    /// was, and the icon files by path.
    package static func diff(_ old: DiffSide<Record>, _ new: DiffSide<Record>, _ delta: ManifestDelta) -> [Change] {
        var changes: [Change] = []
        if let a = old.record, let b = new.record {
            for appearance in IconAppearance.allCases {
                let field = appearance == .default ? "app icon" : "app icon, \(appearance.rawValue)"
                switch (a.variant(appearance), b.variant(appearance)) {
                case (nil, let now?) where appearance != .default:
                    changes.append(Change(component, "added", field: field, new: now.master))
                case (let was?, nil) where appearance != .default:
                    changes.append(Change(component, "removed", field: field, old: was.master))
                case (let was?, let now?):
                    if was.sha256 != now.sha256 {
                        // No path: the file's own change (below) carries it, and
                        // the diff page shows that one's pictures; this row names
                        // the appearance.
                        changes.append(Change(component, "changed", field: field, old: String(was.sha256.prefix(12)),
                                              new: String(now.sha256.prefix(12)), detail: "\(field): changed; its master is \(now.master)"))
                    }
                    changes += PictureImport.change(component, field: "\(field) colour", was.picture, now.picture)
                default:
                    break
                }
            }
        }
        return changes + delta.fileChanges(component: component, where: owns)
    }

    package static func comparesPixels(_ path: String) -> Bool { owns(path) && DiffWords.isPictureFile(path) }

    package static func showsOnDiffPage(_ path: String) -> Bool { owns(path) && path.hasSuffix(".png") }
}
