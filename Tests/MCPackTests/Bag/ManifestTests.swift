import Foundation
import MCPackSchema
@testable import MCPackBag
@testable import MCPackKit
import Testing

/// One manifest type for build, verify and diff. `mcpack diff` compares
/// manifests line by line as bytes; these are also the manifests other
/// tools write, unsorted, with `*`, tabs and CRLF.
@Suite struct ManifestTests {
    static func delta(_ old: String, _ new: String) -> [String: [String?]] {
        ManifestDelta(old: Manifest(Data(old.utf8)), new: Manifest(Data(new.utf8))).paths.mapValues { [$0.old, $0.new] }
    }

    static func lines(_ text: String, percentEncoded: Bool = true) -> [String] {
        let manifest = Manifest(Data(text.utf8), percentEncoded: percentEncoded)
        return manifest.lines.map { line in
            "\(line.number)|\(manifest.checksum(line))|\(manifest.path(line).map { $0.debugDescription } ?? "-")\(line.starred ? "|*" : "")"
        }
    }

    /// A checksum is taken in lower case when it is hex digits of the
    /// algorithm's length, in either case, and refused otherwise.
    @Test func hexChecksumsAreLowercasedOrRefused() {
        let text = "0aF9  data/a\nABCD data/b\n0a9 data/c\n0a9g data/d\n0a9\u{e9} data/e\n0a9  \n0A9B\td\n"
        let manifest = Manifest(Data(text.utf8))
        #expect(manifest.lines.map { manifest.hexChecksum($0, count: 4) } == ["0af9", "abcd", nil, nil, nil, nil, "0a9b"])
        #expect(manifest.lines.map { manifest.hexChecksum($0, count: 3) } == [nil, nil, "0a9", nil, nil, "0a9", nil])
        #expect(manifest.lines.allSatisfy { manifest.hexChecksum($0, count: 0) == nil })
    }

    @Test func linesAreSplitAsBagItToolsWriteThem() {
        let text = "aa  data/a b.txt\n\nbb\t*data/b.txt\r\n  \t\ncc ./data/c.txt\nnoseparator\r\n\r\ndd   data/%0a%25%0D.txt"
        #expect(Self.lines(text) == [
            "1|aa|\"data/a b.txt\"", "3|bb|\"data/b.txt\"|*", "5|cc|\"data/c.txt\"", "6|noseparator|-",
            "8|dd|\"data/\\n%\\r.txt\"",
        ])
        // BagIt 0.97 wrote paths as they are.
        #expect(Self.lines("dd  data/%25.txt", percentEncoded: false) == ["1|dd|\"data/%25.txt\""])
        #expect(Self.lines("").isEmpty && Self.lines("\n \n\r\n").isEmpty)
    }

    /// Long lines and every separator at each offset: the eight-byte scans
    /// must find what a byte-by-byte reading finds.
    @Test func wordAtATimeScanAgreesWithBytes() {
        for pad in 0..<20 {
            let hash = String(repeating: "f", count: pad + 1)
            let path = "data/" + String(repeating: "é", count: pad) + "x"
            let text = "\(hash) \(path)\n\(hash)\t\(path)\r\n\(hash)"
            #expect(Self.lines(text) == ["1|\(hash)|\(path.debugDescription)", "2|\(hash)|\(path.debugDescription)", "3|\(hash)|-"])
        }
    }

    @Test func pathsArePercentEncodedOnceEachWay() {
        let name = "data/100% \r\n%0A.txt"
        let encoded = Manifest.encodePath(name)
        #expect(encoded == "data/100%25 %0D%0A%250A.txt")
        #expect(Manifest.decodePath(Array(encoded.utf8)) == name)
        #expect(Manifest.decodePath(Array("a%0a%0d%2x%".utf8)) == "a\n\r%2x%")
        let text = String(decoding: Manifest.text([(checksum: "ab", path: name), (checksum: "cd", path: "data/plain")]), as: UTF8.self)
        #expect(text == "ab  data/100%25 %0D%0A%250A.txt\ncd  data/plain\n")
        let read = Manifest(Data(text.utf8))
        #expect(read.lines.compactMap { read.path($0) } == [name, "data/plain"])
    }

    @Test func oneNamePercentEncodedTwoWaysIsOnePath() {
        #expect(Self.delta("aa  data/a%0Ab\n", "aa  data/a%0ab\n").isEmpty)
        #expect(Self.delta("aa  data/100%25.txt\n", "bb  data/100%25.txt\n") == ["data/100%.txt": ["aa", "bb"]])
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
