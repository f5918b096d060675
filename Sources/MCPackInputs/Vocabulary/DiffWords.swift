import Foundation

/// The words diff reports use, shared by the inputs' summaries and the
/// diff loop, so a count reads the same whoever prints it.
package enum DiffWords {
    package static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    package static func countSummary(_ component: String, _ changes: [Change], subject: (Change) -> String) -> String {
        var counts: [String: Set<String>] = [:]
        for change in changes { counts[change.kind, default: []].insert(subject(change)) }
        let text = ["changed", "added", "removed"].compactMap { kind in counts[kind].map { "\($0.count) \(kind)" } }
        return "\(component): " + text.joined(separator: ", ")
    }

    /// "1 region changed visibly (9 tiles at full size); 183 more re-encoded"
    /// when the tiles were decoded, else counts.
    package static func tileSummary(_ tiles: [TileChange], regions: Int?) -> [String?] {
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

    /// A file a picture diff can decode: PNG or JPEG.
    package static func isPictureFile(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".png") || lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg")
    }
}
