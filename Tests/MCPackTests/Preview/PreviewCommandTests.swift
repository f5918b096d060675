import Foundation
@testable import MCPackKit
import Testing

/// `mcpack preview` and the `[preview]` setting, end to end with the built binary.
@Suite struct PreviewCommandTests {
    struct Opened: Decodable {
        var page: String
        var bag: String
        var built: Bool
        var opened: Bool
    }

    static func preview(_ arguments: [String], in project: TestProject) throws -> (RunResult, Opened?) {
        let result = try MCPackBinary.run(["preview", "--no-open", "--json"] + arguments, in: project.root)
        return (result, try? JSONDecoder().decode(Opened.self, from: Data(result.stdout.utf8)))
    }

    @Test func anArchiveIsUnpackedIntoATemporaryFolderAndItsBagVerifies() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        let (result, opened) = try Self.preview(["dist/test-bundle-1.0.0.zip"], in: project)
        #expect(result.status == 0, "\(result.stderr)")
        let page = try #require(opened)
        defer { try? FileManager.default.removeItem(atPath: (page.bag as NSString).deletingLastPathComponent) }
        #expect(page.page == page.bag + "/data/preview/index.html")
        #expect(page.bag.hasSuffix("/test-bundle-1.0.0") && !page.bag.hasPrefix(project.root.path))
        #expect(!page.built && !page.opened)
        #expect(FileManager.default.fileExists(atPath: page.bag + "/data/preview/viewer.js"))
        let verify = try MCPackBinary.run(["verify", page.bag], in: project.root)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")

