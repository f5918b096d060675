import Foundation

/// data/bundle.json: what was built, from what, with which settings. Each
/// input's record sits under `components`, keyed by the input's name, in the
/// input's own `Codable` type; keys are sorted when encoded, so the same
/// build gives the same bytes.
struct BundleFile: Encodable {
    struct Info: Codable, Equatable, Sendable {
        var name: String
        var version: String
        var title: String
        var sourceDate: String

        enum CodingKeys: String, CodingKey { case name, version, title, sourceDate = "source_date" }
    }

    var schema = 1
    var mcpack: String
    var bundle: Info
    var components: [String: any Encodable & Sendable]
    /// bundle.toml and every input file read, in byte order of their paths.
    var inputs: [SourceFile]

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        try container.encode(schema, forKey: AnyKey("schema"))
        try container.encode(mcpack, forKey: AnyKey("mcpack"))
        try container.encode(bundle, forKey: AnyKey("bundle"))
        var records = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("components"))
        for (name, record) in components { try records.encode(record, forKey: AnyKey(name)) }
        try container.encode(inputs, forKey: AnyKey("inputs"))
    }

    /// What verify and diff read of any bundle.json, leniently: a field
    /// missing from an older or damaged file is nil, not a failure.
    struct Head: Decodable {
        var mcpack: String?
        var bundle: Info?
        var inputs: [SourceFile]?
        /// Present when `components` is an object.
        var components: ObjectPresence?
    }

    /// Decodes only when the value is a JSON object.
    struct ObjectPresence: Decodable {
        init(from decoder: Decoder) throws { _ = try decoder.container(keyedBy: AnyKey.self) }
    }

    /// A decoding error as a person reads it: where, and what was wrong.
    static func describe(_ error: Error) -> String {
        func path(_ codingPath: [CodingKey]) -> String {
            codingPath.isEmpty ? "the top level" : codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
                .replacingOccurrences(of: ".[", with: "[")
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?: return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context)?: return "\(path(context.codingPath)) is not \(type == String.self ? "a string" : type == Int.self ? "an integer" : "a \(type)")"
        case .valueNotFound(_, let context)?: return "\(path(context.codingPath)) is null"
        case .dataCorrupted(let context)?: return "\(path(context.codingPath)): \(context.debugDescription)"
        default: return "\(error)"
        }
    }
}

/// One input's record in a bundle.json, decoded as that input's type.
struct ComponentRecord<I: BundleInput>: Decodable {
    var record: I.Record?

    init(from decoder: Decoder) throws {
        let root = try decoder.container(keyedBy: AnyKey.self)
        let components = try root.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("components"))
        record = try components.decodeIfPresent(I.Record.self, forKey: AnyKey(I.component))
    }
}

/// A coding key for names known only at run time (an input's name).
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
