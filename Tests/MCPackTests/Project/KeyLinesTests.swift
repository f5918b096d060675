@testable import MCPackInputs
@testable import MCPackKit
import SwiftLiteral
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

    @Test func countsWindowsLineEndings() {
        let lines = KeyLines("[bundle]\r\nname = \"x\"\r\n\r\n[document]\r\nimage = \"a.png\"\r\n")
        #expect(lines.line(for: "bundle.name") == 2)
        #expect(lines.line(for: "document.image") == 5)
    }

    /// Found by `make fuzz`: toml++ in TOMLKit 0.6.0 aborts the process on
    /// these; mcpack must report them as syntax errors at the right line.
    @Test(arguments: [
        ("[#", 1, 2), ("a = 1\n[ #x]\n", 2, 3), ("[[[1]]]", 1, 3), ("x = 2\n[\ny = 1\n", 2, 2),
        ("[&", 1, 2), ("[\u{1}]", 1, 2), ("[[ é ]]", 1, 4), ("o=\"\"#\"\"\"\n[\r", 2, 2), ("a = 1\r\n[\r\n", 2, 2),
    ])
    func headerWithoutANameIsASyntaxError(_ text: String, line: Int, column: Int) {
        let sink = DiagnosticSink()
        #expect(TOMLSource.parse(text, displayPath: "bundle.toml", sink: sink) == nil)
        let diagnostic = sink.all.first
        #expect(diagnostic?.line == line, "\(sink.all)")
        #expect(diagnostic?.message.hasPrefix("TOML syntax: a table header needs a name") == true, "\(sink.all)")
        #expect(diagnostic?.message.hasSuffix("(column \(column))") == true, "\(sink.all)")
    }

    @Test(arguments: [("l=[}", 1, 4), ("a = [1, }", 1, 9), ("a = [\n  1, # one\n  }", 3, 3), ("[t]\nb = [[1], [ }]]", 2, 13)])
    func closingBraceWhereAnArrayValueShouldBeIsASyntaxError(_ text: String, line: Int, column: Int) {
        let sink = DiagnosticSink()
        #expect(TOMLSource.parse(text, displayPath: "bundle.toml", sink: sink) == nil)
        let diagnostic = sink.all.first
        #expect(diagnostic?.line == line, "\(sink.all)")
        #expect(diagnostic?.message.hasPrefix("TOML syntax: an array holds values") == true, "\(sink.all)")
        #expect(diagnostic?.message.hasSuffix("(column \(column))") == true, "\(sink.all)")
    }

    @Test func headerGuardLeavesValidTOMLAlone() {
        let text = """
            [ bundle ]
            overlays = [
              [ # a comment inside an array, not a header
                1, 2],
            ]
            text = \"\"\"
            [#not a header]
            \"\"\"
            [[ "quoted" ]]
            [_x]
            ['y']
            a = ["}", '}', "\\\\", "\\"}"]
            b = [{x = 1}, {y = [2, {z = 3}]}]
            c = [ # a comment
            ]
            d = [[1, 2], [3], []]
            e = \"\"\"
            [...] the king "quoted" \\
            [*]\"\"\"
            f = '''
            [ }
            '''
            g = "a # not a comment [ }"
            [h] # a header with a comment
            """
        let sink = DiagnosticSink()
        #expect(TOMLSource.parse(text, displayPath: "bundle.toml", sink: sink) != nil, "\(sink.all)")
    }

    @Test func semanticVersions() {
        for good in ["1.0.0", "0.1.0", "10.20.30", "1.0.0-rc.1", "1.0.0+build.5", "1.0.0-alpha+001"] {
            #expect(SemanticVersion(good) != nil, "\(good)")
        }
        // Digits of other scripts, and a line break after the version, are
        // not semver's, though ICU's regular expressions would take both.
        for bad in ["1.0", "v1.0.0", "01.0.0", "1.0.0-", "1.0.0.0", "", "1.0.0-01", "1.0.\u{0663}", "1.0.0\n", "1.0.0-rc\n"] {
            #expect(SemanticVersion(bad) == nil, "\(bad)")
        }
    }

    @Test func bundleNames() {
        for good in ["magna-carta", "a", "a1-b2-c3", "2026"] {
            #expect(BundleConfig.isName(good), "\(good)")
        }
        for bad in ["", "Magna", "magna_carta", "-a", "a-", "a--b", "magna-carta\n", "caf\u{E9}", "\u{0661}"] {
            #expect(!BundleConfig.isName(bad), "\(bad)")
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

    /// The comment a new project's bundle.toml gives for `name` states the
    /// rule build holds it to, not a looser one.
    @Test func theInitTemplateStatesTheNameRule() throws {
        let rendered = try TemplateSet.load("init").render(["name": "x", "title": "X", "output": "dist"])
        let toml = String(decoding: try #require(rendered.first { $0.path == "bundle.toml" }).data, as: UTF8.self)
        let line = try #require(toml.split(separator: "\n").first { $0.hasPrefix("name = ") })
        #expect(line.contains("# \(BundleConfig.namePattern) "), "\(line)")
    }

    @Test func bundleNamesFromFolders() {
        #expect(ProjectInit.bundleName(for: "My Charter") == "my-charter")
        #expect(ProjectInit.bundleName(for: "--") == "bundle")
    }
}
