import MCPackBag
import Foundation
import MCPackSchema

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
    /// The document's tiles of one level: how many changed, and with
    /// `--pixels` how many of those changed visibly.
    public var tiles: TileChange?
    /// A clause's overlays before and after, as rectangles.
    public var rectangles: RectangleChange?

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
    /// The document's visibly changed areas (`--pixels`), nil when not decoded.
    public var regions: [ChangedRegion]?
    /// The decoded comparison, for the HTML page.
    var tiles: TileComparison?

    init(old: String, new: String, summary: String, changes: [Change], regions: [ChangedRegion]? = nil, tiles: TileComparison? = nil) {
        self.old = old
        self.new = new
        self.summary = summary
        self.changes = changes
        self.regions = regions
        self.tiles = tiles
    }

    enum CodingKeys: String, CodingKey { case old, new, identical, summary, changes, regions }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(old, forKey: .old)
        try container.encode(new, forKey: .new)
        try container.encode(identical, forKey: .identical)
        try container.encode(summary, forKey: .summary)
        try container.encode(changes, forKey: .changes)
        try container.encodeIfPresent(regions, forKey: .regions)
    }
}

/// `mcpack diff A B`: what changed, component by component, down to the
/// clause field, from the manifests and the data files alone.
public enum Differ {
    /// `pixels` decodes the pictures whose bytes changed (icons, launch
    /// layers, category icons) to say how: their sizes, or the share of
    /// pixels that changed; and the document's changed tiles, to tell those
    /// that changed visibly from those only encoded again. It reads past the
    /// tiles, so it is not the default.
    public static func diff(_ a: String, _ b: String, pixels: Bool = false) throws -> DiffReport {
        // The two archives are read at once, one a core: each read is
        // blocking I/O and libarchive's central-directory walk.
        let loaded = LockedArray<Result<BagSnapshot, Error>?>(repeating: nil, count: 2)
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            let path = side == 0 ? a : b
            loaded[side] = Result { try BagSnapshot.load(path, label: path) }
        }
        let old = try loaded[0]!.get()
        let new = try loaded[1]!.get()
        let delta = ManifestDelta(old: old.manifest, new: new.manifest)
        var changes: [Change] = []
        for input in Inputs.all { changes += input.runDiff(old, new, delta) }
        changes += files(delta)
        changes += metadata(old, new)
        var tiles: TileComparison?
        if pixels {
            describePictures(&changes, old: a, new: b)
            tiles = try TileComparison.compare(old, new, oldPath: a, newPath: b, delta: delta)
            tiles?.annotate(&changes)
        }
        return DiffReport(old: a, new: b, summary: summary(changes, regions: tiles?.regions.count), changes: changes,
                          regions: tiles?.regions, tiles: tiles)
    }

    // MARK: icons, launch, other files

    /// Files no input makes (the rendered templates, say), by path;
    /// bundle.json's changes are told as metadata.
    static func files(_ delta: ManifestDelta) -> [Change] {
        delta.fileChanges(component: filesComponent) { path in
            path != BundleJSON.path && Inputs.owner(of: path) == nil
        }
    }

    /// The report's names for the changes no input owns: files no input
    /// makes, and the bag's and bundle.json's own fields.
    static let filesComponent = "files", metadataComponent = "metadata"

    // MARK: metadata

    static func metadata(_ old: BagSnapshot, _ new: BagSnapshot) -> [Change] {
        var changes: [Change] = []
        let a = Dictionary(old.info, uniquingKeysWith: { first, _ in first })
        let b = Dictionary(new.info, uniquingKeysWith: { first, _ in first })
        for label in Set(a.keys).union(b.keys).sorted() where a[label] != b[label] {
            changes.append(Change(metadataComponent, a[label] == nil ? "added" : b[label] == nil ? "removed" : "changed",
                                  field: "bag-info.txt \(label)", old: a[label], new: b[label]))
        }
        func head(_ snapshot: BagSnapshot) -> BundleJSON.Head? {
            snapshot.files[BundleJSON.path].flatMap { try? JSONDecoder().decode(BundleJSON.Head.self, from: $0) }
        }
        let x = head(old)
        let y = head(new)
        let fields: [(String, (BundleJSON.Info) -> String)] = [
            ("name", \.name), ("source_date", \.sourceDate), ("title", \.title), ("version", \.version),
        ]
        for (field, value) in fields {
            let a = x?.bundle.map(value)
            let b = y?.bundle.map(value)
            if a != b { changes.append(Change(metadataComponent, "changed", field: "bundle.json bundle.\(field)", old: a, new: b)) }
        }
        if x?.mcpack != y?.mcpack {
            changes.append(Change(metadataComponent, "changed", field: "bundle.json mcpack", old: x?.mcpack ?? "", new: y?.mcpack ?? ""))
        }
        func inputs(_ head: BundleJSON.Head?) -> [String: String] {
            Dictionary((head?.inputs ?? []).map { ($0.path, $0.sha256) }, uniquingKeysWith: { first, _ in first })
        }
        let inA = inputs(x)
        let inB = inputs(y)
        for path in Set(inA.keys).union(inB.keys).sorted() where inA[path] != inB[path] {
            changes.append(Change(metadataComponent, inA[path] == nil ? "added" : inB[path] == nil ? "removed" : "changed",
                                  field: "input", path: path, old: inA[path].map { String($0.prefix(12)) }, new: inB[path].map { String($0.prefix(12)) }))
        }
        return changes
    }

    // MARK: summary

    /// One line in the manner of `git diff --shortstat`; `regions`, when the
    /// tiles were decoded, leads the document's part with what changed visibly.
    static func summary(_ changes: [Change], regions: Int? = nil) -> String {
        guard !changes.isEmpty else { return "identical" }
        var parts: [String] = []
        for input in Inputs.all {
            let mine = changes.filter { $0.component == input.component }
            if !mine.isEmpty { parts.append(input.summary(mine, regions: regions)) }
        }
        for (component, noun) in [(filesComponent, "file"), (metadataComponent, "field")] {
            let count = changes.count { $0.component == component }
            if count > 0 { parts.append("\(component): \(plural(count, noun))") }
        }
        return parts.joined(separator: "; ")
    }

    /// The changes' subjects counted by kind: "clauses: 2 changed, 1 added".
    static func countSummary(_ component: String, _ changes: [Change], subject: (Change) -> String) -> String {
        var counts: [String: Set<String>] = [:]
        for change in changes { counts[change.kind, default: []].insert(subject(change)) }
        let text = ["changed", "added", "removed"].compactMap { kind in counts[kind].map { "\($0.count) \(kind)" } }
        return "\(component): " + text.joined(separator: ", ")
    }

    static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// "1 region changed visibly (9 tiles at full size); 183 more re-encoded"
    /// when the tiles were decoded, else counts.
    static func tileSummary(_ tiles: [TileChange], regions: Int?) -> [String?] {
        let changed = tiles.reduce(0) { $0 + $1.changed }
        let addedOrRemoved = tiles.reduce(0) { $0 + $1.added + $1.removed }
        let moved = addedOrRemoved > 0 ? "\(plural(addedOrRemoved, "tile")) added or removed" : nil
        guard let regions, tiles.contains(where: { $0.visible != nil }) else {
            let count = changed + addedOrRemoved
            return [count > 0 ? "\(plural(count, "tile")) in \(plural(tiles.count, "level"))" : nil]
        }
        let visible = tiles.reduce(0) { $0 + ($1.visible ?? 0) }
        let deepest = tiles.max { $0.level < $1.level }
        let full = deepest?.visible ?? 0
        let reencoded = changed - visible
        var seen: String?
        if regions > 0 {
            seen = "\(regions) region\(regions == 1 ? "" : "s") changed visibly (\(plural(full, "tile")) at full size)"
        } else if visible > 0 {
            seen = "\(plural(visible, "tile")) changed visibly"
        } else if changed > 0 {
            seen = "no visible change"
        }
        let rest = reencoded > 0 ? (visible > 0 ? "\(reencoded) more re-encoded" : "\(plural(reencoded, "tile")) re-encoded") : nil
        return [[seen, rest].compactMap { $0 }.joined(separator: "; "), moved].map { $0?.isEmpty == true ? nil : $0 }
    }
}
