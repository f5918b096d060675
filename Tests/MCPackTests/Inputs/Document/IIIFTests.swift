import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MCPackSchema
import Imaging
import ImagingTestSupport
@testable import MCPackBag
@testable import MCPackInputs
@testable import MCPackKit
import Testing

/// `layout = "iiif3"`: a IIIF Image API 3 level 0 service that the IIIF
/// validator passes when the document folder is served as it stands.
@Suite struct IIIFServiceTests {
    /// The identifier the validator asks for; its image is the validator's own.
    static let validationID = "67352ccc-d1b0-11e1-89ae-279075081939"

    static func iiifProject(base: String = "https://example.org/iiif/charter") throws -> TestProject {
        let project = try TestProject.make()
        try project.edit("bundle.toml", "overlap = 1", "overlap = 1\nlayout = \"iiif3\"\niiif_base_url = \"\(base)\"")
        return project
    }

    @Test func theValidatorPassesEveryTest() throws {
        let python = try TestPython.python.get()
        let project = try TestProject.make()
        defer { project.destroy() }
        let found = try TestPython.run(["-c", "import importlib.resources as r; print(r.files('iiif_validator') / 'validation_image.png')"], in: project.root)
        let image = try #require(found.status == 0 ? found.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : nil, "\(found.stderr)")
        try project.write("assets/document/\(Self.validationID).png", try Data(contentsOf: URL(fileURLWithPath: image)))

        let served = project.url("served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        let server = try TestPython.Server(serving: served)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)/\(VerifyTests.name)/data/document"
        try project.edit("bundle.toml", "assets/document/master.png", "assets/document/\(Self.validationID).png")
        try project.edit("bundle.toml", "overlap = 1", "overlap = 1\nlayout = \"iiif3\"\niiif_base_url = \"\(base)/\"")
        let build = try MCPackBinary.run(["build"], in: project.root)
        try #require(build.status == 0, "\(build.stderr)")
        try MCPackBinary.tool("python3", ["-m", "zipfile", "-e", project.url("dist/\(VerifyTests.name).zip").path, "."], in: served)

        // The validator's own tests, each result counted, as its command line runs them.
        let run = try TestPython.run([TestPython.script("iiif_validate.py"), base, Self.validationID], in: project.root)
        let report = try #require(try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)\(run.stderr)")
        let failed = report["failed"] as? [[String: Any]] ?? []
        #expect(failed.isEmpty, "\(failed)")
        // Level 0's tests and HTTP caching; their 24 checks (the count the
        // validator's progress line shows), and 4 more per info.json size
        // entry plus one for the list.
        let sizes = 9  // 1000 x 1000 in 254 px tiles: whole from 250 x 250 down to 1 x 1
        #expect(report["tests"] as? Int == 5 && report["passed"] as? Int == 5, "\(report)")
        #expect(report["results"] as? Int == 24 + 1 + 4 * sizes, "\(report)")
        #expect(report["level"] as? String == "LEVEL_0")

        // And its command line, as docs/guide/iiif.md tells a user to run it.
        let cli = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("iiif-validator")
        let process = Process()
        process.executableURL = cli
        process.arguments = [base]
        process.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1", "COLUMNS": "200"]) { $1 }
        let shown = try MCPackBinary.collect(process)
        #expect(shown.status == 0 && shown.stdout.contains("Detected compliance level: LEVEL_0"), "\(shown.stdout)\(shown.stderr)")
        #expect(shown.stdout.contains("✗ 0 100% passed"), "\(shown.stdout)")
        #expect(!shown.stdout.contains("Expected:"), "\(shown.stdout)")
    }

    @Test func infoJsonHasTheAbsoluteIdSizesAndFullImages() throws {
        let project = try Self.iiifProject(base: "https://example.org/iiif/charter/")
        defer { project.destroy() }
        let build = try MCPackBinary.run(["build"], in: project.root)
        try #require(build.status == 0, "\(build.stderr)")
        let top = "\(VerifyTests.name)/data/document/master/"
        let files = try archiveContents(project.url("dist/\(VerifyTests.name).zip"))
        let info = try JSONDecoder().decode(IIIFImageInfo.self, from: try #require(files[top + "info.json"]))
        #expect(info.id == "https://example.org/iiif/charter/master")
        #expect(info.maxWidth == nil && info.maxHeight == nil, "a 600 px master is offered whole")
        #expect(info.tiles.first?.scaleFactors == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024])
        // 600 x 400 in 254 px tiles: whole from scale 4 (150 x 100) down.
        #expect(info.sizes?.first.map { [$0.width, $0.height] } == [1, 1])
        #expect(info.sizes?.last.map { [$0.width, $0.height] } == [150, 100])
        let full = try Image(data: try #require(files[top + "full/max/0/default.jpg"]))
        #expect(full.width == 600 && full.height == 400)
        for size in info.sizes ?? [] {
            let data = try #require(files[top + "full/\(size.width),\(size.height)/0/default.jpg"], "\(size)")
            let image = try Image(data: data)
            #expect(image.width == size.width && image.height == size.height)
        }
        // No overlap, whatever the Deep Zoom setting says: the edge tile at scale 1 is its region's size.
        let edge = try Image(data: try #require(files[top + "508,254,92,146/92,146/0/default.jpg"]))
        #expect(edge.width == 92 && edge.height == 146)
        let bundle = try #require(files["\(VerifyTests.name)/data/bundle.json"])
        #expect(String(decoding: bundle, as: UTF8.self).contains(#""iiif_base_url" : "https://example.org/iiif/charter""#))
    }

    @Test func aHugeMasterOffersAFullImageABrowserCanHold() {
        let layout = IIIFLayout(width: 34_000, height: 24_000, tileSize: 254, ext: "jpg")
        let info = layout.info(id: "https://example.org/iiif/m")
        #expect(info.maxWidth == 4096 && info.maxHeight == 2891)
        #expect(info.maxSize == .init(width: 4096, height: 2891))
        #expect(info.sizes?.allSatisfy { $0.width <= 254 && $0.height <= 254 } == true)
        let tall = IIIFLayout(width: 3000, height: 9000, tileSize: 254, ext: "jpg").info(id: "https://example.org/iiif/m")
        #expect(tall.maxWidth == 1365 && tall.maxHeight == 4096)
    }

    /// Over 4096 px, full/max is put together from a level's tiles: every
    /// tile in its place, edge tiles included, no padding left in.
    @Test func aMasterOver4096PxHasItsFullImageFromTheTiles() throws {
        let project = try Self.iiifProject()
        defer { project.destroy() }
        try project.write("assets/document/master.png", try Image.solid(width: 9000, height: 600, ink: [200, 120, 40]).pngData())
        let build = try MCPackBinary.run(["build"], in: project.root)
        try #require(build.status == 0, "\(build.stderr)")
        let files = try archiveContents(project.url("dist/\(VerifyTests.name).zip"))
        let top = "\(VerifyTests.name)/data/document/master/"
        let info = try JSONDecoder().decode(IIIFImageInfo.self, from: try #require(files[top + "info.json"]))
        #expect(info.maxWidth == 4096 && info.maxHeight == 273)
        let full = try Image(data: try #require(files[top + "full/max/0/default.jpg"]))
        #expect(full.width == 4096 && full.height == 273)
        for (mean, ink) in zip(try full.bandMeans(), [200.0, 120, 40]) { #expect(abs(mean - ink) < 2, "\(mean) for \(ink)") }
        #expect(try VerifyTests.verify(project.url("dist/\(VerifyTests.name).zip"), in: project).status == 0)
    }

    @Test func theBaseURLIsRequiredForIIIF() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.edit("bundle.toml", "overlap = 1", "overlap = 1\nlayout = \"iiif3\"")
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2)
        let line = try project.line(of: "[document]", in: "bundle.toml")
        #expect(result.stderr.contains("bundle.toml:\(line): document.iiif_base_url: missing; layout = \"iiif3\" needs the http:// or https:// address"), "\(result.stderr)")
        #expect(result.stderr.contains("info.json's id"), "says what the setting is for")
        #expect(project.outputFiles().isEmpty)
    }

    @Test func aMalformedBaseURLIsALocatedError() throws {
        for (value, says) in [("ftp://example.org/iiif", "uses the ftp: scheme"), ("iiif/charter", "is not an absolute URL"),
                              ("https://example.org/iiif?x=1", "has a query or fragment"), ("https:///iiif", "has no host"),
                              ("https://example.org/my iiif", "contains white space")] {
            let project = try Self.iiifProject(base: value)
            defer { project.destroy() }
            let result = try MCPackBinary.run(["build"], in: project.root)
            #expect(result.status == 2, "\(value)")
            let line = try project.line(of: "iiif_base_url", in: "bundle.toml")
            #expect(result.stderr.contains("bundle.toml:\(line): document.iiif_base_url: \"\(value)\" \(says)"), "\(result.stderr)")
            #expect(project.outputFiles().isEmpty)
        }
    }
}

/// verify's rules for a IIIF service, on a built pyramid damaged one way at a time.
@Suite struct IIIFVerifyTests {
    static let folder = "data/document/master/"

    /// The bag's files of a freshly built 600 x 400 IIIF bundle, by path in the bag.
    static func built() throws -> (record: DocumentInput.Record, files: [String: Data]) {
        let project = try IIIFServiceTests.iiifProject()
        defer { project.destroy() }
        let build = try MCPackBinary.run(["build"], in: project.root)
        try #require(build.status == 0, "\(build.stderr)")
        var files: [String: Data] = [:]
        for (path, data) in try archiveContents(project.url("dist/\(VerifyTests.name).zip")) {
            files[String(path.dropFirst(VerifyTests.name.count + 1))] = data
        }
        let bag = DocumentStagesTests.bag(files)
        return (try #require(bag.record(of: DocumentInput.self)), files)
    }

    static func problems(_ record: DocumentInput.Record, _ files: [String: Data]) -> [Problem] {
        DocumentInput.verify(record, in: DocumentStagesTests.bag(files))
    }

    @Test func eachDamageIsNamed() throws {
        let (record, files) = try Self.built()
        #expect(Self.problems(record, files).isEmpty, "\(Self.problems(record, files))")

        let tile = Self.folder + "254,0,254,254/254,254/0/default.jpg"
        var missing = files
        missing[tile] = nil
        #expect(Self.problems(record, missing).map { [$0.path, $0.rule] } == [[tile, "pyramid-complete"]])

        var wrong = files
        wrong[tile] = try Image.solid(width: 254, height: 200, ink: [10, 20, 30]).jpegData()
        let sized = Self.problems(record, wrong)
        #expect(sized.map { [$0.path, $0.rule] } == [[tile, "pyramid-tile-size"]])
        #expect(sized.first?.message == "is 254 x 200 px; its region and scale make it 254 x 254")

        var info = try JSONDecoder().decode(IIIFImageInfo.self, from: try #require(files[Self.folder + "info.json"]))
        info.id = "master"
        var relative = files
        relative[Self.folder + "info.json"] = JSON.encode(info)
        let ids = Self.problems(record, relative)
        #expect(ids.map { [$0.path, $0.rule] } == [[Self.folder + "info.json", "iiif-id"]])
        #expect(ids.first?.message.contains("not an absolute http:// or https:// URI") == true)
        info.id = "https://example.org/elsewhere/master"
        relative[Self.folder + "info.json"] = JSON.encode(info)
        #expect(Self.problems(record, relative).map(\.rule) == ["iiif-id"], "an id other than bundle.json's base")

        let full = Self.folder + "full/max/0/default.jpg"
        var noFull = files
        noFull[full] = nil
        let gone = Self.problems(record, noFull)
        #expect(gone.map { [$0.path, $0.rule] } == [[full, "iiif-full"]])
        #expect(gone.first?.message == "the full image (600 x 400) that level 0 requires is missing")
        var smallFull = files
        smallFull[full] = try Image.solid(width: 300, height: 200, ink: [10, 20, 30]).jpegData()
        #expect(Self.problems(record, smallFull).map { [$0.path, $0.rule] } == [[full, "iiif-full"]])
    }

    /// The same through `mcpack verify` on the unpacked bag, where tiles are
    /// streamed and only their first bytes kept.
    @Test func aWrongSizedTileIsFoundInABagOnDisk() throws {
        let project = try IIIFServiceTests.iiifProject()
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        let bag = try project.unpacked()
        #expect(try VerifyTests.verify(bag, in: project).status == 0)
        let tile = Self.folder + "0,254,254,146/254,146/0/default.jpg"
        try Image.solid(width: 254, height: 254, ink: [10, 20, 30]).jpegData().write(to: bag.appendingPathComponent(tile))
        let (_, errors) = try VerifyTests.verifyDamaged(bag, in: project)
        let sized = errors.filter { $0["rule"] as? String == "pyramid-tile-size" }.compactMap { $0["path"] as? String }
        #expect(sized == [tile], "\(errors)")
    }
}

@Suite struct IIIFDiffTests {
    @Test func tilesAreCountedPerScaleFactor() {
        let folder = "data/document/master/"
        let old = DocumentStagesTests.manifest([(folder + "0,0,254,254/254,254/0/default.jpg", "01"),
                                                (folder + "0,0,600,400/150,100/0/default.jpg", "02"),
                                                (folder + "full/max/0/default.jpg", "03")])
        let new = DocumentStagesTests.manifest([(folder + "0,0,254,254/254,254/0/default.jpg", "0f"),
                                                (folder + "0,0,600,400/150,100/0/default.jpg", "0e"),
                                                (folder + "508,0,92,400/23,100/0/default.jpg", "04"),
                                                (folder + "full/max/0/default.jpg", "0d"),
                                                ("data/document/manifest.json", "05")])
        let record = DocumentStagesTests.record()
        let changes = DocumentInput.diff(DiffSide(record: record, files: [:]), DiffSide(record: record, files: [:]),
                                         ManifestDelta(old: Manifest(old), new: Manifest(new)))
        #expect(changes.map { [$0.path ?? "", $0.detail ?? ""] } == [["full", "1 changed"], ["scale 1", "1 changed"],
                                                                     ["scale 4", "1 added, 1 changed"]])
    }
}
