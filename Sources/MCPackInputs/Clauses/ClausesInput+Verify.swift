import Foundation
import MCPackSchema

extension ClausesInput {
    /// clauses.json is the shape mcpack writes, its master is the document's,
    /// its ids are unique and every rectangle lies inside the master.
    package static func verify(_ record: Record?, in bag: BagView) -> [Problem] {
        let path = ClausesDocument.path
        var problems: [Problem] = []
        guard bag.files[path] != nil,
              let document = bag.decode(ClausesDocument.self, path, rule: "clauses-json", &problems) else { return problems }
        let width = document.master.width
        let height = document.master.height
        if let master = bag.fact(MasterSize.self), (master.width, master.height) != (width, height) {
            problems.append(Problem(path, "clauses-json", "master is \(width) x \(height) here but \(master.width) x \(master.height) in bundle.json"))
        }
        var ids = Set<String>()
        for clause in document.clauses {
            if !ids.insert(clause.id).inserted {
                problems.append(Problem(path, "clauses-json", "clause \"\(clause.id)\" appears twice"))
            }
            for overlay in clause.overlays {
                let r = overlay.values
                // No sum that can overflow: a hostile clauses.json's numbers reach Int.max.
                func beyond(_ start: Int, _ length: Int, _ size: Int) -> Bool {
                    let room = size.subtractingReportingOverflow(start)
                    return room.overflow || length > room.partialValue
                }
                if r[2] <= 0 || r[3] <= 0 || r[0] < 0 || r[1] < 0 || beyond(r[0], r[2], width) || beyond(r[1], r[3], height) {
                    problems.append(Problem(path, "overlays-inside", "clause \"\(clause.id)\": rectangle \(r) is not inside the \(width) x \(height) master"))
                }
            }
        }
        return problems
    }
}
