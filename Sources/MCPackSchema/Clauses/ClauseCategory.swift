import Foundation

/// One entry of the side menu: a category clauses are tagged with, or one
/// of the two filters ("all", "none") that tag no clause. clauses.json,
/// categories.json and the preview page each write it in their own shape
/// (`encode(to:iconKey:extra:)`), but it is this one type.
public struct ClauseCategory: Sendable, Codable, Equatable, Hashable {
    public var name: String
    /// The number of its icon: the project's <icon>.png, the catalog's
    /// image `Category<icon>`.
    public var icon: Int
    /// "all" or "none" for the two menu entries that tag no clause.
    public var filter: String?

    public init(name: String, icon: Int, filter: String? = nil) {
        self.name = name
        self.icon = icon
        self.filter = filter
    }

    /// clauses.json's shape: `name`, `icon`, `filter`.
    public func encode(to encoder: Encoder) throws { try encode(to: encoder, iconKey: "icon") }

    public init(from decoder: Decoder) throws { try self.init(from: decoder, iconKey: "icon") }

    /// Its fields with the icon's number under `iconKey`, and `extra`
    /// string fields beside them. The filter is written as null, not left
    /// out: the app's decoder expects the key.
    public func encode(to encoder: Encoder, iconKey: String, extra: [String: String] = [:]) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        try container.encode(name, forKey: AnyKey("name"))
        try container.encode(icon, forKey: AnyKey(iconKey))
        try container.encode(filter, forKey: AnyKey("filter"))
        for (key, value) in extra { try container.encode(value, forKey: AnyKey(key)) }
    }

    public init(from decoder: Decoder, iconKey: String) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        name = try container.decode(String.self, forKey: AnyKey("name"))
        icon = try container.decode(Int.self, forKey: AnyKey(iconKey))
        filter = try container.decodeIfPresent(String.self, forKey: AnyKey("filter"))
    }
}
