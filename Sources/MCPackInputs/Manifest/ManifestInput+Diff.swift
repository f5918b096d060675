import MCPackBag
import Foundation

extension ManifestInput {
    /// Its id and annotation count; what each annotation says follows the
    /// clauses, whose diff names the clause and field.
    package static func diff(_ old: DiffSide<Record>, _ new: DiffSide<Record>, _ delta: ManifestDelta) -> [Change] {
        var changes: [Change] = []
        switch (old.record, new.record) {
        case (nil, let b?): changes.append(Change(component, "added", path: "data/" + path, new: b.id))
        case (let a?, nil): changes.append(Change(component, "removed", path: "data/" + path, old: a.id))
        case let (a?, b?):
            if a.id != b.id { changes.append(Change(component, "changed", field: "id", old: a.id, new: b.id)) }
            if a.annotations != b.annotations {
                changes.append(Change(component, "changed", field: "annotations", old: "\(a.annotations)", new: "\(b.annotations)"))
            }
            // Otherwise a changed clause text or rectangle: the file, by hash.
            if changes.isEmpty { changes = delta.fileChanges(component: component, where: owns) }
        case (nil, nil): break
        }
        return changes
    }
}
