import MCPackBag
import Foundation

extension PreviewInput {
    /// The page's files, by path: what it shows changes with the inputs,
    /// which their own diffs tell field by field.
    package static func diff(_ old: DiffSide<Record>, _ new: DiffSide<Record>, _ delta: ManifestDelta) -> [Change] {
        delta.fileChanges(component: component, where: owns)
    }
}
