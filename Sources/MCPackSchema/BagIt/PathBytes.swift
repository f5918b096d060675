import Foundation

/// Questions asked of every path of a bag (17,000 for a 34,000 px master,
/// in every build and every verify), answered from the path's UTF-8 bytes:
/// Foundation's search for text within text and lowercased copies of each
/// path showed in verify's and a rebuild's profiles. The parts asked about
/// are ASCII.
public enum PathBytes {
    /// Whether `part` occurs in `path`; with `atComponentStart`, only where
    /// it starts a component (at the start or after a `/`).
    public static func contains(_ path: String, _ part: StaticString, atComponentStart: Bool = false) -> Bool {
        withBytes(path) { bytes in
            let count = part.utf8CodeUnitCount
            guard count > 0, bytes.count >= count else { return count == 0 }
            let first = part.utf8Start[0]
            for start in 0...(bytes.count - count) where bytes[start] == first {
                if atComponentStart && start > 0 && bytes[start - 1] != UInt8(ascii: "/") { continue }
                if (1..<count).allSatisfy({ bytes[start + $0] == part.utf8Start[$0] }) { return true }
            }
            return false
        }
    }

    /// Whether `path` ends in `suffix`, byte for byte.
    public static func hasSuffix(_ path: String, _ suffix: StaticString) -> Bool {
        withBytes(path) { bytes in
            let count = suffix.utf8CodeUnitCount
            return bytes.count >= count && memcmp(bytes.baseAddress! + (bytes.count - count), suffix.utf8Start, count) == 0
        }
    }

    /// Whether `path` ends in `suffix`, its letters in either case.
    public static func hasSuffix(_ path: String, ignoringCase suffix: StaticString) -> Bool {
        withBytes(path) { bytes in
            let count = suffix.utf8CodeUnitCount
            guard bytes.count >= count else { return false }
            let start = bytes.count - count
            return (0..<count).allSatisfy { lowered(bytes[start + $0]) == lowered(suffix.utf8Start[$0]) }
        }
    }

    /// The ending of the last component, after its last dot, in ASCII lower
    /// case; nil when it has no dot or starts with its only one (`.png` is
    /// a hidden file's name, not an ending), as Foundation's pathExtension.
    public static func ending(_ path: String) -> String? {
        withBytes(path) { bytes in
            let name = bytes.lastIndex(of: UInt8(ascii: "/")).map { bytes[($0 + 1)...] } ?? bytes[...]
            guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return nil }
            return String(decoding: name[(dot + 1)...].map(lowered), as: UTF8.self)
        }
    }

    /// Whether `path` starts with `prefix`, byte for byte. String's own
    /// `hasPrefix` compares Characters: to it `data/` does not start
    /// `data/\u{301}x`, whose `/` and combining accent make one; a file
    /// system sees a file in data/. Every rule that asks which folder a bag
    /// path is in, or which manifest a name is, asks here, so that no two
    /// rules answer it differently.
    public static func hasPrefix(_ path: String, _ prefix: String) -> Bool {
        withBytes(path) { bytes in
            withBytes(prefix) { start in
                bytes.count >= start.count && (start.isEmpty || memcmp(bytes.baseAddress!, start.baseAddress!, start.count) == 0)
            }
        }
    }

    /// Whether `path` names something directly in its top folder: no `/`.
    public static func isTopLevel(_ path: String) -> Bool {
        withBytes(path) { !$0.contains(UInt8(ascii: "/")) }
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    /// The text's UTF-8 bytes where they lie (a copy only for a string
    /// bridged from elsewhere): walking a String's UTF-8 view instead costs
    /// tens of instructions a byte, which every path of a bag shows.
    @inlinable
    public static func withBytes<Text: StringProtocol, T>(_ text: Text, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        text.utf8.withContiguousStorageIfAvailable(body) ?? Array(text.utf8).withUnsafeBufferPointer(body)
    }
}
