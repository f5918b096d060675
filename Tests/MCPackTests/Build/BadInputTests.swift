import Foundation
import Imaging
import ImagingTestSupport
import Testing

/// Each mistake a user can make: exit 2, a message naming the file, the key
/// and (where TOML gives one) the line, and nothing written.
struct BadInputCase: CustomTestStringConvertible, Sendable {
    var name: String
    /// Breaks the fixture project.
    var breakIt: @Sendable (TestProject) throws -> Void
    /// Texts stderr must hold; `{line:FILE:TEXT}` stands for the line of TEXT in FILE.
    var expect: [String]

    var testDescription: String { name }
}

let badInputCases: [BadInputCase] = [
    BadInputCase(name: "TOML syntax", breakIt: { try $0.edit("bundle.toml", #"title = "Test Bundle""#, #"title = "Test Bundle"#) },
                 expect: ["bundle.toml:{line:bundle.toml:title = }:", "TOML syntax"]),
    BadInputCase(name: "TOML syntax in clauses.toml", breakIt: { try $0.edit("assets/clauses.toml", "icon = 2", "icon = = 2") },
                 expect: ["assets/clauses.toml:{line:assets/clauses.toml:icon = = 2}:", "TOML syntax"]),
    BadInputCase(name: "missing key", breakIt: { try $0.edit("bundle.toml", "title = \"Test Bundle\"\n", "") },
                 expect: ["bundle.toml:{line:bundle.toml:[bundle]}: bundle.title: missing; expected a string"]),
    BadInputCase(name: "wrong type", breakIt: { try $0.edit("bundle.toml", "tile_size = 254", "tile_size = \"256px\"") },
                 expect: [#"bundle.toml:{line:bundle.toml:tile_size}: document.tile_size: expected an integer 1...8192, got "256px""#]),
    BadInputCase(name: "unknown key", breakIt: { try $0.edit("bundle.toml", "overlap = 1", "overlapp = 1") },
                 expect: [#"bundle.toml:{line:bundle.toml:overlapp}: document.overlapp: unknown key; did you mean "overlap"?"#]),
    BadInputCase(name: "version not semantic", breakIt: { try $0.edit("bundle.toml", #"version = "1.0.0""#, #"version = "1.0""#) },
                 expect: [#"bundle.toml:{line:bundle.toml:version}: bundle.version: "1.0" is not a semantic version"#]),
    BadInputCase(name: "bad bundle name", breakIt: { try $0.edit("bundle.toml", #"name = "test-bundle""#, #"name = "Test Bundle""#) },
                 expect: [#"bundle.toml:{line:bundle.toml:name =}: bundle.name: "Test Bundle" is not a bundle name"#]),
    BadInputCase(name: "path does not exist", breakIt: { try $0.edit("bundle.toml", "master.png", "missing.png") },
                 expect: [#"bundle.toml:{line:bundle.toml:image}: document.image: "assets/document/missing.png" does not exist"#]),
    BadInputCase(name: "path leads outside the project", breakIt: { project in
        try Data("x".utf8).write(to: project.root.deletingLastPathComponent().appendingPathComponent("outside-\(project.root.lastPathComponent).toml"))
        try project.edit("bundle.toml", #"file = "assets/clauses.toml""#, #"file = "../outside-\#(project.root.lastPathComponent).toml""#)
    }, expect: ["bundle.toml:{line:bundle.toml:file =}: clauses.file:", "leads outside the project folder"]),
    BadInputCase(name: "absolute path", breakIt: { try $0.edit("bundle.toml", #"icons = "assets/categories""#, #"icons = "/etc""#) },
                 expect: [#"bundle.toml:{line:bundle.toml:icons =}: categories.icons: "/etc" is an absolute path"#]),
    BadInputCase(name: "duplicate clause id", breakIt: { try $0.edit("assets/clauses.toml", #"id = "40""#, #"id = "39" # again"#) },
                 expect: [#"assets/clauses.toml:{line:assets/clauses.toml:# again}: clause "39".id: duplicate clause id "39""#]),
    BadInputCase(name: "undeclared category", breakIt: { try $0.edit("assets/clauses.toml", #"categories = ["Justice"]"#, #"categories = ["Justise"]"#) },
                 expect: [#"clause "40".categories: category "Justise" is not declared"#, #"did you mean "Justice"?"#]),
    BadInputCase(name: "clause with no overlay", breakIt: { try $0.edit("assets/clauses.toml", "overlays = [[130, 44, 400, 24]]", "overlays = []") },
                 expect: [#"assets/clauses.toml:{line:assets/clauses.toml:overlays = []}: clause "40".overlays: has 0 rectangles; a clause has 1 to 4"#]),
    BadInputCase(name: "clause with five overlays", breakIt: {
        try $0.edit("assets/clauses.toml", "overlays = [[130, 44, 400, 24]]", "overlays = [[1,1,1,1],[2,2,1,1],[3,3,1,1],[4,4,1,1],[5,5,1,1]]")
    }, expect: [#"clause "40".overlays: has 5 rectangles; a clause has 1 to 4"#]),
    BadInputCase(name: "rectangle with non-positive size", breakIt: { try $0.edit("assets/clauses.toml", "[130, 44, 400, 24]", "[130, 44, 0, 24]") },
                 expect: [#"clause "40".overlays: rectangle 1 [130, 44, 0, 24]: width and height must be positive"#]),
    BadInputCase(name: "rectangle outside the master", breakIt: { try $0.edit("assets/clauses.toml", "[130, 44, 400, 24]", "[330, 44, 400, 24]") },
                 expect: [#"clause "40".overlays: rectangle 1 [330, 44, 400, 24] reaches (730, 68), outside the 600 x 400 master image"#]),
    BadInputCase(name: "bad colour", breakIt: { try $0.edit("assets/clauses.toml", ##""#1E3A8B""##, #""red""#) },
                 expect: [#"assets/clauses.toml:{line:assets/clauses.toml:"red"}: clause "40".colour: "red" is not a colour; expected #RRGGBB or #RRGGBBAA"#]),
    BadInputCase(name: "category icons with a gap", breakIt: { try $0.remove("assets/categories/2.png") },
                 expect: ["assets/categories: icons are not numbered 1...3 without gaps: missing 2.png"]),
    BadInputCase(name: "icon no category uses", breakIt: { try $0.write("assets/categories/4.png", TestProject.icon(4)) },
                 expect: ["assets/categories/4.png: no [[category]] in assets/clauses.toml uses icon 4"]),
    BadInputCase(name: "category icon missing", breakIt: { try $0.edit("assets/clauses.toml", "icon = 3", "icon = 5") },
                 expect: [#"category "All" uses icon 5, but there is no 5.png"#]),
    BadInputCase(name: "icon not square", breakIt: {
        try $0.write("assets/categories/2.png", Image.solid(width: 32, height: 30, ink: [1, 2, 3, 255]).pngData())
    }, expect: ["assets/categories/2.png: is 32 x 30 px; category icons must be square"]),
    BadInputCase(name: "icons of different sizes", breakIt: { try $0.write("assets/categories/3.png", TestProject.icon(3, size: 48)) },
                 expect: ["assets/categories/3.png: is 48 x 48 px; the other icons are 32 x 32 px"]),
    BadInputCase(name: "icon without alpha", breakIt: { try $0.write("assets/categories/1.png", TestProject.icon(1, alpha: false)) },
                 expect: ["assets/categories/1.png: has no alpha channel"]),
    BadInputCase(name: "icon that is a JPEG", breakIt: {
        try $0.write("assets/categories/1.png", Image.solid(width: 32, height: 32, ink: [1, 2, 3]).jpegData())
    }, expect: ["assets/categories/1.png: is jpeg data, not PNG"]),
    BadInputCase(name: "truncated icon", breakIt: { project in
        let data = try Image.noise(width: 32, height: 32, bands: 4, seed: 1).pngData()
        try project.write("assets/categories/1.png", data.prefix(data.count / 2))
    }, expect: ["assets/categories/1.png:"]),
    BadInputCase(name: "master that is not an image", breakIt: { try $0.write("assets/document/master.png", "not a picture") },
                 expect: ["assets/document/master.png: not an image mcpack can read"]),
    BadInputCase(name: "filter category on a clause", breakIt: { try $0.edit("assets/clauses.toml", #"categories = ["Justice"]"#, #"categories = ["All"]"#) },
                 expect: [#"clause "40".categories: "All" is a menu filter"#]),
    BadInputCase(name: "bad archive format", breakIt: { try $0.edit("bundle.toml", #"format = "zip""#, #"format = "tar.xz""#) },
                 expect: [#"bundle.format: expected one of "zip", "tar.zst", "tar.gz", got "tar.xz""#]),
]

@Suite struct BadInputTests {
    @Test(arguments: badInputCases)
    func reportsTheMistakeAndWritesNothing(_ testCase: BadInputCase) throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try testCase.breakIt(project)
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2, "\(result.stderr)")
        for expected in testCase.expect {
            let text = try resolveLines(expected, in: project)
            #expect(result.stderr.contains(text), "expected \(text) in:\n\(result.stderr)")
        }
        #expect(!result.stderr.contains("Fatal error"))
        #expect(project.outputFiles().filter { !$0.hasPrefix(".") }.isEmpty, "an archive was written")
        #expect(project.outputFiles().isEmpty, "a temporary file was left")
    }

    @Test func reportsEveryMistakeInOneRun() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.edit("bundle.toml", #"version = "1.0.0""#, #"version = "one""#)
        try project.edit("bundle.toml", "tile_size = 254", "tile_size = 0")
        try project.edit("bundle.toml", "overlap = 1", "overlap = 1\nqualty = 80")
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("bundle.version"))
        #expect(result.stderr.contains("document.tile_size"))
        #expect(result.stderr.contains("document.qualty: unknown key; did you mean \"quality\"?"))
        #expect(result.stderr.contains("3 problems found; nothing was written."))
    }

    @Test func reportsEveryMistakeAcrossInputs() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.edit("assets/clauses.toml", ##""#1E3A8B""##, ##""#12""##)
        try project.edit("assets/clauses.toml", #"id = "40""#, #"id = "39""#)
        try project.remove("assets/categories/3.png")
        let result = try MCPackBinary.run(["build", "--json"], in: project.root)
        #expect(result.status == 2)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let problems = json?["problems"] as? [[String: Any]] ?? []
        let keys = Set(problems.compactMap { $0["key"] as? String })
        #expect(keys.contains(#"clause "39".colour"#))
        #expect(keys.contains(#"clause "39".id"#))
        #expect(problems.contains { ($0["message"] as? String)?.contains("no 3.png") == true })
        #expect(json?["ok"] as? Bool == false)
    }

    /// build's problems name their file `path`, as verify's do, so one
    /// reader takes both; `file` stays beside it for readers written before.
    @Test func buildJSONNamesTheFileOfAProblemPathAsVerifyDoes() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.edit("assets/clauses.toml", ##""#1E3A8B""##, #""red""#)
        let build = try MCPackBinary.run(["build", "--json"], in: project.root)
        #expect(build.status == 2)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(build.stdout.utf8)) as? [String: Any])
        let problems = json["problems"] as? [[String: Any]] ?? []
        #expect(!problems.isEmpty, "\(build.stdout)")
        for problem in problems {
            #expect(problem["path"] as? String == "assets/clauses.toml", "\(problem)")
            #expect(problem["file"] as? String == problem["path"] as? String, "\(problem)")
        }
        // verify in the project reports the same mistake under the same keys.
        let verify = try MCPackBinary.run(["verify", "--json"], in: project.root)
        let verified = try #require(try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any], "\(verify.stdout)")
        let shared = ["path", "message", "severity"]
        for problem in (verified["problems"] as? [[String: Any]] ?? []) + problems {
            #expect(shared.allSatisfy { problem[$0] != nil }, "\(problem)")
        }
    }

    /// A mistake in one table of bundle.toml leaves the inputs it does not
    /// concern checked: the mistake in [document] and the one in
    /// clauses.toml come out of one run, from build and from verify.
    @Test(arguments: [["build"], ["verify"]])
    func aBundleTOMLMistakeDoesNotHideAMistakeInAnInput(_ command: [String]) throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.edit("bundle.toml", "tile_size = 254", "tile_size = \"256px\"")
        try project.edit("assets/clauses.toml", "icon = 2", "icon = = 2")
        let result = try MCPackBinary.run(command, in: project.root)
        #expect(result.status == 2, "\(result.stderr)")
        let tileSize = try project.line(of: "tile_size", in: "bundle.toml")
        let syntax = try project.line(of: "icon = = 2", in: "assets/clauses.toml")
        #expect(result.stderr.contains(#"bundle.toml:\#(tileSize): document.tile_size: expected an integer 1...8192, got "256px""#), "\(result.stderr)")
        #expect(result.stderr.contains("assets/clauses.toml:\(syntax):"), "\(result.stderr)")
        #expect(result.stderr.contains("TOML syntax"), "\(result.stderr)")
        #expect(result.stderr.contains("2 problems found"), "\(result.stderr)")
        #expect(project.outputFiles().isEmpty)
    }

    /// A new project: its empty categories folder is named beside the files
    /// still to be added, not only once they are there.
    @Test func aNewProjectsEmptyCategoriesFolderIsNamedWithItsMissingFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-new-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try MCPackBinary.run(["init", folder.path], in: FileManager.default.temporaryDirectory)
        #expect(made.status == 0, "\(made.stderr)")
        let build = try MCPackBinary.run(["build"], in: folder)
        #expect(build.status == 2)
        for expected in [#"document.image: "assets/document/master.tif" does not exist"#,
                         #"icon.master: "assets/icon/AppIcon-1024.png" does not exist"#,
                         #"launch.background: "assets/launch/background.png" does not exist"#,
                         #"launch.text: "assets/launch/text.png" does not exist"#,
                         "assets/categories: holds no category icons",
                         "5 problems found"] {
            #expect(build.stderr.contains(expected), "expected \(expected) in:\n\(build.stderr)")
        }
    }

    /// A table with any mistake, an unknown key too, leaves its input
    /// unchecked: checked with settings nobody meant, it would only add
    /// wrong messages to the right one.
    @Test func anInputWhoseTableHasAMistakeIsNotChecked() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.edit("bundle.toml", "overlap = 1", "overlap = 1\nqualty = 80")
        try project.remove("assets/document/master.png")
        try project.write("assets/document/master.png", "not a picture")
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("document.qualty: unknown key"), "\(result.stderr)")
        #expect(!result.stderr.contains("master.png:"), "\(result.stderr)")
        #expect(result.stderr.contains("1 problem found"), "\(result.stderr)")
    }

    /// Replaces `{line:FILE:TEXT}` with the line number of TEXT in FILE.
    private func resolveLines(_ text: String, in project: TestProject) throws -> String {
        guard let open = text.range(of: "{line:"), let close = text.range(of: "}", range: open.upperBound..<text.endIndex) else { return text }
        let spec = text[open.upperBound..<close.lowerBound]
        let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
        let line = try project.line(of: parts[1], in: parts[0])
        return try resolveLines(text.replacingCharacters(in: open.lowerBound..<close.upperBound, with: String(line)), in: project)
    }
}
