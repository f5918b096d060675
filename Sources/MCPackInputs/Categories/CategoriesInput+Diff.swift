import MCPackBag
import Foundation
import MCPackSchema

extension CategoriesInput {
    /// Categories by number: added, removed, renamed, refiltered, or a new icon.
    package static func diff(_ old: DiffSide<Record>, _ new: DiffSide<Record>, _ delta: ManifestDelta) -> [Change] {
        func list(_ side: DiffSide<Record>) -> [Int: ClauseCategory] {
            let items = side.decode(CategoriesDocument.self, CategoriesDocument.path)?.categories ?? []
            return Dictionary(items.map { ($0.icon, $0) }, uniquingKeysWith: { first, _ in first })
        }
        let before = list(old)
        let after = list(new)
        var changes: [Change] = []
        for number in Set(before.keys).union(after.keys).sorted() {
            switch (before[number], after[number]) {
            case (let was?, nil):
                changes.append(Change(component, "removed", category: number, old: was.name))
            case (nil, let now?):
                changes.append(Change(component, "added", category: number, new: now.name))
            case (let was?, let now?):
                if was.name != now.name { changes.append(Change(component, "changed", category: number, field: "name", old: was.name, new: now.name)) }
                if was.filter != now.filter {
                    changes.append(Change(component, "changed", category: number, field: "filter", old: was.filter ?? "", new: now.filter ?? ""))
                }
                let icon = "data/" + AssetCatalog.categoryImagePath(number)
                if delta.changed(icon) {
                    changes.append(Change(component, "changed", category: number, field: "icon", path: icon, detail: "the icon's bytes changed"))
                }
            default:
                break
            }
        }
        return changes
    }

    /// "categories: 1 changed, 2 added": categories counted by number.
    package static func summary(_ changes: [Change], regions: Int?) -> String {
        DiffWords.countSummary(component, changes) { "\($0.category ?? 0)" }
    }

    package static func comparesPixels(_ path: String) -> Bool { owns(path) && DiffWords.isPictureFile(path) }

    package static func showsOnDiffPage(_ path: String) -> Bool { owns(path) && path.hasSuffix(".png") }
}
