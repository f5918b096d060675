import MCPackSchema
import MCPackBag
import Foundation

extension LaunchInput {
    /// The layer files, by path, and what each layer was.
    package static func diff(_ old: DiffSide<Record>, _ new: DiffSide<Record>, _ delta: ManifestDelta) -> [Change] {
        var changes: [Change] = []
        if let a = old.record, let b = new.record {
            changes += PictureImport.change(component, field: "background colour", a.backgroundPicture, b.backgroundPicture)
            changes += PictureImport.change(component, field: "text colour", a.textPicture, b.textPicture)
        }
        return changes + delta.fileChanges(component: component, where: owns)
    }

    package static func comparesPixels(_ path: String) -> Bool { owns(path) && DiffWords.isPictureFile(path) }

    /// The layers' image sets and the screens' previews; the screens
    /// themselves are crops of the background, shown already.
    package static func showsOnDiffPage(_ path: String) -> Bool {
        owns(path) && !PathBytes.hasPrefix(path, "data/launch/screens/") && path.hasSuffix(".png")
    }
}