        // A version, as diff takes it, and the bag folder itself.
        let (byVersion, again) = try Self.preview(["1.0.0"], in: project)
        #expect(byVersion.status == 0 && again?.page.hasSuffix("/test-bundle-1.0.0/data/preview/index.html") == true, "\(byVersion.stderr)")
        if let again { try? FileManager.default.removeItem(atPath: (again.bag as NSString).deletingLastPathComponent) }
        let (inPlace, same) = try Self.preview([page.bag], in: project)
        #expect(inPlace.status == 0 && same?.page == page.page, "\(inPlace.stderr)")
        let text = try MCPackBinary.run(["preview", "--no-open", page.bag], in: project.root)
        #expect(text.stdout == page.page + "\n")
    }

    @Test func aProjectIsBuiltIntoATemporaryFolderLeavingItsOutputAlone() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        let (result, opened) = try Self.preview([], in: project)
        #expect(result.status == 0, "\(result.stderr)")
        let page = try #require(opened)
        defer { try? FileManager.default.removeItem(atPath: (page.bag as NSString).deletingLastPathComponent) }
        #expect(page.built)
        #expect(FileManager.default.fileExists(atPath: page.page))
        #expect(project.outputFiles() == [], "the project's dist/ is untouched")
    }

    @Test func thePagesOfTwoBuildsAreByteIdentical() throws {
        // Two copies of one project, in two folders: nothing of the
        // folder, the time or the machine reaches the page.
        let a = try TestProject.make()
        let b = try TestProject.make()
        defer { a.destroy(); b.destroy() }
        var pages: [[String: Data]] = []
        for project in [a, b] {
            let (result, opened) = try Self.preview([], in: project)
            #expect(result.status == 0, "\(result.stderr)")
            let bag = try #require(opened).bag
            defer { try? FileManager.default.removeItem(atPath: (bag as NSString).deletingLastPathComponent) }
            var files: [String: Data] = [:]
            for name in ["index.html", "viewer.js", "style.css"] {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: bag + "/data/preview/" + name))
            }
            pages.append(files)
        }
        #expect(pages[0] == pages[1])
        #expect(pages[0].count == 3)
    }

    @Test func includeFalseLeavesThePageOut() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.write("bundle.toml", TestProject.bundleTOML + "\n[preview]\ninclude = false\n")
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        let entries = try archiveContents(project.url("dist/test-bundle-1.0.0.zip")).keys
        #expect(!entries.contains { $0.contains("/data/preview/") })
        let verify = try MCPackBinary.run(["verify", "dist/test-bundle-1.0.0.zip"], in: project.root)
        #expect(verify.status == 0, "\(verify.stdout)")
        let (result, _) = try Self.preview(["dist/test-bundle-1.0.0.zip"], in: project)
        #expect(result.status == 2)
        #expect(result.stdout.contains("holds no preview page (data/preview/index.html): it was built with [preview] include = false"), "\(result.stdout)")
    }

    @Test func aWrongSettingIsNamedWithItsLine() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.write("bundle.toml", TestProject.bundleTOML + "\n[preview]\ninclude = \"no\"\nshow = true\n")
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2)
        let line = try project.line(of: "include =", in: "bundle.toml")
        #expect(result.stderr.contains("bundle.toml:\(line): preview.include: expected true or false, got \"no\" (a string)"), "\(result.stderr)")
        #expect(result.stderr.contains("preview.show: unknown key"), "\(result.stderr)")
    }

    @Test func whatCannotBePreviewedIsExitTwo() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        let missing = try MCPackBinary.run(["preview", "--no-open", "nothing-here.zip"], in: project.root)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nothing-here.zip: no such file or folder, and not a version such as 1.0.0"), "\(missing.stderr)")
        try project.write("not-an-archive.zip", "hello")
        let garbage = try MCPackBinary.run(["preview", "--no-open", "not-an-archive.zip"], in: project.root)
        #expect(garbage.status == 2)
        #expect(garbage.stderr.contains("not-an-archive.zip: not a zip or tar archive mcpack can read"), "\(garbage.stderr)")
        let folder = try MCPackBinary.run(["preview", "--no-open", "assets"], in: project.root)
        #expect(folder.status == 2)
        #expect(folder.stderr.contains("assets: is neither a bag (no bagit.txt) nor a project (no bundle.toml)"), "\(folder.stderr)")
    }

    /// An archive whose entries would land outside the folder, in two top
    /// folders, or on one another on a case-insensitive disk, is refused
    /// before its page is opened, and what was unpacked of it is removed.
    @Test(arguments: [("../../evil-\(UUID().uuidString)", "a .. component leads outside the bag"),
                      ("other-top/x.txt", "holds more than one top folder"),
                      ("data/Clauses.json", "and a path that differs from it only in case")])
    func aHostileArchiveIsRefused(_ path: String, _ message: String) throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        var entries = try VerifyTests.builtEntries(project)
        let name = path.hasPrefix("..") || path.hasPrefix("data/") ? "\(VerifyTests.name)/\(path)" : path
        entries.append((name, Data("x".utf8)))
        let hostile = project.url("hostile.zip")
        try VerifyTests.write(entries, to: hostile)
        // A temporary folder of its own, two levels down, so that `../../`
        // from the bag's top folder would land in it.
        let temporary = project.url("tmp/inner")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let result = try MCPackBinary.run(["preview", "--no-open", "hostile.zip"], in: project.root,
                                          environment: ["TMPDIR": temporary.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("hostile.zip: "), "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.contains("nothing of it is opened (run `mcpack verify hostile.zip` for every problem)"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.url("tmp").path) == ["inner"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
    }

    @Test func withNoBrowserToOpenItSaysSoAndExitsTwo() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        // An empty PATH: neither xdg-open nor open can be found.
        let result = try MCPackBinary.run(["preview", "dist/test-bundle-1.0.0.zip"], in: project.root, environment: ["PATH": "/nonexistent"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("is not installed; open the page yourself, or pass --no-open"), "\(result.stderr)")
        if let path = result.stderr.split(separator: " ").first(where: { $0.hasSuffix("index.html:") }) {
            try? FileManager.default.removeItem(atPath: String(path.dropLast()).components(separatedBy: "/test-bundle-1.0.0/").first!)
        }
    }
}
