import Foundation
import MCPackSchema
import Testing

/// Names sort by their UTF-8 bytes, as `sort` with LC_ALL=C and BagIt
/// tools sort them: small strings and large, ASCII and not, one a prefix of
/// the other, and strings Foundation made.
@Suite struct UTF8OrderTests {
    static let names: [String] = [
        "", "a", "B", "b", "ab", "a/b", "a-b", "a0", "data/m_files/10/0_0.jpeg", "data/m_files/9/0_0.jpeg",
        "data/m_files/10/10_0.jpeg", "data/m_files/10/1_0.jpeg", "é", "e\u{301}", "z", "Ω", "😀", "ﬁ",
        String(repeating: "x", count: 40) + "a", String(repeating: "x", count: 40) + "b", String(repeating: "x", count: 41),
        NSString(utf8String: "data/ä.txt")! as String, "data/a\u{308}.txt", "tag\u{0}nul",
    ]

    @Test func namesSortByTheirBytes() {
        for a in Self.names {
            for b in Self.names {
                #expect(a.precedesInUTF8Order(b) == Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)), "\(a.debugDescription) before \(b.debugDescription)")
            }
        }
        // Swift's own order puts these otherwise: composed é (C3 A9) after
        // e with a combining accent (65 CC 81), which it calls equal.
        #expect("e\u{301}".precedesInUTF8Order("é"))
        #expect(!"é".precedesInUTF8Order("e\u{301}"))
    }
}
