import Foundation

extension DocumentInput {
    /// The master and its settings field by field; the tiles as counts per
    /// level, since a retouched region changes hundreds.
    static func diff(_ old: DiffSide<Record>, _ new: DiffSide<Record>, _ delta: ManifestDelta) -> [Change] {
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

        var levels: [Int: TileChange] = [:]
        for (path, pair) in delta.paths where path.hasPrefix("data/document/") && !path.hasSuffix(".dzi") && !path.hasSuffix("info.json") {
            // A IIIF layout's tiles sit in folders of region and size: they
            // are counted by their parent folder's number.
            let parts = path.split(separator: "/")
            let level = TileName(path)?.level ?? (parts.count >= 4 ? Int(parts[parts.count - 2]) : nil) ?? -1
            var counts = levels[level] ?? TileChange(level: level)
            switch (pair.old, pair.new) {
            case (_?, nil): counts.removed += 1
            case (nil, _?): counts.added += 1
            default: counts.changed += 1
            }
            levels[level] = counts
        }
        for level in levels.keys.sorted() {
            var change = Change(component, "changed", field: "tiles", path: "level \(level)", detail: levels[level]!.summary)
            change.tiles = levels[level]
            changes.append(change)
        }
        return changes
    }
}

/// A tile of a Deep Zoom pyramid by its path in a bag:
/// `data/document/<name>_files/<level>/<column>_<row>.<suffix>`.
struct TileName: Hashable, Comparable, Sendable {
    var level: Int
    var column: Int
    var row: Int

    init(level: Int, column: Int, row: Int) {
        self.level = level
        self.column = column
        self.row = row
    }

    init?(_ path: String) {
        guard path.hasPrefix("data/document/") else { return nil }
        let parts = path.split(separator: "/")
        guard parts.count >= 5, parts[parts.count - 3].hasSuffix("_files"), let level = Int(parts[parts.count - 2]) else { return nil }
        let place = parts[parts.count - 1].split(separator: ".").first?.split(separator: "_") ?? []
        guard place.count == 2, let column = Int(place[0]), let row = Int(place[1]) else { return nil }
        self.init(level: level, column: column, row: row)
    }

    /// Its path in a bag whose pyramid is `name` with tiles of `suffix`.
    func path(name: String, suffix: String) -> String {
        "data/document/\(name)_files/\(level)/\(column)_\(row).\(suffix)"
    }

    var shortName: String { "\(column)_\(row)" }

    static func < (a: TileName, b: TileName) -> Bool {
        (a.level, a.row, a.column) < (b.level, b.row, b.column)
    }
}
