import Foundation

/// One difference between two versions, in the words the team uses.
public struct Change: Sendable, Encodable, Equatable {
    /// clauses, categories, document, icons, launch, files or metadata.
    public var component: String
    /// added, removed or changed.
    public var kind: String
    public var clause: String?
    public var category: Int?
    public var field: String?
    public var path: String?
    public var old: String?
    public var new: String?
    /// A word-level diff of a text, or counts (tiles per level).
    public var detail: String?
    /// How a changed picture differs, when asked for (`--pixels`).
    public var pixels: PixelChange?

    init(_ component: String, _ kind: String, clause: String? = nil, category: Int? = nil, field: String? = nil,
         path: String? = nil, old: String? = nil, new: String? = nil, detail: String? = nil) {
        self.component = component
        self.kind = kind
        self.clause = clause
        self.category = category
        self.field = field
        self.path = path
        self.old = old
        self.new = new
        self.detail = detail
    }
}

public struct DiffReport: Sendable, Encodable {
    public var old: String
    public var new: String
    public var identical: Bool { changes.isEmpty }
    public var summary: String
    public var changes: [Change]

    enum CodingKeys: String, CodingKey { case old, new, identical, summary, changes }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(old, forKey: .old)
        try container.encode(new, forKey: .new)
        try container.encode(identical, forKey: .identical)
        try container.encode(summary, forKey: .summary)
        try container.encode(changes, forKey: .changes)
    }
}

/// `mcpack diff A B`: what changed, component by component, down to the
/// clause field, from the manifests and the data files alone.
public enum Differ {
    static let order = ["clauses", "categories", "document", "icons", "launch", "files", "metadata"]

    /// `pixels` decodes the pictures whose bytes changed (icons, launch
    /// layers, category icons) to say how: their sizes, or the share of
    /// pixels that changed. It reads past the tiles, so it is not the default.
    public static func diff(_ a: String, _ b: String, pixels: Bool = false) throws -> DiffReport {
        let old = try BagSnapshot.load(a, label: a)
        let new = try BagSnapshot.load(b, label: b)
        let delta = ManifestDelta(old: old.manifest, new: new.manifest)
        var changes: [Change] = []
        changes += clauses(old, new)
        changes += categories(old, new, delta)
        changes += document(old, new, delta)
        changes += files(delta)
        changes += metadata(old, new)
        changes.sort { (order.firstIndex(of: $0.component) ?? 99) < (order.firstIndex(of: $1.component) ?? 99) }
        if pixels { describePictures(&changes, old: a, new: b) }
        return DiffReport(old: a, new: b, summary: summary(changes), changes: changes)
    }

    // MARK: clauses

    private static func clauseList(_ snapshot: BagSnapshot) -> [(String, [String: Any])] {
        let clauses = (snapshot.json("data/clauses.json") as? [String: Any])?["clauses"] as? [[String: Any]] ?? []
        return clauses.compactMap { clause in (clause["id"] as? String).map { ($0, clause) } }
    }

    static func clauses(_ old: BagSnapshot, _ new: BagSnapshot) -> [Change] {
        let before = clauseList(old)
        let after = clauseList(new)
        let beforeByID = Dictionary(before, uniquingKeysWith: { first, _ in first })
        let afterByID = Dictionary(after, uniquingKeysWith: { first, _ in first })
        var changes: [Change] = []
        for (id, clause) in before where afterByID[id] == nil {
            changes.append(Change("clauses", "removed", clause: id, old: clause["title"] as? String))
        }
        for (id, clause) in after {
            guard let was = beforeByID[id] else {
                changes.append(Change("clauses", "added", clause: id, new: clause["title"] as? String))
                continue
            }
            for field in ["title", "translation", "context"] {
                let a = was[field] as? String ?? ""
                let b = clause[field] as? String ?? ""
                if a != b { changes.append(Change("clauses", "changed", clause: id, field: field, old: a, new: b, detail: wordDiff(a, b))) }
            }
            for field in ["categories", "colour"] {
                let a = describe(was[field])
                let b = describe(clause[field])
                if a != b { changes.append(Change("clauses", "changed", clause: id, field: field, old: a, new: b)) }
            }
            let a = rectangles(was["overlays"])
            let b = rectangles(clause["overlays"])
            if a != b { changes.append(Change("clauses", "changed", clause: id, field: "overlays", old: a, new: b)) }
        }
        return changes
    }

