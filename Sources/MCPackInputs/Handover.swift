import Foundation

/// One part of the bag an input made, as HANDOVER.md names it: each input
/// describes its own (`BundleInput.handover`), so the page lists what the
/// bag holds at the paths it holds it, whatever the inputs are.
package struct HandoverPart: Sendable, Equatable {
    /// Relative to data/: a file, or a folder ending in `/`.
    package var path: String
    /// What it is and what it is for, in a sentence of Markdown.
    package var purpose: String
}

/// A part with what it holds, counted from the payload as made.
package struct HandoverRow: Sendable, Equatable {
    package var path: String
    package var purpose: String
    package var files: Int
    package var bytes: Int

    /// Counts each part's files and bytes among `sizes` (paths under data/).
    package static func rows(_ parts: [HandoverPart], sizes: [(path: String, size: Int)]) -> [HandoverRow] {
        parts.map { part in
            let held = sizes.filter { part.path.hasSuffix("/") ? $0.path.hasPrefix(part.path) : $0.path == part.path }
            return HandoverRow(path: part.path, purpose: part.purpose, files: held.count, bytes: held.reduce(0) { $0 + $1.size })
        }
    }

    /// Bytes as people read them: 512 B, 12.3 KB, 25.3 MB.
    package static func sizeText(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        var value = Double(bytes) / 1024
        var unit = 0
        let units = ["KB", "MB", "GB", "TB"]
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return String(format: "%.1f %@", value, units[unit])
    }
}

extension BundleInput {
    /// The rows of HANDOVER.md for what this input made.
    package static func handoverParts(_ record: Record, files: [String]) -> [HandoverPart] {
        handover(record, files: files.sorted())
    }
}
