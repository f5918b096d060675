import MCPackBag
import Foundation
import MCPackSchema

extension ClausesInput {
    /// Clauses by id: added, removed, or changed field by field, texts word by word.
    package static func diff(_ old: DiffSide<Record>, _ new: DiffSide<Record>, _ delta: ManifestDelta) -> [Change] {
        let before = old.decode(ClausesDocument.self, ClausesDocument.path)?.clauses ?? []
        let after = new.decode(ClausesDocument.self, ClausesDocument.path)?.clauses ?? []
        let beforeByID = Dictionary(before.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let afterIDs = Set(after.map(\.id))
        var changes: [Change] = []
        for clause in before where !afterIDs.contains(clause.id) {
            changes.append(Change(component, "removed", clause: clause.id, old: clause.title))
        }
        for clause in after {
            guard let was = beforeByID[clause.id] else {
                changes.append(Change(component, "added", clause: clause.id, new: clause.title))
                continue
            }
            let texts: [(String, KeyPath<Clause, String>)] = [("title", \.title), ("translation", \.translation), ("context", \.context)]
            for (field, key) in texts where was[keyPath: key] != clause[keyPath: key] {
                let words = WordDiff(was[keyPath: key], clause[keyPath: key])
                var change = Change(component, "changed", clause: clause.id, field: field,
                                    old: was[keyPath: key], new: clause[keyPath: key], detail: words.text)
                change.words = words.segments
                changes.append(change)
            }
            let fields: [(String, (Clause) -> String)] = [
                ("categories", { $0.categories.joined(separator: ", ") }),
                ("colour", { $0.colour }),
                ("overlays", { $0.overlays.map { "[" + $0.values.map(String.init).joined(separator: ", ") + "]" }.joined(separator: " ") }),
            ]
            for (field, describe) in fields where describe(was) != describe(clause) {
                var change = Change(component, "changed", clause: clause.id, field: field, old: describe(was), new: describe(clause))
                if field == "overlays" { change.rectangles = RectangleChange(old: was.overlays, new: clause.overlays) }
                changes.append(change)
            }
        }
        return changes
    }

    /// "clauses: 2 changed, 1 added": clauses counted by id.
    package static func summary(_ changes: [Change], regions: Int?) -> String {
        DiffWords.countSummary(component, changes) { $0.clause ?? "" }
    }

    /// Clause texts are shown word by word.
    package static var diffPageRows: DiffPageRows { .texts(title: "Clauses", subject: "clause") }
}

/// A word-level diff of two texts, as segments a report can render as it
/// likes; `text` is the manner of `git diff --word-diff`
/// (`[-removed-]{+added+}`), with long unchanged runs shortened to "...".
package struct WordDiff {
    package var segments: [WordSegment] = []

    /// Words of unchanged text kept either side of each change.
    package static let context = 4

    package init(_ a: String, _ b: String) {
        let x = a.split(whereSeparator: \.isWhitespace).map(String.init)
        let y = b.split(whereSeparator: \.isWhitespace).map(String.init)
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in y.difference(from: x) {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        var words: [(WordSegment.Kind, String)] = []
        var i = 0
        var j = 0
        while i < x.count || j < y.count {
            if i < x.count && removed.contains(i) {
                words.append((.removed, x[i]))
                i += 1
            } else if j < y.count && inserted.contains(j) {
                words.append((.inserted, y[j]))
                j += 1
            } else {
                words.append((.kept, x[i]))
                i += 1
                j += 1
            }
        }
        // Unchanged words far from any change become one elision.
        let near = words.indices.map { index in
            words[max(0, index - Self.context)...min(words.count - 1, index + Self.context)].contains { $0.0 != .kept }
        }
        for (index, (kind, word)) in words.enumerated() {
            let shown: WordSegment.Kind = kind == .kept && !near[index] ? .elided : kind
            if let last = segments.last, last.kind == shown {
                if shown != .elided { segments[segments.count - 1].text += " " + word }
            } else {
                segments.append(WordSegment(kind: shown, text: shown == .elided ? "..." : word))
            }
        }
    }

    package var text: String {
        segments.map { segment in
            switch segment.kind {
            case .kept, .elided: return segment.text
            case .removed: return "[-" + segment.text + "-]"
            case .inserted: return "{+" + segment.text + "+}"
            }
        }.joined(separator: " ")
    }
}
