import Foundation
import MCPackSchema

/// The document's tiles of one pyramid level between two versions.
package struct TileChange: Sendable, Encodable, Equatable {
    /// The Deep Zoom level; -1 for a IIIF group (a scale factor, or the
    /// full images), which the change's path names.
    package var level: Int
    package var added = 0
    package var removed = 0
    /// Tiles both versions hold, with other bytes.
    package var changed = 0
    /// Of the changed tiles, those that look different (`--pixels`); the
    /// rest were only encoded again. Nil when not decoded.
    package var visible: Int?
    /// Their names, `column_row`, in order.
    package var visibleTiles: [String]?
    /// The largest block difference of the level (0...255), against
    /// `TileComparison.threshold`.
    package var largestDifference: Double?

    package enum CodingKeys: String, CodingKey {
        case level, added, removed, changed, visible
        case visibleTiles = "visible_tiles", largestDifference = "largest_difference"
    }

    /// The words a report prints: "3 added, 6 changed, 2 visibly".
    package var summary: String {
        var parts = [(added, "added"), (removed, "removed"), (changed, "changed")].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        if let visible, changed > 0 {
            parts.append(visible == 0 ? "none visibly" : visible == changed ? "all visibly" : "\(visible) visibly")
        }
        return parts.joined(separator: ", ")
    }
}

/// A clause's overlay rectangles before and after, in master pixels, so a
/// report can draw them.
package struct RectangleChange: Sendable, Encodable, Equatable {
    package var old: [PixelRect]
    package var new: [PixelRect]
}
