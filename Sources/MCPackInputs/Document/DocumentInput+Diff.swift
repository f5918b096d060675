import MCPackBag
import Foundation
import MCPackSchema

extension DocumentInput {
    /// The master and its settings field by field; the tiles as counts per
    /// level, since a retouched region changes hundreds.
    package static func diff(_ old: DiffSide<Record>, _ new: DiffSide<Record>, _ delta: ManifestDelta) -> [Change] {
        var changes: [Change] = []
        let a = old.record
        let b = new.record
        func field(_ name: String, _ value: (Record) -> String) {
            let x = a.map(value) ?? ""
            let y = b.map(value) ?? ""
            if x != y { changes.append(Change(component, "changed", field: name, old: x, new: y)) }
        }
        field("width") { "\($0.width)" }
        field("height") { "\($0.height)" }
        field("master") { String($0.sha256.prefix(12)) }
        field("image") { $0.image }
        field("format") { $0.format }
        // Settings in the order of their names, as bundle.json lists them.
        field("layout") { $0.settings.layout }
        field("overlap") { "\($0.settings.overlap)" }
        field("quality") { "\($0.settings.quality)" }
        field("tile_format") { $0.settings.tileFormat }
        field("tile_size") { "\($0.settings.tileSize)" }
        if a != nil && b != nil { changes += PictureImport.change(component, field: "colour", a?.picture, b?.picture) }

        // Deep Zoom: `<name>_files/<level>/<col>_<row>.<ext>`, counted by
        // level (and, with --pixels, compared by the differ). IIIF:
        // `<name>/<region>/<size>/0/default.<ext>`, counted by scale factor
        // (region width over size width), the full images apart.
        func isTile(_ path: String) -> Bool {
            owns(path) && !path.hasSuffix(".dzi") && !path.hasSuffix("info.json")
        }
        func iiifGroup(_ path: String) -> String {
            let parts = path.split(separator: "/")
            if parts.count == 7, parts[3] == "full" { return "full" }
            let region = parts.count == 7 ? parts[3].split(separator: ",").compactMap { Int($0) } : []
            let size = parts.count == 7 ? parts[4].split(separator: ",").compactMap { Int($0) } : []
            if region.count == 4, size.count == 2,
               let scale = (0..<31).lazy.map({ 1 << $0 }).first(where: {
                   IIIFLayout.scaled(region[2], $0) == size[0] && IIIFLayout.scaled(region[3], $0) == size[1] }) {
                return "scale \(scale)"
            }
            return parts.count >= 4 ? "level " + String(parts[parts.count - 2]) : "?"
        }
        func count(_ pair: (old: String?, new: String?), into counts: inout TileChange) {
            switch (pair.old, pair.new) {
            case (_?, nil): counts.removed += 1
            case (nil, _?): counts.added += 1
            default: counts.changed += 1
            }
        }
        var levels: [Int: TileChange] = [:]
        var groups: [String: TileChange] = [:]
        for (path, pair) in delta.paths where isTile(path) {
            if let tile = TileName(path) {
                count((pair.old, pair.new), into: &levels[tile.level, default: TileChange(level: tile.level)])
            } else {
                count((pair.old, pair.new), into: &groups[iiifGroup(path), default: TileChange(level: -1)])
            }
        }
        for level in levels.keys.sorted() {
            var change = Change(component, "changed", field: "tiles", path: "level \(level)", detail: levels[level]!.summary)
            change.tiles = levels[level]
            changes.append(change)
        }
        for (group, counts) in groups.sorted(by: { $0.key.compare($1.key, options: .numeric) == .orderedAscending }) {
            var change = Change(component, "changed", field: "tiles", path: group, detail: counts.summary)
            change.tiles = counts
            changes.append(change)
        }
        return changes
    }

    /// "document: master changed, 1 setting, 183 tiles in 6 levels", or with
    /// the tiles decoded, what changed visibly.
    package static func summary(_ changes: [Change], regions: Int?) -> String {
        let tiles = changes.compactMap(\.tiles)
        let master = changes.contains { $0.field == "master" }
        let settings = changes.count { $0.field != "tiles" && $0.field != "master" }
        return "\(component): " + ([master ? "master changed" : nil, settings > 0 ? DiffWords.plural(settings, "setting") : nil]
            + DiffWords.tileSummary(tiles, regions: regions)).compactMap { $0 }.joined(separator: ", ")
    }

    /// The master's size and the pyramid, for the rules of the inputs
    /// placed on it (clauses, the preview page, the IIIF manifest).
    package static func facts(from record: Record) -> [any InputFact] {
        let pyramid = layout(of: record)
        var facts: [any InputFact] = [MasterSize(width: record.width, height: record.height), pyramid]
        if pyramid.kind == .iiif3, let base = record.settings.iiifBaseURL {
            facts.append(IIIFService(base: base, pyramid: pyramid, format: record.settings.tileFormat))
        }
        return facts
    }
}

/// A tile of a Deep Zoom pyramid by its path in a bag:
/// `data/document/<name>_files/<level>/<column>_<row>.<suffix>`.
package struct TileName: Hashable, Comparable, Sendable {
    package var level: Int
    package var column: Int
    package var row: Int

    package init(level: Int, column: Int, row: Int) {
        self.level = level
        self.column = column
        self.row = row
    }

    package init?(_ path: String) {
        guard PathBytes.hasPrefix(path, "data/document/") else { return nil }
        let parts = path.split(separator: "/")
        guard parts.count >= 5, parts[parts.count - 3].hasSuffix("_files"), let level = Int(parts[parts.count - 2]) else { return nil }
        let place = parts[parts.count - 1].split(separator: ".").first?.split(separator: "_") ?? []
        guard place.count == 2, let column = Int(place[0]), let row = Int(place[1]) else { return nil }
        self.init(level: level, column: column, row: row)
    }

    /// Its path in a bag whose pyramid is `name` with tiles of `suffix`.
    package func path(name: String, suffix: String) -> String {
        "data/document/\(name)_files/" + DeepZoomDescriptor.tilePath(level: level, column: column, row: row, format: suffix)
    }

    package var shortName: String { "\(column)_\(row)" }

    package static func < (a: TileName, b: TileName) -> Bool {
        (a.level, a.row, a.column) < (b.level, b.row, b.column)
    }
}
