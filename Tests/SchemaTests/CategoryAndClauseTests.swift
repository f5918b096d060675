import Foundation
import MCPackSchema
import Testing

/// One ClauseCategory, one Clause, one PixelRect: the three files that hold them each
/// write them in their own shape, and read back what they wrote.
@Suite struct CategoryAndClauseTests {
    static let categories = [ClauseCategory(name: "Justice", icon: 2), ClauseCategory(name: "All", icon: 1, filter: "all")]
    static let clause = Clause(id: "39", title: "No free man", categories: ["Justice"], colour: "#8B1E1EB3",
                               translation: "No free man shall be seized.", context: "Still law.",
                               overlays: [PixelRect(x: 10, y: 20, width: 300, height: 24), PixelRect(x: 0, y: 50, width: 5, height: 6)])

    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test func clausesJSONWritesFractionsAndNullFilters() throws {
        let document = ClausesDocument(master: PixelSize(width: 600, height: 400), categories: Self.categories, clauses: [Self.clause])
        let json = Self.text(JSON.encode(document, pretty: false))
        #expect(json.contains(#"{"filter":null,"icon":2,"name":"Justice"}"#), "\(json)")
        #expect(json.contains(#"{"fraction":[0.016667,0.05,0.5,0.06],"pixels":[10,20,300,24]}"#), "\(json)")
        #expect(try JSONDecoder().decode(ClausesDocument.self, from: JSON.encode(document)) == document)
    }

    @Test func categoriesJSONIsInIconOrderUnderNumber() throws {
        let document = CategoriesDocument(Self.categories)
        #expect(Self.text(JSON.encode(document, pretty: false)) == #"[{"filter":"all","name":"All","number":1},{"filter":null,"name":"Justice","number":2}]"# + "\n")
        #expect(try JSONDecoder().decode(CategoriesDocument.self, from: JSON.encode(document)).categories.map(\.icon) == [1, 2])
    }

    @Test func aClauseAloneWritesItsRectanglesAsArrays() throws {
        let json = Self.text(JSON.encode(Self.clause, pretty: false))
        #expect(json.contains(#""overlays":[[10,20,300,24],[0,50,5,6]]"#), "\(json)")
        #expect(try JSONDecoder().decode(Clause.self, from: JSON.encode(Self.clause)) == Self.clause)
        #expect(Self.clause.rgba == 0x8B1E1EB3)
        #expect(Clause(id: "1", title: "", categories: [], colour: "#102030", translation: "", context: "", overlays: []).rgba == 0x102030FF)
    }

    @Test func aRectangleOfThreeNumbersIsRefusedWithWhere() {
        let bad = Data(##"{"master":{"width":6,"height":4},"categories":[],"clauses":[{"id":"1","title":"","categories":[],"colour":"#000000","translation":"","context":"","overlays":[{"pixels":[1,2,3],"fraction":[0,0,0]}]}]}"##.utf8)
        do {
            _ = try JSONDecoder().decode(ClausesDocument.self, from: bad)
            Issue.record("decoded a rectangle of three numbers")
        } catch {
            #expect(JSON.describe(error).contains("clauses[0].overlays[0].pixels"), "\(JSON.describe(error))")
        }
    }

    @Test func aRectangleHoldsItsTopLeftEdgesOnly() {
        let r = PixelRect(x: 10, y: 20, width: 30, height: 40)
        #expect(r.contains(x: 10, y: 20))
        #expect(r.contains(x: 39.9, y: 59.9))
        #expect(!r.contains(x: 40, y: 30))
        #expect(!r.contains(x: 20, y: 60))
    }
}
