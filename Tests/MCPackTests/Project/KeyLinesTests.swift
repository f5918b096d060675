@testable import MCPackKit
import Testing

@Suite struct KeyLinesTests {
    @Test func findsTablesKeysAndArrayEntries() {
        let text = """
            # a comment with key = value
            [bundle]
            name = "x"
            "quoted" = 1

            [[clause]]
            id = "1"
            translation = \"\"\"
            not_a_key = 3
            [not.a.table]
            \"\"\"
            overlays = [
              [1, 2, 3, 4],
              [5, 6, 7, 8],
            ]
            colour = "#FFF"

            [[clause]]
            id = "2"
            """
        let lines = KeyLines(text)
        #expect(lines.line(for: "bundle") == 2)
        #expect(lines.line(for: "bundle.name") == 3)
        #expect(lines.line(for: "bundle.quoted") == 4)
        #expect(lines.line(for: "clause#0.id") == 7)
        #expect(lines.line(for: "clause#0.translation") == 8)
        #expect(lines.line(for: "clause#0.not_a_key") == 6)  // inside a string: falls back to the table
        #expect(lines.line(for: "clause#0.overlays") == 12)
        #expect(lines.line(for: "clause#0.colour") == 16)
        #expect(lines.line(for: "clause#1.id") == 19)
        #expect(lines.line(for: "clause#1.title") == 18)
        #expect(lines.line(for: "nowhere") == nil)
    }

    @Test func semanticVersions() {
        for good in ["1.0.0", "0.1.0", "10.20.30", "1.0.0-rc.1", "1.0.0+build.5", "1.0.0-alpha+001"] {
            #expect(SemanticVersion(good) != nil, "\(good)")
        }
        for bad in ["1.0", "v1.0.0", "01.0.0", "1.0.0-", "1.0.0.0", "", "1.0.0-01"] {
            #expect(SemanticVersion(bad) == nil, "\(bad)")
        }
    }

    @Test func didYouMean() {
        #expect(closestMatch(to: "tile_sise", in: ["tile_size", "overlap"]) == "tile_size")
        #expect(closestMatch(to: "zzzzzz", in: ["tile_size", "overlap"]) == nil)
    }

    @Test func swiftLiterals() {
        #expect(swiftLiteral("a \"b\" \\ c\nd") == #""a \"b\" \\ c\nd""#)
        #expect(swiftLiteral("\u{7}") == #""\u{7}""#)
    }

    @Test func bundleNamesFromFolders() {
        #expect(ProjectInit.bundleName(for: "My Charter") == "my-charter")
        #expect(ProjectInit.bundleName(for: "--") == "bundle")
    }
}
