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
    /// A changed text word by word, for reports to render (`detail` has it as text).
    public var words: [WordSegment]?

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
    /// `pixels` decodes the pictures whose bytes changed (icons, launch
    /// layers, category icons) to say how: their sizes, or the share of
    /// pixels that changed. It reads past the tiles, so it is not the default.
    public static func diff(_ a: String, _ b: String, pixels: Bool = false) throws -> DiffReport {
        let old = try BagSnapshot.load(a, label: a)
        let new = try BagSnapshot.load(b, label: b)
        let delta = ManifestDelta(old: old.manifest, new: new.manifest)
        var changes: [Change] = []
        for input in Inputs.all { changes += input.runDiff(old, new, delta) }
        changes += files(delta)
        changes += metadata(old, new)
        if pixels { describePictures(&changes, old: a, new: b) }
        return DiffReport(old: a, new: b, summary: summary(changes), changes: changes)
    }

    // MARK: icons, launch, other files

    /// Files no input makes (the rendered templates, say), by path;
    /// bundle.json's changes are told as metadata.
    static func files(_ delta: ManifestDelta) -> [Change] {
        delta.fileChanges(component: "files") { path in
            path != "data/bundle.json" && !Inputs.all.contains { $0.owns(path) }
        }
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
        func head(_ snapshot: BagSnapshot) -> BundleFile.Head? {
            snapshot.files["data/bundle.json"].flatMap { try? JSONDecoder().decode(BundleFile.Head.self, from: $0) }
        }
        let x = head(old)
        let y = head(new)
        let fields: [(String, (BundleFile.Info) -> String)] = [
            ("name", \.name), ("source_date", \.sourceDate), ("title", \.title), ("version", \.version),
        ]
        for (field, value) in fields {
            let a = x?.bundle.map(value)
            let b = y?.bundle.map(value)
            if a != b { changes.append(Change("metadata", "changed", field: "bundle.json bundle.\(field)", old: a, new: b)) }
        }
        if x?.mcpack != y?.mcpack {
            changes.append(Change("metadata", "changed", field: "bundle.json mcpack", old: x?.mcpack ?? "", new: y?.mcpack ?? ""))
        }
        func inputs(_ head: BundleFile.Head?) -> [String: String] {
            Dictionary((head?.inputs ?? []).map { ($0.path, $0.sha256) }, uniquingKeysWith: { first, _ in first })
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
        for component in Inputs.all.map({ $0.component }) + ["files", "metadata"] {
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
