import MCPackBag
import Foundation

extension ManifestDelta {
    /// Every payload path `belongs` accepts whose file was added, removed or
    /// changed, as changes of `component`, in path order.
    package func fileChanges(component: String, where belongs: (String) -> Bool) -> [Change] {
        var changes: [Change] = []
        for path in paths.keys.filter(belongs).sorted() {
            switch (self[path]?.old, self[path]?.new) {
            case (nil, _?): changes.append(Change(component, "added", path: path))
            case (_?, nil): changes.append(Change(component, "removed", path: path))
            case let (a?, b?): changes.append(Change(component, "changed", path: path, old: String(a.prefix(12)), new: String(b.prefix(12))))
            default: break
            }
        }
        return changes
    }
}
