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

        var levels: [String: (added: Int, removed: Int, changed: Int)] = [:]
        func isTile(_ path: String) -> Bool {
            path.hasPrefix("data/document/") && !path.hasSuffix(".dzi") && !path.hasSuffix("info.json") && !ManifestInput.owns(path)
        }
        // Deep Zoom: `<name>_files/<level>/<col>_<row>.<ext>`, by level.
        // IIIF: `<name>/<region>/<size>/0/default.<ext>`, by scale factor
        // (region width over size width), the full images apart.
        func level(_ path: String) -> String {
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
        for (path, pair) in delta.paths where isTile(path) {
            switch (pair.old, pair.new) {
            case (_?, nil): levels[level(path), default: (0, 0, 0)].removed += 1
            case (nil, _?): levels[level(path), default: (0, 0, 0)].added += 1
            default: levels[level(path), default: (0, 0, 0)].changed += 1
            }
        }
        for (level, counts) in levels.sorted(by: { $0.key.compare($1.key, options: .numeric) == .orderedAscending }) {
            let parts = [(counts.added, "added"), (counts.removed, "removed"), (counts.changed, "changed")].filter { $0.0 > 0 }
            changes.append(Change(component, "changed", field: "tiles", path: level,
                                  detail: parts.map { "\($0.0) \($0.1)" }.joined(separator: ", ")))
        }
        return changes
    }
}
