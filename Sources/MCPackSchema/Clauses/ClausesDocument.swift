import Foundation

/// data/clauses.json: what the app reads to draw the overlays and fill the
/// detail panel: the master's size, the categories in the order of
/// clauses.toml, and the clauses, each rectangle as `pixels` (x, y, width,
/// height in master pixels) and as `fraction` of the master's width and
/// height.
public struct ClausesDocument: Codable, Equatable, Sendable {
    public static let path = "data/clauses.json"

    public var master: PixelSize
    public var categories: [ClauseCategory]
    public var clauses: [Clause]

    public init(master: PixelSize, categories: [ClauseCategory], clauses: [Clause]) {
        self.master = master
        self.categories = categories
        self.clauses = clauses
    }

    enum CodingKeys: String, CodingKey { case master, categories, clauses }

    /// Six decimals: finer than a pixel of a 100,000 px master, and the
    /// same text on every machine.
    public static func fraction(_ value: Int, of whole: Int) -> Double {
        (Double(value) / Double(whole) * 1_000_000).rounded() / 1_000_000
    }

    /// How a clause stands in clauses.json: its overlays as objects.
    private struct Entry: Codable {
        struct Overlay: Codable {
            var pixels: PixelRect
            var fraction: [Double]
        }

        var id: String
        var title: String
        var categories: [String]
        var colour: String
        var translation: String
        var context: String
        var overlays: [Overlay]
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(master, forKey: .master)
        try container.encode(categories, forKey: .categories)
        let entries = clauses.map { clause in
            Entry(id: clause.id, title: clause.title, categories: clause.categories, colour: clause.colour,
                  translation: clause.translation, context: clause.context,
                  overlays: clause.overlays.map { r in
                      Entry.Overlay(pixels: r, fraction: [Self.fraction(r.x, of: master.width), Self.fraction(r.y, of: master.height),
                                                          Self.fraction(r.width, of: master.width), Self.fraction(r.height, of: master.height)])
                  })
        }
        try container.encode(entries, forKey: .clauses)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        master = try container.decode(PixelSize.self, forKey: .master)
        categories = try container.decode([ClauseCategory].self, forKey: .categories)
        clauses = try container.decode([Entry].self, forKey: .clauses).map { entry in
            Clause(id: entry.id, title: entry.title, categories: entry.categories, colour: entry.colour,
                   translation: entry.translation, context: entry.context, overlays: entry.overlays.map(\.pixels))
        }
    }
}

/// data/categories.json: the side menu in icon order, each entry's icon
/// number under `number`.
public struct CategoriesDocument: Codable, Equatable, Sendable {
    public static let path = "data/categories.json"

    public var categories: [ClauseCategory]

    /// Sorted by icon, as the menu shows them.
    public init(_ categories: [ClauseCategory]) {
        self.categories = categories.sorted { $0.icon < $1.icon }
    }

    private struct Numbered: Codable {
        var category: ClauseCategory
        init(_ category: ClauseCategory) { self.category = category }
        func encode(to encoder: Encoder) throws { try category.encode(to: encoder, iconKey: "number") }
        init(from decoder: Decoder) throws { category = try ClauseCategory(from: decoder, iconKey: "number") }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(categories.map(Numbered.init))
    }

    public init(from decoder: Decoder) throws {
        categories = try decoder.singleValueContainer().decode([Numbered].self).map(\.category)
    }
}
