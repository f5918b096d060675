import Foundation

/// The one JSON writer of everything mcpack puts in a bag or prints: an
/// `Encoder` of its own that gathers a value's tree, then text written by
/// rules that are the same on every platform. `JSONEncoder` is not that:
/// with `.sortedKeys`, Darwin's Foundation on macOS 13 and 14 orders keys
/// as Finder does (case-insensitively, digits by value), swift-foundation
/// by UTF-8 bytes, so one project gave other bytes on a Mac. Here keys are
/// ordered by their UTF-8 bytes, numbers written by Swift's own shortest
/// round-trip form, and the layout is `JSONEncoder`'s pretty one (two
/// spaces, `"key" : value`), so files written before this writer keep
/// their bytes.
enum JSONWriter {
    static func write<T: Encodable>(_ value: T, pretty: Bool) throws -> Data {
        let encoder = TreeEncoder(node: JSONNode(), codingPath: [])
        try value.encode(to: encoder)
        var out = ""
        encoder.node.write(to: &out, pretty: pretty, indent: 0)
        return Data(out.utf8)
    }
}

/// One value of the tree; a reference, so that containers handed out by an
/// encoder fill the node after it returns them.
final class JSONNode {
    enum Content {
        /// Nothing encoded yet: written as `{}`, as `JSONEncoder` writes a
        /// value that encoded nothing.
        case unset
        /// A scalar already in its JSON form.
        case literal(String)
        case array([JSONNode])
        case object([String: JSONNode])
    }

    var content: Content = .unset

    init(_ content: Content = .unset) { self.content = content }

    func write(to out: inout String, pretty: Bool, indent: Int) {
        let inner = String(repeating: " ", count: indent + 2), outer = String(repeating: " ", count: indent)
        switch content {
        case .unset:
            out += "{}"
        case .literal(let text):
            out += text
        case .array(let items):
            // JSONEncoder's pretty form of an empty array or object keeps an
            // empty line inside; kept, so earlier files keep their bytes.
            guard !items.isEmpty else { out += pretty ? "[\n\n\(outer)]" : "[]"; return }
            out += pretty ? "[\n" : "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += pretty ? ",\n" : "," }
                if pretty { out += inner }
                item.write(to: &out, pretty: pretty, indent: indent + 2)
            }
            out += pretty ? "\n\(outer)]" : "]"
        case .object(let members):
            guard !members.isEmpty else { out += pretty ? "{\n\n\(outer)}" : "{}"; return }
            out += pretty ? "{\n" : "{"
            // By UTF-8 bytes, whatever the platform or locale.
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                if index > 0 { out += pretty ? ",\n" : "," }
                if pretty { out += inner }
                out += Self.quoted(key) + (pretty ? " : " : ":")
                members[key]!.write(to: &out, pretty: pretty, indent: indent + 2)
            }
            out += pretty ? "\n\(outer)}" : "}"
        }
    }

    /// A string as JSON text: quotes, backslashes and control characters
    /// escaped, everything else (`/` and all of Unicode) as it is.
    static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: false)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Swift's shortest form that reads back as the same number, without
    /// a `.0` for whole numbers (as `JSONEncoder` writes them).
    static func number<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) throws -> String {
        guard value.isFinite else { throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(value) has no JSON form")) }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}

private struct TreeEncoder: Encoder {
    let node: JSONNode
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([:]) }
        return KeyedEncodingContainer(KeyedContainer(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> SingleValueEncodingContainer { SingleContainer(node: node, codingPath: codingPath) }
}

/// Encodes one value into `node`: scalars as literals, anything else by
/// its own `encode(to:)` with a new encoder on the node.
private func encodeValue<T: Encodable>(_ value: T, into node: JSONNode, codingPath: [CodingKey]) throws {
    switch value {
    case let v as String: node.content = .literal(JSONNode.quoted(v))
    case let v as Bool: node.content = .literal(v ? "true" : "false")
    case let v as Double: node.content = .literal(try JSONNode.number(v))
    case let v as Float: node.content = .literal(try JSONNode.number(v))
    case let v as any BinaryInteger: node.content = .literal("\(v)")
    case let v as URL: node.content = .literal(JSONNode.quoted(v.absoluteString))
    case let v as Decimal: node.content = .literal("\(v)")
    case is Date, is Data:
        // Their JSONEncoder forms depend on strategies; mcpack writes
        // dates and bytes as strings of its own choosing.
        throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "mcpack encodes \(T.self) as a string of its own"))
    default: try value.encode(to: TreeEncoder(node: node, codingPath: codingPath))
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONNode
    let codingPath: [CodingKey]

    private func child(_ key: CodingKey, _ content: JSONNode.Content = .unset) -> JSONNode {
        guard case .object(var members) = node.content else { preconditionFailure("a keyed container's node holds an object") }
        // A key encoded twice keeps its last value, as JSONEncoder does.
        let child = JSONNode(content)
        members[key.stringValue] = child
        node.content = .object(members)
        return child
    }

    mutating func encodeNil(forKey key: Key) throws { _ = child(key, .literal("null")) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encodeValue(value, into: child(key), codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child(key, .object([:])), codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        UnkeyedContainer(node: child(key, .array([])), codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> Encoder { TreeEncoder(node: child(AnyKey("super")), codingPath: codingPath) }

    mutating func superEncoder(forKey key: Key) -> Encoder { TreeEncoder(node: child(key), codingPath: codingPath + [key]) }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: JSONNode
    let codingPath: [CodingKey]

    var count: Int {
        guard case .array(let items) = node.content else { return 0 }
        return items.count
    }

    private func append(_ content: JSONNode.Content = .unset) -> JSONNode {
        guard case .array(var items) = node.content else { preconditionFailure("an unkeyed container's node holds an array") }
        let child = JSONNode(content)
        items.append(child)
        node.content = .array(items)
        return child
    }

    private var nextPath: [CodingKey] { codingPath + [IndexKey(index: count)] }

    mutating func encodeNil() throws { _ = append(.literal("null")) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = nextPath
        try encodeValue(value, into: append(), codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: append(.object([:])), codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        let path = nextPath
        return UnkeyedContainer(node: append(.array([])), codingPath: path)
    }

    mutating func superEncoder() -> Encoder {
        let path = nextPath
        return TreeEncoder(node: append(), codingPath: path)
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let node: JSONNode
    let codingPath: [CodingKey]

    mutating func encodeNil() throws { node.content = .literal("null") }

    mutating func encode<T: Encodable>(_ value: T) throws { try encodeValue(value, into: node, codingPath: codingPath) }
}

private struct IndexKey: CodingKey {
    let index: Int
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
    init(index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { index = intValue }
}
