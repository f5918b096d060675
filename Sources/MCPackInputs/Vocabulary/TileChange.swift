import Foundation
import MCPackSchema

/// The document's tiles of one pyramid level between two versions.
public struct TileChange: Sendable, Encodable, Equatable {
    /// The Deep Zoom level; -1 for a IIIF group (a scale factor, or the
    /// full images), which the change's path names.
    public var level: Int
    public var added = 0
    public var removed = 0
    /// Tiles both versions hold, with other bytes.
    public var changed = 0
    /// Of the changed tiles, those that look different (`--pixels`); the
    /// rest were only encoded again. Nil when not decoded.
    public var visible: Int?
    /// Their names, `column_row`, in order.
    public var visibleTiles: [String]?
    /// The largest block difference of the level (0...255), against
    /// `TileComparison.threshold`.
    public var largestDifference: Double?

    package enum CodingKeys: String, CodingKey {
        case level, added, removed, changed, visible
        case visibleTiles = "visible_tiles", largestDifference = "largest_difference"
    }

    /// The words a report prints: "3 added, 6 changed, 2 visibly".
    public var summary: String {
        var parts = [(added, "added"), (removed, "removed"), (changed, "changed")].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        if let visible, changed > 0 {
            parts.append(visible == 0 ? "none visibly" : visible == changed ? "all visibly" : "\(visible) visibly")
        }
        return parts.joined(separator: ", ")
    }
}

/// A clause's overlay rectangles before and after, in master pixels, so a
/// report can draw them.
public struct RectangleChange: Sendable, Encodable, Equatable {
    public var old: [PixelRect]
    public var new: [PixelRect]
}
