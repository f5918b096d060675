import MCPackInputs
import MCPackBag
import Foundation
import MCPackSchema

package struct DiffReport: Sendable, Encodable {
    package var old: String
    package var new: String
    package var identical: Bool { changes.isEmpty }
    package var summary: String
    package var changes: [Change]
    /// The document's visibly changed areas (`--pixels`), nil when not decoded.
    package var regions: [ChangedRegion]?
    /// The inputs' closer looks, for the HTML page.
    var closer: [any CloseComparison]

    init(old: String, new: String, summary: String, changes: [Change], regions: [ChangedRegion]? = nil, closer: [any CloseComparison] = []) {
        self.old = old
        self.new = new
        self.summary = summary
        self.changes = changes
        self.regions = regions
        self.closer = closer
    }

    enum CodingKeys: String, CodingKey { case old, new, identical, summary, changes, regions }

    package func encode(to encoder: Encoder) throws {
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
package enum Differ {
    /// `pixels` decodes the pictures whose bytes changed (icons, launch
    /// layers, category icons) to say how: their sizes, or the share of
    /// pixels that changed; and the document's changed tiles, to tell those
    /// that changed visibly from those only encoded again. It reads past the
    /// tiles, so it is not the default.
    package static func diff(_ a: String, _ b: String, pixels: Bool = false) throws -> DiffReport {
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
        for input in Inputs.all { changes += input.runDiff(old.files, new.files, delta) }
        changes += files(delta)
        changes += metadata(old, new)
        var closer: [any CloseComparison] = []
        if pixels {
            describePictures(&changes, old: a, new: b)
            for input in Inputs.all {
                if let comparison = try input.runCompareClosely(old.files, new.files, locations: (a, b), delta: delta) {
                    comparison.annotate(&changes)
                    closer.append(comparison)
                }
            }
        }
        // Regions are what a closer look found changed visibly (none taken: nil, not none found).
        let regions: [ChangedRegion]? = closer.isEmpty ? nil : closer.flatMap(\.regions)
        return DiffReport(old: a, new: b, summary: summary(changes, regions: regions?.count), changes: changes,
                          regions: regions, closer: closer)
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
            if count > 0 { parts.append("\(component): \(DiffWords.plural(count, noun))") }
        }
        return parts.joined(separator: "; ")
    }

    /// The changes' subjects counted by kind: "clauses: 2 changed, 1 added".


}
