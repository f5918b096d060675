import Foundation

/// One clause of the charter: its text, the categories it is tagged with,
/// and the rectangles (1 to 4) where it stands on the master scan.
/// Encoded with its overlays as `[x, y, width, height]`; clauses.json adds
/// each rectangle as fractions of the master (`ClausesDocument`).
public struct Clause: Sendable, Codable, Equatable {
    public var id: String
    public var title: String
    public var categories: [String]
    /// `#RRGGBB` or `#RRGGBBAA`, upper case.
    public var colour: String
    public var translation: String
    public var context: String
    public var overlays: [PixelRect]

    public init(id: String, title: String, categories: [String], colour: String, translation: String, context: String, overlays: [PixelRect]) {
        self.id = id
        self.title = title
        self.categories = categories
        self.colour = colour
        self.translation = translation
        self.context = context
        self.overlays = overlays
    }

    /// The colour as 0xRRGGBBAA (alpha FF when the colour gives none).
    public var rgba: UInt32 {
        let hex = colour.dropFirst()
        return UInt32(hex.count == 6 ? hex + "FF" : hex, radix: 16) ?? 0
    }
}

/// A rectangle in master-image pixels, encoded as `[x, y, width, height]`.
public struct PixelRect: Sendable, Codable, Equatable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var values: [Int] { [x, y, width, height] }

    /// Whether the point lies inside: left and top edges included, right
    /// and bottom excluded, so two rectangles side by side share no pixel.
    public func contains(x px: Double, y py: Double) -> Bool {
        px >= Double(x) && px < Double(x + width) && py >= Double(y) && py < Double(y + height)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }

    public init(from decoder: Decoder) throws {
        let values = try decoder.singleValueContainer().decode([Int].self)
        guard values.count == 4 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected [x, y, width, height], got \(values.count) numbers"))
        }
        self.init(x: values[0], y: values[1], width: values[2], height: values[3])
    }
}

/// A picture's size in pixels.
public struct PixelSize: Sendable, Codable, Equatable, Hashable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
