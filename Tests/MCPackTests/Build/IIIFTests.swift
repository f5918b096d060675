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
        let unpack = project.url("unpacked")
        try FileManager.default.createDirectory(at: unpack, withIntermediateDirectories: true)
        try MCPackBinary.tool("python3", ["-m", "zipfile", "-e", project.url("dist/\(VerifyTests.name).zip").path, "."], in: unpack)
        let bag = unpack.appendingPathComponent(VerifyTests.name)
        #expect(try VerifyTests.verify(bag, in: project).status == 0)
        let tile = Self.folder + "0,254,254,146/254,146/0/default.jpg"
        try Image.solid(width: 254, height: 254, ink: [10, 20, 30]).jpegData().write(to: bag.appendingPathComponent(tile))
        let (_, errors) = try VerifyTests.verifyDamaged(bag, in: project)
        let sized = errors.filter { $0["rule"] as? String == "pyramid-tile-size" }.compactMap { $0["path"] as? String }
        #expect(sized == [tile], "\(errors)")
    }
}

/// The header sizes verify reads without decoding, against libvips's own.
@Suite struct PictureHeaderTests {
    @Test func jpegPngAndWebPSizesAreRead() throws {
        let image = try Image.noise(width: 37, height: 23, bands: 3, seed: 1)
        for data in [try image.jpegData(), try image.pngData(),
                     try PyramidSettings(tileSize: 254, overlap: 0, format: "webp", quality: 80, layout: .iiif3).encode(image),
                     try PyramidSettings(tileSize: 254, overlap: 0, format: "jpeg", quality: 80, layout: .iiif3).encode(image)] {
            let kept = try #require(BagContents.keeping("data/document/m/254,0,254,254/254,254/0/default.jpg", size: 1 << 20).headBytes)
            let size = try #require(PictureHeader.size(of: data.prefix(kept)))
            #expect(size == (37, 23))
        }
        #expect(PictureHeader.size(of: Data("not a picture".utf8)) == nil)
    }
}

/// With layout = "iiif3", a IIIF Presentation 3 manifest of the document
/// whose annotations are the clause overlays.
@Suite struct IIIFManifestTests {
    static let base = "https://example.org/iiif/charter"
    static let path = "data/document/manifest.json"

    /// TestProject's overlays with a third rectangle for clause 39.
    static let overlays = [("39", [[10, 20, 300, 24], [10, 44, 120, 24], [320, 20, 200, 24]]), ("40", [[130, 44, 400, 24]])]

