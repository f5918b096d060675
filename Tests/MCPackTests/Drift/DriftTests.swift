import FileIO
import Foundation
import Hashing
import Imaging
import ImagingTestSupport
@testable import MCPackKit
import Testing

/// A project whose app folder holds every drift status at once.
@Suite struct DriftTests {
    static func makeProject() throws -> TestProject {
        let project = try TestProject.make()
        try project.write("bundle.toml", TestProject.bundleTOML + """

            [[copies]]
            assets = "assets/categories"
            app = "App/Images"

            [[copies]]
            assets = "assets/extra"
            app = "App/Extra"

            """)
        let older = Date(timeIntervalSinceNow: -2 * 86_400)
        func age(_ path: String, _ date: Date) throws {
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: project.url(path).path)
        }
        // in sync
        try project.write("App/Images/1.png", Data(contentsOf: project.url("assets/categories/1.png")))
        // same picture, other bytes: the PNG saved again without compression
        let two = try Image(contentsOf: project.url("assets/categories/2.png").path)
        try project.write("App/Images/2.png", two.pngData(compression: 0))
        #expect(try Data(contentsOf: project.url("App/Images/2.png")) != Data(contentsOf: project.url("assets/categories/2.png")))
        // drifted, the asset newer
        try project.write("App/Images/3.png", TestProject.icon(9))
        try age("App/Images/3.png", older)
        // an orphan
        try project.write("App/Images/old.png", TestProject.icon(11))
        // drifted, the copy newer
        try project.write("assets/extra/a.png", TestProject.icon(5))
        try age("assets/extra/a.png", older)
        try project.write("App/Extra/a.png", TestProject.icon(6))
        // missing
        try project.write("assets/extra/b.txt", "notes")
        // a copy under another name, and one in a nested folder
        try project.write("assets/extra/c.png", TestProject.icon(7))
        try project.write("App/Extra/renamed-c.png", Data(contentsOf: project.url("assets/extra/c.png")))
        try project.write("assets/extra/d.png", TestProject.icon(8))
        try project.write("App/Extra/nested/d.png", Data(contentsOf: project.url("assets/extra/d.png")))
        return project
    }

    /// Every file of the project with its hash, to see what changed.
    static func snapshot(_ project: TestProject) throws -> [String: String] {
        var result: [String: String] = [:]
        for path in try FileSystem.regularFiles(under: project.root) where !path.hasPrefix(".mcpack-drift-backup") {
            result[path] = try Digest.hexOfFile(project.url(path).path).sha256
        }
        return result
    }

    static func items(_ result: RunResult) throws -> [[String: Any]] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return json["items"] as? [[String: Any]] ?? []
    }

    static func status(of copy: String, _ items: [[String: Any]]) -> String? {
        items.first { $0["copy"] as? String == copy }?["status"] as? String
    }

    @Test func classifiesEveryStatusAndWritesNothing() throws {
        let project = try Self.makeProject()
        defer { project.destroy() }
        let before = try Self.snapshot(project)
        let result = try MCPackBinary.run(["drift", "--json"], in: project.root)
        #expect(result.status == 1, "\(result.stderr)")
        let items = try Self.items(result)
        #expect(Self.status(of: "App/Images/1.png", items) == "in-sync")
        #expect(Self.status(of: "App/Images/2.png", items) == "same-picture")
        #expect(Self.status(of: "App/Images/3.png", items) == "drifted")
        #expect(Self.status(of: "App/Images/old.png", items) == "orphan")
        #expect(Self.status(of: "App/Extra/a.png", items) == "drifted")
        #expect(Self.status(of: "App/Extra/b.txt", items) == "missing")
        #expect(Self.status(of: "App/Extra/renamed-c.png", items) == "in-sync")
        #expect(Self.status(of: "App/Extra/nested/d.png", items) == "in-sync")
        let three = try #require(items.first { $0["copy"] as? String == "App/Images/3.png" })
        #expect(three["newer"] as? String == "asset")
        #expect((three["changed_fraction"] as? Double ?? 0) > 0.99)
        #expect((three["mean_difference"] as? Double ?? 0) > 0)
        #expect(items.first { $0["copy"] as? String == "App/Extra/a.png" }?["newer"] as? String == "copy")
        #expect(items.first { $0["copy"] as? String == "App/Extra/nested/d.png" }?["asset"] as? String == "assets/extra/d.png")
        #expect(items.count == 8)
        #expect(try Self.snapshot(project) == before, "drift without --fix changed a file")

        let text = try MCPackBinary.run(["drift"], in: project.root)
        #expect(text.status == 1)
        #expect(text.stdout.contains("same-picture  App/Images/2.png  <-  assets/categories/2.png  (other bytes, the same pixels)"))
        #expect(text.stdout.contains("orphan"))
        // verify in the project reports the drift too
        let verify = try MCPackBinary.run(["verify"], in: project.root)
        #expect(verify.stdout.contains("App/Images/3.png: drift: drifted"))
    }

    @Test func fixChangesExactlyWhatItReportedAndKeepsBackups() throws {
        let project = try Self.makeProject()
        defer { project.destroy() }
        let before = try Self.snapshot(project)
        let fixed = try MCPackBinary.run(["drift", "--fix", "--json"], in: project.root)
        #expect(fixed.status == 1, "the newer copy and the orphan remain: \(fixed.stdout)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(fixed.stdout.utf8)) as? [String: Any])
        let backup = try #require(json["backup"] as? String)
        let after = try Self.snapshot(project)
        let changed = Set(after.keys.filter { after[$0] != before[$0] })
        #expect(changed == ["App/Images/3.png", "App/Extra/b.txt"])
        #expect(after["App/Images/3.png"] == before["assets/categories/3.png"])
        #expect(after["App/Extra/b.txt"] == before["assets/extra/b.txt"])
        #expect(after["App/Extra/a.png"] == before["App/Extra/a.png"], "a copy newer than its asset was replaced")
        #expect(after["App/Images/old.png"] != nil, "an orphan was deleted")
        let kept = try Digest.hexOfFile(project.url("\(backup)/App/Images/3.png").path).sha256
        #expect(kept == before["App/Images/3.png"])
        let items = json["items"] as? [[String: Any]] ?? []
        #expect(items.first { $0["copy"] as? String == "App/Extra/a.png" }?["action"] as? String == "kept")

        // A second run has nothing left it may fix, and writes nothing.
        let again = try MCPackBinary.run(["drift", "--fix", "--json"], in: project.root)
        #expect(again.status == 1)
        #expect(try Self.snapshot(project) == after)
        let againJSON = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        #expect(againJSON?["backup"] == nil)

        // Preferring the assets and removing orphans leaves no drift.
        let all = try MCPackBinary.run(["drift", "--fix", "--prefer", "assets", "--remove-orphans"], in: project.root)
        #expect(all.status == 0, "\(all.stdout)")
        #expect(!FileManager.default.fileExists(atPath: project.url("App/Images/old.png").path))
        let clean = try MCPackBinary.run(["drift"], in: project.root)
        #expect(clean.status == 0, "\(clean.stdout)")
    }

    @Test func htmlShowsDriftedPairsSideBySide() throws {
        let project = try Self.makeProject()
        defer { project.destroy() }
        let before = try Self.snapshot(project)
        let result = try MCPackBinary.run(["drift", "--html", "report/drift.html"], in: project.root)
        #expect(result.status == 1)
        let page = try project.read("report/drift.html")
        #expect(page.contains("<code>App/Images/3.png</code>"))
        #expect(page.contains("difference, brightened"))
        // The same piece as the diff page's before and after: asset and copy, with their sizes.
        #expect(page.contains(#"<div class="pair" role="group" aria-label="App/Images/3.png">"#))
        #expect(page.contains(#"alt="asset: App/Images/3.png""#) && page.contains(#"alt="copy: App/Images/3.png""#))
        #expect(page.contains("<figcaption>asset, 32 x 32 px</figcaption>"))
        #expect(page.contains("<span class=\"status-same-picture\">same-picture</span> <code>App/Images/2.png</code>"))
        #expect(page.components(separatedBy: "data:image/png;base64,").count - 1 >= 3 + 2)
        var after = try Self.snapshot(project)
        after.removeValue(forKey: "report/drift.html")
        #expect(after == before, "--html changed a project file")
    }

    @Test func fixOptionsNeedFix() throws {
        let project = try Self.makeProject()
        defer { project.destroy() }
        let result = try MCPackBinary.run(["drift", "--remove-orphans"], in: project.root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("only apply with --fix"))
    }
}

