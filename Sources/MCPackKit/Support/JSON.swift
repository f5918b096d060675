import Foundation

/// How mcpack writes JSON (bundle.json, clauses.json, --json output):
/// JSONEncoder's, with sorted keys, so equal values give equal bytes.
public enum JSON {
    /// Pretty, key-sorted, slash-preserving JSON with a final newline.
    public static func encode<T: Encodable>(_ value: T, pretty: Bool = true) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        // Every value mcpack encodes is finite; a failure here is a bug.
        var data = try! encoder.encode(value)
        data.append(0x0A)
        return data
    }
}
