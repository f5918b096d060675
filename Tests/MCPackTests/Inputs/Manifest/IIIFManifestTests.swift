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
