import Foundation

/// One difference between two versions, in the words the team uses.
package struct Change: Sendable, Encodable, Equatable {
    /// clauses, categories, document, icons, launch, files or metadata.
    package var component: String
    /// added, removed or changed.
    package var kind: String
    package var clause: String?
    package var category: Int?
    package var field: String?
    package var path: String?
    package var old: String?
    package var new: String?
    /// A word-level diff of a text, or counts (tiles per level).
    package var detail: String?
    /// How a changed picture differs, when asked for (`--pixels`).
    package var pixels: PixelChange?
    /// A changed text word by word, for reports to render (`detail` has it as text).
    package var words: [WordSegment]?
    /// The document's tiles of one level: how many changed, and with
    /// `--pixels` how many of those changed visibly.
    package var tiles: TileChange?
    /// A clause's overlays before and after, as rectangles.
    package var rectangles: RectangleChange?

    package init(_ component: String, _ kind: String, clause: String? = nil, category: Int? = nil, field: String? = nil,
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

/// How one changed picture differs between two versions: its size in
/// pixels before and after, and, when the size is the same, how much of it
/// changed. "Other bytes, the same pixels" (a PNG saved again) shows as a
/// changed fraction of 0.
package struct PixelChange: Sendable, Encodable, Equatable {
    package var oldSize: String
    package var newSize: String
    /// Share of pixels that differ in any band, 0...1; nil when the sizes differ.
    package var changedFraction: Double?
    /// Mean absolute difference per band, 0...255; nil when the sizes differ.
    package var meanDifference: Double?

    package enum CodingKeys: String, CodingKey {
        case oldSize = "old_size", newSize = "new_size"
        case changedFraction = "changed_fraction", meanDifference = "mean_difference"
    }

    /// The words the text report prints.
    package var summary: String {
        guard let changedFraction, let meanDifference else { return "size \(oldSize) -> \(newSize)" }
        if changedFraction == 0 { return "\(newSize), other bytes, the same pixels" }
        return String(format: "%@, %.1f%% of pixels changed, mean difference %.1f", newSize, changedFraction * 100, meanDifference)
    }
    package init(oldSize: String, newSize: String, changedFraction: Double? = nil, meanDifference: Double? = nil) {
        self.oldSize = oldSize
        self.newSize = newSize
        self.changedFraction = changedFraction
        self.meanDifference = meanDifference
    }
}

/// A run of words of a text diff: kept, removed, inserted, or an elided
/// unchanged run ("...").
package struct WordSegment: Sendable, Encodable, Equatable {
    package enum Kind: String, Sendable, Encodable { case kept, removed, inserted, elided }
    package var kind: Kind
    package var text: String
}
