import Foundation
import Hashing

/// SSH's wire encoding (RFC 4251 §5): big-endian integers, length-prefixed
/// strings, mpints; and the armour OpenSSH wraps its files in.
enum SSHWire {
    static func uint32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func string(_ bytes: [UInt8]) -> [UInt8] { uint32(UInt32(bytes.count)) + bytes }

    static func string(_ text: String) -> [UInt8] { string(Array(text.utf8)) }

    /// A non-negative number given as unsigned big-endian bytes: leading
    /// zeros dropped, one put back when the top bit would read as a sign.
    static func mpint(_ unsigned: [UInt8]) -> [UInt8] {
        let trimmed = Array(unsigned.drop { $0 == 0 })
        return string((trimmed.first ?? 0) & 0x80 != 0 ? [0] + trimmed : trimmed)
    }

    /// `SHA256:` and the unpadded base64 of the key blob's SHA-256, as
    /// ssh-keygen -l prints it.
    static func fingerprint(_ blob: [UInt8]) -> String {
        let digest = (try? Digest.bytes(of: blob, .sha256)) ?? []
        return "SHA256:" + Data(digest).base64EncodedString().replacingOccurrences(of: "=", with: "")
    }

    /// `-----BEGIN label-----`, the base64 in lines of 70 (as ssh-keygen
    /// writes them), `-----END label-----`.
    static func armor(_ blob: [UInt8], _ label: String) -> String {
        let base64 = Data(blob).base64EncodedString()
        var lines: [String] = []
        var rest = Substring(base64)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(70)))
            rest = rest.dropFirst(70)
        }
        return "-----BEGIN \(label)-----\n" + lines.joined(separator: "\n") + "\n-----END \(label)-----\n"
    }

    /// The bytes between the armour lines; nil when they are missing or
    /// the base64 is damaged. `atStart`: the BEGIN line must open the text,
    /// as OpenSSH requires of a signature.
    static func dearmor(_ text: String, _ label: String, atStart: Bool = false) -> [UInt8]? {
        guard let begin = text.range(of: "-----BEGIN \(label)-----"), !atStart || begin.lowerBound == text.startIndex,
              let end = text.range(of: "-----END \(label)-----", range: begin.upperBound..<text.endIndex) else { return nil }
        let base64 = text[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
        return Data(base64Encoded: String(base64)).map { [UInt8]($0) }
    }

    /// Reads the wire encoding; each read is nil when the bytes run out or
    /// break the rules OpenSSH's sshbuf enforces.
    struct Reader {
        private let data: [UInt8]
        private var at = 0
        init(_ bytes: [UInt8]) { data = bytes }

        var atEnd: Bool { at == data.count }
        /// How many bytes have been read: what a certificate's signature covers.
        var offset: Int { at }

        mutating func take(_ count: Int) -> [UInt8]? {
            guard count >= 0, data.count - at >= count else { return nil }
            defer { at += count }
            return Array(data[at..<at + count])
        }

        /// What is left, read to the end.
        mutating func rest() -> [UInt8] { take(data.count - at) ?? [] }

        mutating func byte() -> UInt8? { take(1)?.first }

        mutating func uint32() -> UInt32? {
            take(4).map { $0.reduce(0) { $0 << 8 | UInt32($1) } }
        }

        mutating func uint64() -> UInt64? {
            take(8).map { $0.reduce(0) { $0 << 8 | UInt64($1) } }
        }

        mutating func bytes() -> [UInt8]? {
            guard let length = uint32(), length <= 1 << 24 else { return nil }
            return take(Int(length))
        }

        /// A string of text: sshbuf_get_cstring refuses one holding a NUL.
        mutating func text() -> String? {
            guard let bytes = bytes(), !bytes.contains(0) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// An mpint as sshbuf_get_bignum2 reads it: negative refused, more
        /// than 16384 bits refused, leading zeros dropped.
        mutating func mpint() -> [UInt8]? {
            guard let bytes = bytes() else { return nil }
            if let first = bytes.first, first & 0x80 != 0 { return nil }
            guard bytes.count <= 2048 || (bytes.count == 2049 && bytes[0] == 0) else { return nil }
            return Array(bytes.drop { $0 == 0 })
        }
    }
}
