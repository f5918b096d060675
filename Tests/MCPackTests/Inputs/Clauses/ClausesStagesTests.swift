import Foundation
import MCPackSchema
@testable import MCPackBag
@testable import MCPackInputs
@testable import MCPackKit
import Testing

/// The clauses input's verify and diff stages, in process, on clauses.json
/// written in code.
@Suite struct ClausesStagesTests {
    static func document(_ translation: String, overlay: [Int] = [10, 20, 30, 40]) -> ClausesDocument {
        var file = ClauseFile(categories: [ClauseCategory(name: "Justice", icon: 1, filter: nil)], clauses: [])
        file.clauses.append(Clause(id: "39", title: "No free man", categories: ["Justice"], colour: "#8B1E1E",
                                   translation: translation, context: "", overlays: [PixelRect(x: overlay[0], y: overlay[1], width: overlay[2], height: overlay[3])]))
        return ClausesDocument(master: PixelSize(width: 600, height: 400), categories: file.categories, clauses: file.clauses)
    }

    static func side(_ document: ClausesDocument) -> DiffSide<ClausesInput.Record> {
        DiffSide(record: nil, files: ["data/clauses.json": JSON.encode(document)])
    }

    static func diff(_ a: ClausesDocument, _ b: ClausesDocument) -> [Change] {
        ClausesInput.diff(side(a), side(b), ManifestDelta(old: Manifest(Data()), new: Manifest(Data())))
    }

    @Test func aWordChangeIsOneRemovedAndOneInsertedRun() {
        let changes = Self.diff(Self.document("Also still law."), Self.document("Also still the law today."))
        #expect(changes.count == 1)
        #expect(changes.first?.detail == "Also still [-law.-] {+the law today.+}")
        #expect(changes.first?.words == [
            WordSegment(kind: .kept, text: "Also still"), WordSegment(kind: .removed, text: "law."),
            WordSegment(kind: .inserted, text: "the law today."),
        ])
    }

    /// The HTML report used to re-parse the text markers, so a clause whose
    /// own text held `-]` or `{+` came out with tags in the wrong places.
    @Test func markerLikeTextStaysText() throws {
        let changes = Self.diff(Self.document("keep [-this-] and {+that+}"), Self.document("keep [-this-] and {+other+}"))
        let words = try #require(changes.first?.words)
        #expect(words.filter { $0.kind != .kept }.map(\.text) == ["{+that+}", "{+other+}"])
        let report = DiffReport(old: "a", new: "b", summary: "", changes: changes)
        let page = String(decoding: try HTMLReports.diff(report, oldFiles: [:], newFiles: [:]), as: UTF8.self)
        #expect(page.contains("keep [-this-] and <del>{+that+}</del> <ins>{+other+}</ins>"), "\(page)")
    }

    @Test func longUnchangedRunsAreElided() {
        let words = (1...20).map { "w\($0)" }
        let changed = words.map { $0 == "w10" ? "X" : $0 }
        let diff = WordDiff(words.joined(separator: " "), changed.joined(separator: " "))
        #expect(diff.text == "... w6 w7 w8 w9 [-w10-] {+X+} w11 w12 w13 w14 ...")
    }

    @Test func movedOverlayIsAFieldChange() {
        let changes = Self.diff(Self.document("t"), Self.document("t", overlay: [12, 20, 30, 40]))
        var moved = Change("clauses", "changed", clause: "39", field: "overlays", old: "[10, 20, 30, 40]", new: "[12, 20, 30, 40]")
        // The rectangles themselves, for a report to draw both.
        moved.rectangles = RectangleChange(old: [PixelRect(x: 10, y: 20, width: 30, height: 40)], new: [PixelRect(x: 12, y: 20, width: 30, height: 40)])
        #expect(changes == [moved])
    }

    @Test func verifyFindsAnOverlayOutsideTheMaster() {
        var contents = BagContents()
        let json = JSON.encode(Self.document("t", overlay: [590, 20, 30, 40]))
        contents.put(BagFile(path: "data/clauses.json", size: Int64(json.count), digests: [:], data: json))
        let problems = ClausesInput.verify(nil, in: BagView(contents: contents))
        #expect(problems.map(\.rule) == ["overlays-inside"])
        // Numbers whose sum overflows are found, not trapped on.
        let huge = JSON.encode(Self.document("t", overlay: [Int.max, 1, Int.max, 1]))
        contents.put(BagFile(path: "data/clauses.json", size: Int64(huge.count), digests: [:], data: huge))
        #expect(ClausesInput.verify(nil, in: BagView(contents: contents)).map(\.rule) == ["overlays-inside"])
        let good = JSON.encode(Self.document("t"))
        contents.put(BagFile(path: "data/clauses.json", size: Int64(good.count), digests: [:], data: good))
        #expect(ClausesInput.verify(nil, in: BagView(contents: contents)).isEmpty)
    }

    @Test func verifyNamesWhatIsMissingFromAClauseFile() {
        var contents = BagContents()
        let json = Data(#"{"master": {"width": 1, "height": 1}, "categories": [], "clauses": [{"id": "1"}]}"#.utf8)
        contents.put(BagFile(path: "data/clauses.json", size: Int64(json.count), digests: [:], data: json))
        let problems = ClausesInput.verify(nil, in: BagView(contents: contents))
        #expect(problems.count == 1)
        #expect(problems.first?.rule == "clauses-json")
        #expect(problems.first?.message.contains("clauses[0].") == true, "\(problems)")
    }
}