    private static func describe(_ value: Any?) -> String {
        if let list = value as? [String] { return list.joined(separator: ", ") }
        return value.map { "\($0)" } ?? ""
    }

    private static func rectangles(_ value: Any?) -> String {
        let overlays = value as? [[String: Any]] ?? []
        return overlays.map { overlay in
            "[" + ((overlay["pixels"] as? [Int]) ?? []).map(String.init).joined(separator: ", ") + "]"
        }.joined(separator: " ")
    }

    /// A word-level diff in the manner of `git diff --word-diff`:
    /// `[-removed-]{+added+}` around the words that changed.
    static func wordDiff(_ a: String, _ b: String) -> String {
        let x = a.split(whereSeparator: \.isWhitespace).map(String.init)
        let y = b.split(whereSeparator: \.isWhitespace).map(String.init)
        // Longest common subsequence over words; clause texts are short.
        var table = Array(repeating: Array(repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in stride(from: x.count - 1, through: 0, by: -1) {
            for j in stride(from: y.count - 1, through: 0, by: -1) {
                table[i][j] = x[i] == y[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        // (token, unchanged?) so long unchanged runs can be shortened.
        var out: [(String, Bool)] = []
        var removed: [String] = []
        var added: [String] = []
        func flush() {
            if !removed.isEmpty { out.append(("[-" + removed.joined(separator: " ") + "-]", false)) }
            if !added.isEmpty { out.append(("{+" + added.joined(separator: " ") + "+}", false)) }
            removed = []
            added = []
        }
        var i = 0
        var j = 0
        while i < x.count || j < y.count {
            if i < x.count && j < y.count && x[i] == y[j] {
                flush()
                out.append((x[i], true))
                i += 1
                j += 1
            } else if j < y.count && (i == x.count || table[i][j + 1] >= table[i + 1][j]) {
                added.append(y[j])
                j += 1
            } else {
                removed.append(x[i])
                i += 1
            }
        }
        flush()
        // Keep four words of context either side of each change.
        let context = 4
        let near = out.indices.map { index in
            out[index].1 == false || out[max(0, index - context)...min(out.count - 1, index + context)].contains { !$0.1 }
        }
        var text: [String] = []
        for index in out.indices {
            if near[index] {
                text.append(out[index].0)
            } else if text.last != "..." {
                text.append("...")
            }
        }
        return text.joined(separator: " ")
    }

    // MARK: categories

    static func categories(_ old: BagSnapshot, _ new: BagSnapshot, _ delta: ManifestDelta) -> [Change] {
        func list(_ snapshot: BagSnapshot) -> [Int: [String: Any]] {
            let items = snapshot.json("data/categories.json") as? [[String: Any]] ?? []
            return Dictionary(items.compactMap { item in (item["number"] as? Int).map { ($0, item) } }, uniquingKeysWith: { first, _ in first })
        }
        let before = list(old)
        let after = list(new)
        var changes: [Change] = []
        for number in Set(before.keys).union(after.keys).sorted() {
            switch (before[number], after[number]) {
            case (let was?, nil):
                changes.append(Change("categories", "removed", category: number, old: was["name"] as? String))
            case (nil, let now?):
                changes.append(Change("categories", "added", category: number, new: now["name"] as? String))
            case (let was?, let now?):
                for field in ["name", "filter"] {
                    let a = describe(was[field] is NSNull ? nil : was[field])
                    let b = describe(now[field] is NSNull ? nil : now[field])
                    if a != b { changes.append(Change("categories", "changed", category: number, field: field, old: a, new: b)) }
                }
                let icon = "data/categories/\(number).png"
                if delta.changed(icon) {
                    changes.append(Change("categories", "changed", category: number, field: "icon", path: icon, detail: "the icon's bytes changed"))
                }
            default:
                break
            }
        }
        return changes
    }

    // MARK: document

    static func document(_ old: BagSnapshot, _ new: BagSnapshot, _ delta: ManifestDelta) -> [Change] {
        func record(_ snapshot: BagSnapshot) -> [String: Any] {
            (((snapshot.json("data/bundle.json") as? [String: Any])?["components"] as? [String: Any])?["document"] as? [String: Any]) ?? [:]
        }
        let before = record(old)
        let after = record(new)
        var changes: [Change] = []
        for field in ["width", "height", "sha256", "image", "format"] {
            let a = describe(before[field])
            let b = describe(after[field])
            if a != b {
                let short = field == "sha256"
                changes.append(Change("document", "changed", field: short ? "master" : field,
                                      old: short ? String(a.prefix(12)) : a, new: short ? String(b.prefix(12)) : b))
            }
        }
        let settingsA = before["settings"] as? [String: Any] ?? [:]
        let settingsB = after["settings"] as? [String: Any] ?? [:]
        for field in Set(settingsA.keys).union(settingsB.keys).sorted() {
            let a = describe(settingsA[field])
            let b = describe(settingsB[field])
            if a != b { changes.append(Change("document", "changed", field: field, old: a, new: b)) }
        }
        // Tiles per level, as counts: a retouched region changes hundreds.
        var levels: [String: (added: Int, removed: Int, changed: Int)] = [:]
        func isTile(_ path: String) -> Bool {
            path.hasPrefix("data/document/") && !path.hasSuffix(".dzi") && !path.hasSuffix("info.json")
        }
        func level(_ path: String) -> String {
            let parts = path.split(separator: "/")
            return parts.count >= 4 ? String(parts[parts.count - 2]) : "?"
        }
        for (path, pair) in delta.paths where isTile(path) {
            switch (pair.old, pair.new) {
            case (_?, nil): levels[level(path), default: (0, 0, 0)].removed += 1
            case (nil, _?): levels[level(path), default: (0, 0, 0)].added += 1
            default: levels[level(path), default: (0, 0, 0)].changed += 1
            }
        }
        for (level, counts) in levels.sorted(by: { $0.key.compare($1.key, options: .numeric) == .orderedAscending }) {
            let parts = [(counts.added, "added"), (counts.removed, "removed"), (counts.changed, "changed")].filter { $0.0 > 0 }
            changes.append(Change("document", "changed", field: "tiles", path: "level \(level)",
                                  detail: parts.map { "\($0.0) \($0.1)" }.joined(separator: ", ")))
        }
        return changes
    }

    // MARK: icons, launch, other files

    static func files(_ delta: ManifestDelta) -> [Change] {
        let explained: Set<String> = ["data/bundle.json", "data/clauses.json", "data/categories.json"]
        var changes: [Change] = []
        func relevant(_ path: String) -> Bool {
            !explained.contains(path) && !path.hasPrefix("data/document/") && !path.hasPrefix("data/categories/")
        }
        for path in delta.paths.keys.filter(relevant).sorted() {
            let component = path.hasPrefix("data/icons/") ? "icons" : path.hasPrefix("data/launch/") ? "launch" : "files"
            switch (delta[path]?.old, delta[path]?.new) {
            case (nil, _?): changes.append(Change(component, "added", path: path))
            case (_?, nil): changes.append(Change(component, "removed", path: path))
            case let (a?, b?): changes.append(Change(component, "changed", path: path, old: String(a.prefix(12)), new: String(b.prefix(12))))
            default: break
            }
        }
        return changes
    }

    // MARK: metadata

    static func metadata(_ old: BagSnapshot, _ new: BagSnapshot) -> [Change] {
        var changes: [Change] = []
        let a = Dictionary(old.info, uniquingKeysWith: { first, _ in first })
        let b = Dictionary(new.info, uniquingKeysWith: { first, _ in first })
        for label in Set(a.keys).union(b.keys).sorted() where a[label] != b[label] {
            changes.append(Change("metadata", a[label] == nil ? "added" : b[label] == nil ? "removed" : "changed",
                                  field: "bag-info.txt \(label)", old: a[label], new: b[label]))
        }
        func bundle(_ snapshot: BagSnapshot) -> [String: Any] { snapshot.json("data/bundle.json") as? [String: Any] ?? [:] }
        let x = bundle(old)
        let y = bundle(new)
        let fieldsA = (x["bundle"] as? [String: Any] ?? [:]).mapValues(describe)
        let fieldsB = (y["bundle"] as? [String: Any] ?? [:]).mapValues(describe)
        for field in Set(fieldsA.keys).union(fieldsB.keys).sorted() where fieldsA[field] != fieldsB[field] {
            changes.append(Change("metadata", "changed", field: "bundle.json bundle.\(field)", old: fieldsA[field], new: fieldsB[field]))
        }
        if describe(x["mcpack"]) != describe(y["mcpack"]) {
            changes.append(Change("metadata", "changed", field: "bundle.json mcpack", old: describe(x["mcpack"]), new: describe(y["mcpack"])))
        }
        func inputs(_ record: [String: Any]) -> [String: String] {
            Dictionary((record["inputs"] as? [[String: Any]] ?? []).compactMap { input in
                (input["path"] as? String).map { ($0, input["sha256"] as? String ?? "") }
            }, uniquingKeysWith: { first, _ in first })
        }
        let inA = inputs(x)
        let inB = inputs(y)
        for path in Set(inA.keys).union(inB.keys).sorted() where inA[path] != inB[path] {
            changes.append(Change("metadata", inA[path] == nil ? "added" : inB[path] == nil ? "removed" : "changed",
                                  field: "input", path: path, old: inA[path].map { String($0.prefix(12)) }, new: inB[path].map { String($0.prefix(12)) }))
        }
        return changes
    }

    // MARK: summary

    /// One line in the manner of `git diff --shortstat`.
    static func summary(_ changes: [Change]) -> String {
        guard !changes.isEmpty else { return "identical" }
        var parts: [String] = []
        for component in order {
            let mine = changes.filter { $0.component == component }
            guard !mine.isEmpty else { continue }
            switch component {
            case "clauses", "categories":
                let key: (Change) -> String = { component == "clauses" ? ($0.clause ?? "") : "\($0.category ?? 0)" }
                var counts: [String: Set<String>] = [:]
                for change in mine { counts[change.kind, default: []].insert(key(change)) }
                let text = ["changed", "added", "removed"].compactMap { kind in counts[kind].map { "\($0.count) \(kind)" } }
                parts.append("\(component): " + text.joined(separator: ", "))
            case "document":
                let tiles = mine.filter { $0.field == "tiles" }
                let count = tiles.compactMap(\.detail).flatMap { $0.split(separator: ",") }
                    .compactMap { Int($0.trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") }.reduce(0, +)
                let master = mine.contains { $0.field == "master" }
                let settings = mine.count - tiles.count - (master ? 1 : 0)
                parts.append("document: " + [master ? "master changed" : nil,
                                              settings > 0 ? "\(settings) setting\(settings == 1 ? "" : "s")" : nil,
                                              count > 0 ? "\(count) tile\(count == 1 ? "" : "s") in \(tiles.count) level\(tiles.count == 1 ? "" : "s")" : nil]
                    .compactMap { $0 }.joined(separator: ", "))
            default:
                parts.append("\(component): \(mine.count) \(component == "metadata" ? "field" : "file")\(mine.count == 1 ? "" : "s")")
            }
        }
        return parts.joined(separator: "; ")
    }
}
