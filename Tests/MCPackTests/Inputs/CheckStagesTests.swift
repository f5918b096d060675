import Foundation
import MCPackSchema
import Imaging
import ImagingTestSupport
@testable import MCPackInputs
@testable import MCPackKit
import Testing

/// Every input's settings and check stages, in process, on a small project
/// made in code: the plans and facts a sound project gives, each input's
/// mistakes reported by its own check (with what it needs from the inputs
/// before it), and nothing written by any check.
@Suite struct CheckStagesTests {
    static func check(_ project: TestProject) async throws -> (pass: Builder.CheckPass, problems: [Diagnostic]) {
        let sink = DiagnosticSink()
        let loaded = try #require(Project.load(configPath: project.url("bundle.toml").path, sink: sink), "\(sink.all)")
        let pass = await Builder.check(loaded, sink: sink)
        return (pass, sink.all)
    }

    /// Every file under the project with its size and modification time.
    static func listing(_ project: TestProject) -> [String: String] {
        var files: [String: String] = [:]
        let root = project.root.resolvingSymlinksInPath().path
        let walker = FileManager.default.enumerator(atPath: root)
        while let path = walker?.nextObject() as? String {
            let attributes = try? FileManager.default.attributesOfItem(atPath: root + "/" + path)
            files[path] = "\(attributes?[.size] ?? 0) \(attributes?[.modificationDate] ?? Date.distantPast)"
        }
        return files
    }

    @Test func aSoundProjectPlansEveryInputAndPublishesItsFacts() async throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        let before = Self.listing(project)
        let (pass, problems) = try await Self.check(project)
        #expect(problems.isEmpty, "\(problems)")
        // Deep Zoom: the IIIF manifest has nothing to do and makes no plan.
        #expect(pass.plans.map { $0.input.component } == ["document", "clauses", "categories", "icons", "launch", "preview"])
        #expect(pass.fact(MasterSize.self) == MasterSize(width: TestProject.masterWidth, height: TestProject.masterHeight))
        #expect(pass.fact(ClauseList.self)?.file.clauses.map(\.id) == ["39", "40"])
        #expect(pass.fact(PyramidLayout.self)?.layout == "dz")
        #expect(pass.fact(IIIFService.self) == nil)
        // Every input file was hashed, the master too (by the builder).
        for path in ["assets/document/master.png", "assets/clauses.toml", "assets/categories/1.png", "assets/icon/AppIcon-1024.png",
                     "assets/launch/background.png", "assets/launch/text.png"] {
            #expect(pass.sources[path]?.sha256.count == 64, "\(path)")
        }
        #expect(Self.listing(project) == before, "a check wrote into the project")
    }

    @Test func theIIIFLayoutAddsTheManifestPlan() async throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.edit("bundle.toml", "overlap = 1", "overlap = 0\nlayout = \"iiif3\"\niiif_base_url = \"https://example.org/iiif\"")
        let (pass, problems) = try await Self.check(project)
        #expect(problems.isEmpty, "\(problems)")
        #expect(pass.plans.map { $0.input.component }.contains("manifest"))
        #expect(pass.fact(IIIFService.self) != nil)
    }

    /// The clauses' check places overlays on the document's master, a fact
    /// the document's check published.
    @Test func anOverlayOutsideTheMasterIsNamedWithTheMastersSize() async throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.edit("assets/clauses.toml", "overlays = [[130, 44, 400, 24]]", "overlays = [[130, 44, 500, 24]]")
        let before = Self.listing(project)
        let (pass, problems) = try await Self.check(project)
        let problem = try #require(problems.first)
        #expect(problems.count == 1, "\(problems)")
        #expect(problem.file.hasSuffix("clauses.toml") && problem.line != nil)
        #expect(problem.message.contains("outside the 600 x 400 master image"), "\(problem.message)")
        #expect(!pass.plans.map { $0.input.component }.contains("clauses"))
        #expect(Self.listing(project) == before)
    }

    /// The categories' check reads the clause list the clauses' check published.
    @Test func aCategoryWithoutItsIconIsNamedByTheCategoriesCheck() async throws {
        let project = try TestProject.make(icons: 2)
        defer { project.destroy() }
        let (_, problems) = try await Self.check(project)
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.file.hasSuffix("assets/categories") == true)
        #expect(problems.first?.message.contains("category \"All\" uses icon 3, but there is no 3.png") == true, "\(problems)")
    }

    @Test func anIconMasterThatIsNotSquareIsNamed() async throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        try project.write("assets/icon/AppIcon-1024.png", Image.noise(width: 1024, height: 768, bands: 3, seed: 3).pngData())
        let (pass, problems) = try await Self.check(project)
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.file.hasSuffix("assets/icon/AppIcon-1024.png") == true)
        #expect(problems.first?.message.contains("1024 x 768 px") == true, "\(problems)")
        // The other inputs still check: every mistake is reported in one run.
        #expect(pass.plans.map { $0.input.component }.contains("launch"))
    }

    @Test func theIIIFLayoutWithoutItsBaseIsASettingsError() async throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.edit("bundle.toml", "overlap = 1", "overlap = 0\nlayout = \"iiif3\"")
        let sink = DiagnosticSink()
        #expect(Project.load(configPath: project.url("bundle.toml").path, sink: sink) == nil)
        let problem = try #require(sink.all.first)
        #expect(problem.key == "document.iiif_base_url" && problem.line != nil, "\(problem)")
    }
}
