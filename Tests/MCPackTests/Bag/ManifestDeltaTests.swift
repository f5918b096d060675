import Foundation
@testable import MCPackKit
import Testing

/// `mcpack diff` compares manifests line by line as bytes; these are the
/// manifests other tools write, unsorted, with `*` and CRLF.
@Suite struct ManifestDeltaTests {
    static func delta(_ old: String, _ new: String) -> [String: [String?]] {
        ManifestDelta(old: Data(old.utf8), new: Data(new.utf8)).paths.mapValues { [$0.old, $0.new] }
    }

    @Test func sortedManifestsGiveOnlyTheLinesThatDiffer() {
        let old = "aa  data/a.txt\nbb  data/b.txt\ncc  data/c.txt\n"
        let new = "aa  data/a.txt\nbx  data/b.txt\ndd  data/d.txt\n"
        #expect(Self.delta(old, new) == ["data/b.txt": ["bb", "bx"], "data/c.txt": ["cc", nil], "data/d.txt": [nil, "dd"]])
        #expect(Self.delta(old, old).isEmpty)
    }

    @Test func unsortedStarredAndCRLFManifestsCompareAsTheSameFiles() {
        let old = "cc  data/c.txt\naa  data/a.txt\nbb  data/b.txt\n"
        let new = "bb *data/b.txt\r\naa *data/a.txt\r\ncc *data/c.txt\r\n"
        #expect(Self.delta(old, new).isEmpty)
        let changed = "bb *data/b.txt\r\nzz *data/a.txt\r\n"
        #expect(Self.delta(old, changed) == ["data/a.txt": ["aa", "zz"], "data/c.txt": ["cc", nil]])
    }

    @Test func aPathListedTwiceKeepsItsFirstLine() {
        let old = "aa  data/a.txt\n"
        let new = "aa  data/a.txt\nab  data/a.txt\n"
        #expect(Self.delta(old, new).isEmpty)
        #expect(Self.delta("ab  data/a.txt\naa  data/a.txt\n", old) == ["data/a.txt": ["ab", "aa"]])
    }

    /// é composed (NFC) in one manifest and decomposed (NFD, as a Mac may
    /// write it) in the other is one name, as it is to a dictionary.
    @Test func oneNameSpelledTwoWaysIsOnePath() {
        let nfc = "data/caf\u{E9}.png"
        let nfd = "data/cafe\u{301}.png"
        #expect(Self.delta("aa  \(nfc)\n", "aa  \(nfd)\n").isEmpty)
        let changed = Self.delta("aa  \(nfc)\n", "bb  \(nfd)\n")
        #expect(changed.count == 1)
        #expect(changed.values.first == ["aa", "bb"])
    }

    @Test func emptyAndBlankManifests() {
        #expect(Self.delta("", "").isEmpty)
        #expect(Self.delta("\n\n", "aa  data/a.txt") == ["data/a.txt": [nil, "aa"]])
    }
}
