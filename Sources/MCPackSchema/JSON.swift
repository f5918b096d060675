import Foundation

/// How mcpack writes JSON (bundle.json, clauses.json, --json output): one
/// writer (`JSONWriter`), keys in UTF-8 byte order, so equal values give
/// equal bytes on every platform.
public enum JSON {
    /// Pretty, key-sorted, slash-preserving JSON with a final newline.
    public static func encode<T: Encodable>(_ value: T, pretty: Bool = true) -> Data {
        // Every value mcpack encodes is finite and has no Date or Data in
        // it; a failure here is a bug.
        var data = try! JSONWriter.write(value, pretty: pretty)
        data.append(0x0A)
        return data
    }

    /// A decoding error as a person reads it: where, and what was wrong.
    public static func describe(_ error: Error) -> String {
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

/// A coding key for names known only at run time (an input's name, a key
/// a file format spells its own way).
public struct AnyKey: CodingKey, Sendable {
    public var stringValue: String
    public var intValue: Int? { nil }

    public init(_ name: String) { stringValue = name }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}
