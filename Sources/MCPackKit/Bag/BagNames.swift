import Foundation
import Hashing

/// What a name inside a bag may be, and what its place says it is. The
/// reader refuses unsafe names before any byte of an entry is read; verify
/// holds manifest lines to the same rules.
enum BagNames {
    /// Why a name is refused: it would land outside the bag when unpacked,
    /// or could not be shown or typed.
    enum Unsafe: Error, Sendable, Equatable {
        case controlCharacters, absolute, home, dotDot

        var rule: String { self == .controlCharacters ? "unsafe-name" : "unsafe-path" }

        var message: String {
            switch self {
            case .controlCharacters: return "the name holds control characters"
            case .absolute: return "absolute path; every entry must stay inside the bag"
            case .home: return "a path starting with ~ names another user's home"
            case .dotDot: return "a .. component leads outside the bag"
            }
        }
    }

    /// Finder's own files, which a Mac writes into any folder it shows
    /// (`.DS_Store`) and into archives and non-HFS volumes (`._name`
    /// AppleDouble files, a zip's `__MACOSX/`).
    static func isFinderMetadata(_ path: String) -> Bool {
        let name = path[(path.lastIndex(of: "/").map(path.index(after:)) ?? path.startIndex)...]
        return name == ".DS_Store" || name.hasPrefix("._") || path.hasPrefix("__MACOSX/") || path.contains("/__MACOSX/")
    }

    /// True for a path that needs no checking beyond this scan and no
    /// normalising: no control characters or backslashes, no empty, "." or
    /// ".." component (nor any starting with "."), not absolute, no "~" or
    /// drive letter. The common case, kept from splitting into components.
    static func isPlain(_ path: String) -> Bool {
        var previous: UInt8 = 0x2F
        var index = 0
        for byte in path.utf8 {
            if byte < 0x20 || byte == 0x7F || byte == 0x5C { return false }
            if previous == 0x2F && (byte == 0x2F || byte == 0x2E || byte == 0x7E) { return false }
            if index == 1 && byte == 0x3A { return false }
            previous = byte
            index += 1
        }
        return index > 0 && previous != 0x2F
    }

    /// The `/`-separated components of a path as stored, "." and empty ones
    /// dropped, or why it is unsafe: absolute, `..`, `~user`, a drive
    /// letter, control characters. Byte-level, without Foundation: it runs
    /// once per entry and per manifest line, tens of thousands of times in
    /// a large bag.
    static func components(_ path: String) -> Result<[String], Unsafe> {
        let bytes = Array(path.utf8)
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return .failure(.controlCharacters) }
        let driveLetter = bytes.count >= 2 && bytes[1] == UInt8(ascii: ":")
            && ((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[0]) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[0]))
        if bytes.first == UInt8(ascii: "/") || bytes.first == UInt8(ascii: "\\") || driveLetter { return .failure(.absolute) }
        if bytes.first == UInt8(ascii: "~") { return .failure(.home) }
        let components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if components.contains(where: { $0 == ".." || $0.hasSuffix("\\..") || $0.hasPrefix("..\\") }) { return .failure(.dotDot) }
        return .success(components.filter { $0 != "." })
    }

    /// Tag files are the files outside data/.
    static func isTagFile(_ path: String) -> Bool { !path.hasPrefix("data/") }

    /// The algorithm a (tag) manifest's name gives, `manifest-sha256.txt`
    /// with prefix `manifest-`; nil for another name or an algorithm
    /// mcpack cannot compute.
    static func manifestAlgorithm(_ name: String, prefix: String) -> DigestAlgorithm? {
        guard name.hasPrefix(prefix), name.hasSuffix(".txt") else { return nil }
        return DigestAlgorithm(rawValue: String(name.dropFirst(prefix.count).dropLast(4)))
    }

    /// The text lowercased, for names that collide on a case-insensitive
    /// disk; lowercasing is skipped where it cannot change anything (ASCII
    /// without capitals, as checksums and bundle paths mostly are), which
    /// spares 17,000 passes through Unicode's tables.
    static func folded<S: StringProtocol>(_ text: S) -> String {
        text.utf8.allSatisfy { $0 < 0x80 && !(0x41...0x5A).contains($0) } ? String(text) : text.lowercased()
    }
}

/// bag-info.txt's labels (RFC 8493 §2.2.2).
enum BagInfo {
    /// `Label: value` lines in order; a line starting with whitespace
    /// continues the last.
    static func labels(_ text: String) -> [(String, String)] {
        var labels: [(String, String)] = []
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            if let first = line.first, first == " " || first == "\t", !labels.isEmpty {
                labels[labels.count - 1].1 += " " + line.trimmingCharacters(in: .whitespaces)
            } else if let colon = line.firstIndex(of: ":") {
                labels.append((line[..<colon].trimmingCharacters(in: .whitespaces),
                               line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            }
        }
        return labels
    }
}
