import Foundation
import Hashing
import MCPackSchema

/// What a name inside a bag says it is. Whether it is safe is the schema's
/// one rule (`BagPath`), which the reader applies before any byte of an
/// entry is read and verify to every manifest line, as the app does.
package enum BagNames {
    /// Finder's own files, which a Mac writes into any folder it shows
    /// (`.DS_Store`) and into archives and non-HFS volumes (`._name`
    /// AppleDouble files, a zip's `__MACOSX/`).
    package static func isFinderMetadata(_ path: String) -> Bool {
        // Asked of every path of a bag: the last component found in the
        // bytes, not by a search through the String's characters.
        let named: (UnsafeBufferPointer<UInt8>) -> Bool = { bytes in
            let name = bytes.lastIndex(of: UInt8(ascii: "/")).map { bytes[($0 + 1)...] } ?? bytes[...]
            return name.elementsEqual(".DS_Store".utf8) || name.starts(with: "._".utf8)
        }
        if PathBytes.withBytes(path, named) { return true }
        // "__MACOSX" as a whole component.
        return PathBytes.contains(path, "__MACOSX/", atComponentStart: true)
    }

    /// Tag files are the files outside data/.
    package static func isTagFile(_ path: String) -> Bool { !PathBytes.hasPrefix(path, "data/") }

    /// The algorithm a (tag) manifest's name gives, `manifest-sha256.txt`
    /// with prefix `manifest-`; nil for another name or an algorithm
    /// mcpack cannot compute.
    package static func manifestAlgorithm(_ name: String, prefix: String) -> DigestAlgorithm? {
        manifestName(name, prefix: prefix).flatMap(DigestAlgorithm.init(rawValue:))
    }

    /// What a (tag) manifest's name says between `prefix` and `.txt`, told
    /// from its bytes as every bag path is (`sha256`, or an algorithm
    /// mcpack does not know); nil for a name not of that shape.
    package static func manifestName(_ name: String, prefix: String) -> String? {
        PathBytes.withBytes(name) { bytes in
            let start = prefix.utf8.count
            guard bytes.count >= start + 4, PathBytes.hasPrefix(name, prefix), bytes.suffix(4).elementsEqual(".txt".utf8) else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(bytes.count - 4)]), as: UTF8.self)
        }
    }

    /// The text lowercased, for names that collide on a case-insensitive
    /// disk; lowercasing is skipped where it cannot change anything (ASCII
    /// without capitals, as checksums and bundle paths mostly are), which
    /// spares 17,000 passes through Unicode's tables.
    package static func folded<S: StringProtocol>(_ text: S) -> String {
        isFolded(text) ? String(text) : text.lowercased()
    }

    /// The same for a String, the usual case (a checksum, an entry's
    /// path, three times a path in a verify): the generic form is not
    /// specialized across the module boundary.
    package static func folded(_ text: String) -> String {
        isFolded(text) ? text : text.lowercased()
    }

    /// ASCII without capitals: what `folded` gives back unchanged.
    package static func isFolded<Text: StringProtocol>(_ text: Text) -> Bool {
        PathBytes.withBytes(text) { !$0.contains { $0 >= 0x80 || $0 &- 0x41 < 26 } }
    }
}

/// bag-info.txt's labels (RFC 8493 §2.2.2).
package enum BagInfo {
    /// `Label: value` lines in order; a line starting with whitespace
    /// continues the last.
    package static func labels(_ text: String) -> [(String, String)] {
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