    @Test func theManifestLoadsInPrezi3WithEveryIdUnderTheBase() throws {
        let project = try IIIFServiceTests.iiifProject(base: Self.base + "/")
        defer { project.destroy() }
        try project.edit("assets/clauses.toml", "overlays = [[10, 20, 300, 24], [10, 44, 120, 24]]",
                         "overlays = [[10, 20, 300, 24], [10, 44, 120, 24], [320, 20, 200, 24]]")
        let build = try MCPackBinary.run(["build"], in: project.root)
        try #require(build.status == 0, "\(build.stderr)")
        let files = try archiveContents(project.url("dist/\(VerifyTests.name).zip"))
        let written = try #require(files["\(VerifyTests.name)/\(Self.path)"])
        try project.write("manifest.json", written)

        let loaded = try TestPython.run([TestPython.script("prezi3_load.py"), "manifest.json"], in: project.root)
        try #require(loaded.status == 0, "iiif-prezi3: \(loaded.stderr)")
        // What prezi3 built from it, read back: nothing it dropped can pass.
        let manifest = try JSONDecoder().decode(PresentationManifest.self, from: Data(loaded.stdout.utf8))
        #expect(manifest.id == Self.base + "/manifest.json")
        #expect(manifest.label == ["en": ["Test Bundle"]])
        #expect(manifest.allIDs.count > 5 && manifest.allIDs.allSatisfy { $0.hasPrefix(Self.base + "/") }, "\(manifest.allIDs)")
        let canvas = try #require(manifest.items.first)
        #expect(manifest.items.count == 1 && canvas.width == 600 && canvas.height == 400)
        #expect(canvas.label == ["en": ["Test Bundle"]], "a viewer names the canvas, not \"[1]\"")
        let painting = try #require(canvas.items.first?.items.first)
        #expect(painting.motivation == "painting" && painting.target == .init(source: canvas.id))
        #expect(painting.body.first?.service?.first?.id == Self.base + "/master")
        #expect(painting.body.first?.id == Self.base + "/master/full/max/0/default.jpg")

        // One annotation a clause, by its title, on all its rectangles.
        let annotations = manifest.clauseAnnotations
        #expect(annotations.map(\.id) == ["39", "40"].map { "\(canvas.id)/clauses/\($0)" })
        #expect(annotations.map { $0.label?["en"] ?? [] } == [["No free man shall be seized"], ["To no one will we sell right or justice"]])
        #expect(annotations.map(\.target.source) == [canvas.id, canvas.id])
        #expect(annotations.map { $0.target.rectangles.map(\.values) } == Self.overlays.map(\.1))
        #expect(annotations.allSatisfy { $0.motivation == "commenting" && $0.body.allSatisfy { $0.type == "TextualBody" } })
        // The bodies as Mirador's panel shows them: the title first (as HTML,
        // escaped), the translation and context, the categories as tags.
        let last = try #require(annotations.last)
        #expect(last.body.map(\.value) == ["<p><b>To no one will we sell right or justice</b></p>",
                                           "To no one will we sell, to no one deny or delay right or justice.", "Also still law.", "Justice"])
        #expect(last.body.map(\.purpose) == ["identifying", nil, nil, "tagging"])
        #expect(last.body.map(\.format) == ["text/html", "text/plain", "text/plain", "text/plain"])
        #expect(annotations.first?.body.filter { $0.purpose == "tagging" }.map(\.value) == ["Key Clauses", "Justice"])
        #expect(PresentationManifest.htmlEscaped(#"A & <B> "c""#) == "A &amp; &lt;B&gt; &quot;c&quot;")

        // The selector as prezi3 wrote it back, read by an XML parser as a
        // viewer's DOMParser reads it: three path elements for clause 39,
        // each a rectangle drawn clockwise (Mirador before 4.2 draws only
        // paths), and no rect.
        let raw = try #require(try JSONSerialization.jsonObject(with: Data(loaded.stdout.utf8)) as? [String: Any])
        let target = try #require(((((raw["items"] as? [[String: Any]])?.first?["annotations"] as? [[String: Any]])?.first?["items"] as? [[String: Any]])?.first?["target"]) as? [String: Any])
        #expect(target["type"] as? String == "SpecificResource")
        let selector = try #require(target["selector"] as? [String: Any])
        #expect(selector["type"] as? String == "SvgSelector")
        let svg = try XMLDocument(xmlString: try #require(selector["value"] as? String))
        let paths = try svg.nodes(forXPath: "//*[local-name()='path']").compactMap { $0 as? XMLElement }
        let drawn = paths.map { element in (element.attributes ?? []).first { $0.name == "d" }?.stringValue ?? "" }
        #expect(drawn == Self.overlays[0].1.map { "M \($0[0]),\($0[1]) h \($0[2]) v \($0[3]) h -\($0[2]) Z" }, "\(svg.xmlString)")
        #expect(try svg.nodes(forXPath: "//*[local-name()='rect']").isEmpty, "\(svg.xmlString)")
        #expect(svg.rootElement()?.uri == "http://www.w3.org/2000/svg")
    }

    @Test func verifyFindsAManifestThatDisagrees() throws {
        let (_, files) = try IIIFVerifyTests.built()
        let bag = { (files: [String: Data]) in ManifestInput.verify(DocumentStagesTests.bag(files).record(of: ManifestInput.self),
                                                                    in: DocumentStagesTests.bag(files)) }
        #expect(bag(files).isEmpty, "\(bag(files))")
        let manifest = try JSONDecoder().decode(PresentationManifest.self, from: try #require(files[Self.path]))
        #expect(manifest.clauseAnnotations.count == 2, "one annotation a clause")

        var missing = files
        missing[Self.path] = nil
        #expect(bag(missing).map(\.rule) == ["manifest-present"])

        var moved = manifest
        moved.items[0].annotations![0].items[1].target.rectangles[0].x = 131
        let problems = bag(files.merging([Self.path: JSON.encode(moved)]) { $1 })
        #expect(problems.map(\.rule) == ["manifest-clauses"], "\(problems)")
        #expect(problems.first?.message == "clause \"40\": its annotation targets [[131, 44, 400, 24]] of \(manifest.items[0].id), not its rectangles [[130, 44, 400, 24]] of the canvas")

        // A manifest built before, its rectangles `<rect>` elements, still
        // verifies clause by clause; a path that is not the rectangle does not.
        let written = String(decoding: try #require(files[Self.path]), as: UTF8.self)
        let pathForm = try Regex(#"<path d=\\"M (\d+),(\d+) h (\d+) v (\d+) h -\d+ Z\\"/>"#)
        let rectForm = written.replacing(pathForm) { match in
            let (x, y, w, h) = (match.output[1].substring!, match.output[2].substring!, match.output[3].substring!, match.output[4].substring!)
            return #"<rect x=\"\#(x)\" y=\"\#(y)\" width=\"\#(w)\" height=\"\#(h)\"/>"#
        }
        #expect(rectForm != written && !rectForm.contains("<path"), "\(rectForm)")
        #expect(bag(files.merging([Self.path: Data(rectForm.utf8)]) { $1 }).isEmpty, "\(rectForm)")
        let askew = written.replacingOccurrences(of: "h -400 Z", with: "h -399 Z")
        #expect(askew != written)
        #expect(bag(files.merging([Self.path: Data(askew.utf8)]) { $1 }).map(\.rule) == ["manifest-clauses"], "a path that is not a rectangle")

        var dropped = manifest
        dropped.items[0].annotations![0].items[0].target.rectangles.removeLast()
        #expect(bag(files.merging([Self.path: JSON.encode(dropped)]) { $1 }).map(\.rule) == ["manifest-clauses"], "a rectangle left out")

        var relative = manifest
        relative.items[0].annotations![0].items[0].id = "clauses/39"
        #expect(bag(files.merging([Self.path: JSON.encode(relative)]) { $1 }).map(\.rule) == ["manifest-ids", "manifest-clauses", "manifest-clauses"])

        var twice = manifest
        twice.items[0].annotations![0].items.append(twice.items[0].annotations![0].items[0])
        let doubled = bag(files.merging([Self.path: JSON.encode(twice)]) { $1 })
        #expect(doubled.map(\.rule) == ["manifest-clauses"], "\(doubled)")
        #expect(doubled.first?.message.contains("appears more than once") == true, "\(doubled)")

        // clauses.json edited after the build: the manifest no longer says what it says.
        var clauses = try JSONDecoder().decode(ClausesDocument.self, from: try #require(files["data/clauses.json"]))
        clauses.clauses[1].translation = "Changed."
        let stale = bag(files.merging(["data/clauses.json": JSON.encode(clauses)]) { $1 })
        #expect(stale.map(\.rule) == ["manifest-clauses"], "\(stale)")
        #expect(stale.first?.message == "clause \"40\": its annotation's label or bodies are not the clause's title, translation, context and categories")
    }

    @Test func onlyAIIIFDocumentHasAManifest() {
        let clauses = ClauseList(file: ClauseFile(categories: [], clauses: []), path: "assets/clauses.toml")
        #expect(ManifestInput.Needs.gather(from: [MasterSize(width: 600, height: 400), clauses]) == nil)
        let service = IIIFService(base: Self.base, pyramid: PyramidLayout(name: "master", kind: .iiif3, width: 600, height: 400, tileSize: 254, overlap: 0, tileFormat: "jpeg"), format: "jpeg")
        #expect(ManifestInput.Needs.gather(from: [service, clauses])?.service == service)
    }

    @Test func diffNamesTheManifestsChanges() {
        let a = ManifestInput.Record(id: Self.base + "/manifest.json", annotations: 3)
        let b = ManifestInput.Record(id: "https://example.org/other/manifest.json", annotations: 4)
        let empty = ManifestDelta(old: Manifest(Data()), new: Manifest(Data()))
        let changes = ManifestInput.diff(DiffSide(record: a, files: [:]), DiffSide(record: b, files: [:]), empty)
        #expect(changes.map(\.field) == ["id", "annotations"])
        #expect(ManifestInput.diff(DiffSide(record: nil, files: [:]), DiffSide(record: b, files: [:]), empty).map(\.kind) == ["added"])
    }
}

/// diff counts a IIIF pyramid's changed tiles per scale factor.
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
