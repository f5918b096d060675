import Foundation
import MCPackSchema
import Imaging

extension IconsInput {
    /// Every icon is decoded (its size, its alpha): kept whole.
    static func verifyKeeps(_ path: String) -> VerifyKeeps { .whole }

    /// Contents.json names only files that exist, with the sizes it claims;
    /// the App Store icon has no alpha.
    static func verify(_ record: Record?, in bag: BagView) -> [Problem] {
        let folder = "data/icons/AppIcon.appiconset"
        let path = folder + "/Contents.json"
        var problems: [Problem] = []
        guard bag.files[path] != nil else { return problems }
        guard let contents = bag.decode(AssetCatalogContents.self, path, rule: "icons-contents", &problems) else { return problems }
        var named = Set<String>()
        for image in contents.images {
            guard let filename = image.filename, let size = image.size, let scale = image.scale else { continue }
            let file = "\(folder)/\(filename)"
            named.insert(file)
            guard let entry = bag.files[file] else {
                problems.append(Problem(path, "icons-contents", "names \(filename), which is not in the bag"))
                continue
            }
            let points = Double(size.split(separator: "x").first ?? "") ?? 0
            let factor = Double(scale.dropLast()) ?? 0
            let pixels = Int((points * factor).rounded())
            guard let data = entry.data, let decoded = try? Image(data: data) else {
                if !entry.damaged { problems.append(Problem(file, "icons-contents", "not a readable image")) }
                continue
            }
            if decoded.width != pixels || decoded.height != pixels {
                problems.append(Problem(file, "icons-contents", "is \(decoded.width) x \(decoded.height) px; Contents.json says \(size) @\(scale) = \(pixels) px"))
            }
            if let problem = PictureImport.notSRGB(decoded) {
                problems.append(Problem(file, "picture-srgb", problem))
            }
            if image.idiom == "ios-marketing" && decoded.hasAlpha {
                problems.append(Problem(file, "icons-contents", "the App Store icon has an alpha channel (ITMS-90717)"))
            }
        }
        for file in bag.files.keys.sorted() where file.hasPrefix(folder + "/") && file.hasSuffix(".png") && !named.contains(file) {
            problems.append(Problem(file, "icons-contents", "not named in Contents.json", severity: .warning))
        }
        return problems
    }

    /// The icon files, by path, and what the master was.
    static func diff(_ old: DiffSide<Record>, _ new: DiffSide<Record>, _ delta: ManifestDelta) -> [Change] {
        let colour = old.record != nil && new.record != nil
            ? PictureImport.change(component, field: "colour", old.record?.picture, new.record?.picture) : []
        return colour + delta.fileChanges(component: component, where: owns)
    }

    static func comparesPixels(_ path: String) -> Bool { owns(path) && Differ.isPictureFile(path) }

    static func showsOnDiffPage(_ path: String) -> Bool { owns(path) && path.hasSuffix(".png") }
}
