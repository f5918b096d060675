import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libarchive converts entry names between an archive's charset and the C
/// library's locale. A program starts in the "C" locale, whose charset is
/// ASCII: then every name outside ASCII (`café.txt`, a clause file named in
/// Welsh) fails to convert, and the entry cannot be read or is written
/// mangled. The names mcpack reads and writes are UTF-8, so the program
/// selects a UTF-8 character type at start; like the time zone, that is
/// process-wide state, set once, not by each reader and writer.
public enum ArchiveNames {
    /// Sets LC_CTYPE to a UTF-8 locale for the whole process (C.UTF-8, or
    /// the plain "UTF-8" of macOS). Call first thing in `main`, before any
    /// thread starts. Returns false when the system has no UTF-8 locale.
    @discardableResult
    public static func useUTF8() -> Bool {
        for name in ["C.UTF-8", "C.utf8", "UTF-8", "en_US.UTF-8"] where setlocale(LC_CTYPE, name) != nil {
            return true
        }
        return false
    }
}

extension ArchiveNames {
    /// An entry's name as text, or nil when its bytes are not valid UTF-8.
    /// Decoded and compared back rather than with `String(validating:as:)`,
    /// which Apple's platforms have only from macOS 15 and iOS 18, above
    /// the package's floors: an invalid byte decodes to U+FFFD, which
    /// encodes to other bytes.
    /// ASCII, as nearly every name is, needs no comparison; the rest is
    /// compared in the string's own storage, not index by index through
    /// `String.UTF8View`, which showed in a rebuild's profile (every entry
    /// of the archive copied from goes through here).
    public static func text(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        if bytes.allSatisfy({ $0 < 0x80 }) { return text }
        let same = text.utf8.withContiguousStorageIfAvailable { stored in stored.elementsEqual(bytes) } ?? text.utf8.elementsEqual(bytes)
        return same ? text : nil
    }
}
