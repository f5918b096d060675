import Foundation
import MCPackSchema
@testable import MCPackInputs
@testable import MCPackKit
import Testing

/// A project may leave out any input: it builds what it has, and the
/// bundle's own pages (HANDOVER.md, app/ClauseData.swift, the preview page)
/// describe only that. An input that cannot stand without another one
/// (clauses without a master to place their overlays on, category icons
/// without the clauses file that declares the categories) is refused,
/// naming its table, and a project with no input at all is refused.
@Suite struct ProjectShapeTests {
    /// The test project's bundle.toml with only `tables` of its inputs.
    static func keeping(_ tables: [String], in project: TestProject) throws {
        var text = try project.read("bundle.toml")
        for table in ["document", "categories", "clauses", "icon", "launch"] where !tables.contains(table) {
            guard let start = text.range(of: "[\(table)]\n") else { continue }
            // Up to the next table's "[", or the end.
            let end = text.range(of: "\n[", range: start.upperBound..<text.endIndex).map { text.index(after: $0.lowerBound) } ?? text.endIndex
            text.removeSubrange(start.lowerBound..<end)
        }
        try project.write("bundle.toml", text)
    }

    static func built(_ project: TestProject) throws -> [String: Data] {
        let build = try MCPackBinary.run(["build"], in: project.root)
        try #require(build.status == 0, "\(build.stderr)")
        let verify = try MCPackBinary.run(["verify", "dist/test-bundle-1.0.0.zip"], in: project.root)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        return try archiveContents(project.url("dist/test-bundle-1.0.0.zip"))
    }

    @Test func aProjectOfAnAppIconAloneBuildsTheIconAndPagesWithoutClauses() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        try Self.keeping(["icon"], in: project)
        let files = try Self.built(project)
        let data = Set(files.keys.map { String($0.dropFirst("test-bundle-1.0.0/".count)) })
        #expect(data.contains("data/Assets.xcassets/AppIcon.appiconset/Contents.json"))
        #expect(data.contains("data/HANDOVER.md"))
        #expect(data.contains("data/app/Info-fragment.plist"))
        // Nothing of the inputs left out, and no page about them.
        for absent in ["data/clauses.json", "data/categories.json", "data/app/ClauseData.swift", "data/preview/index.html"] {
            #expect(!data.contains(absent), "\(absent)")
        }
        #expect(!data.contains { $0.hasPrefix("data/document/") })
        let page = String(decoding: try #require(files["test-bundle-1.0.0/data/HANDOVER.md"]), as: UTF8.self)
        #expect(!page.contains("## Categories"))
        #expect(!page.contains("ClauseData.swift"))
        #expect(page.contains("| `data/app/Info-fragment.plist` |"))
        let bundle = try JSONSerialization.jsonObject(with: try #require(files["test-bundle-1.0.0/data/bundle.json"])) as? [String: Any]
        #expect((bundle?["components"] as? [String: Any]).map { Set($0.keys) } == ["icons"])
        // No page to open, and preview says why.
        let preview = try MCPackBinary.run(["preview", "--no-open", "dist/test-bundle-1.0.0.zip"], in: project.root)
        #expect(preview.status == 2)
        #expect(preview.stderr.contains("holds no preview page (data/preview/index.html): it was built with [preview] include = false, from a project without a document"), "\(preview.stderr)")
    }

    @Test func aDocumentWithClausesAndNoCategoryIconsShowsTheMenuByName() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try Self.keeping(["document", "clauses"], in: project)
        let files = try Self.built(project)
        #expect(files["test-bundle-1.0.0/data/app/ClauseData.swift"] != nil)
        #expect(files["test-bundle-1.0.0/data/clauses.json"] != nil)
        #expect(!files.keys.contains { $0.contains("Assets.xcassets/Categories/") })
        // The page's menu names the categories and points at no icon.
        let page = String(decoding: try #require(files["test-bundle-1.0.0/data/preview/index.html"]), as: UTF8.self)
        #expect(page.contains("\"name\":\"Justice\""))
        #expect(!page.contains("Category1.png"))
        let handover = String(decoding: try #require(files["test-bundle-1.0.0/data/HANDOVER.md"]), as: UTF8.self)
        #expect(handover.contains("## Categories"))
    }

    @Test func aDocumentAloneBuildsItsTilesAndPreview() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try Self.keeping(["document"], in: project)
        let files = try Self.built(project)
        #expect(files.keys.contains { $0.hasSuffix("data/document/master.dzi") })
        #expect(files["test-bundle-1.0.0/data/preview/index.html"] != nil)
        #expect(files["test-bundle-1.0.0/data/app/ClauseData.swift"] == nil)
        #expect(files["test-bundle-1.0.0/data/clauses.json"] == nil)
    }

    @Test func clausesWithoutADocumentAreRefusedNamingTheirTable() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try Self.keeping(["clauses"], in: project)
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2)
        let line = try project.line(of: "file = \"assets/clauses.toml\"", in: "bundle.toml")
        #expect(result.stderr.contains("bundle.toml:\(line): clauses.file: the clauses' overlays are placed on the master image, and the project has none"), "\(result.stderr)")
        #expect(result.stderr.contains("1 problem found"), "\(result.stderr)")
        #expect(project.outputFiles().isEmpty)
    }

    @Test func categoryIconsWithoutClausesAreRefusedNamingTheirTable() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try Self.keeping(["document", "categories"], in: project)
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2)
        let line = try project.line(of: "icons = \"assets/categories\"", in: "bundle.toml")
        #expect(result.stderr.contains("bundle.toml:\(line): categories.icons: the categories the icons belong to are the [[category]] tables of the clauses file, and the project has none"), "\(result.stderr)")
        #expect(project.outputFiles().isEmpty)
    }

    @Test func aProjectWithNoInputIsRefused() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try Self.keeping([], in: project)
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("bundle.toml:1: bundle: the project declares no input; add at least one of [document], [clauses], [categories], [icon], [launch]"), "\(result.stderr)")
        #expect(project.outputFiles().isEmpty)
    }
}