/// Drift compares pictures as a person sees them, in sRGB.
@Suite struct DriftColourTests {
    @Test func aCopySavedWithAnotherProfileIsTheSamePicture() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.write("bundle.toml", TestProject.bundleTOML + "\n[[copies]]\nassets = \"assets/categories\"\napp = \"App/Images\"\n")
        for number in 1...3 {
            try project.write("App/Images/\(number).png", Data(contentsOf: project.url("assets/categories/\(number).png")))
        }
        // 2.png exported again by a designer's tool in Display P3.
        try Image(contentsOf: project.url("assets/categories/2.png").path).exported(toProfile: "p3")
            .writeKeepingMetadata(to: project.url("App/Images/2.png").path)
        // 3.png really changed, in the same profile.
        try project.write("App/Images/3.png", TestProject.icon(9))
        let result = try MCPackBinary.run(["drift", "--json"], in: project.root)
        let items = try DriftTests.items(result)
        #expect(DriftTests.status(of: "App/Images/2.png", items) == "same-picture", "\(items)")
        #expect(DriftTests.status(of: "App/Images/3.png", items) == "drifted")
        // Converted back, its pixels are the original's, or within rounding.
        let detail = items.first { $0["copy"] as? String == "App/Images/2.png" }?["detail"] as? String
        #expect(detail?.contains("the same pi") == true, "\(detail ?? "")")
    }
}
