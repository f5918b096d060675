import Foundation
@testable import MCPackSchema
import Testing

/// The one JSON writer: keys in UTF-8 byte order on every platform, and the
/// same bytes `JSONEncoder` wrote on Linux, so bags built before it keep
/// theirs.
@Suite struct JSONWriterTests {
    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    /// Keys that Darwin's Foundation on macOS 13-14 orders otherwise (case
    /// folded, digits by value): BagIt before Bagging, Z before a, 10
    /// before 9.
    @Test func keysAreInUTF8ByteOrder() {
        let keys = ["Bagging-Date", "BagIt-Profile-Identifier", "a", "Z", "item10", "item9", "é", "e", "_", "A"]
        let value = Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) })
        let written = Self.text(JSON.encode(value, pretty: false))
        let order = keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(order == ["A", "BagIt-Profile-Identifier", "Bagging-Date", "Z", "_", "a", "e", "item10", "item9", "é"])
        #expect(written == "{" + order.map { "\"\($0)\":1" }.joined(separator: ",") + "}\n")
    }

    @Test func stringsNumbersAndNesting() {
        struct Sample: Encodable {
            var text = "quote \" backslash \\ slash / tab \t newline \n bell \u{07} unit \u{1F} del \u{7F} é 𝔐"
            var numbers: [Double] = [0, 0.5, 1, -2.25, 0.016667, 1e-7, 123456789.125, 1e21]
            var integers: [Int] = [0, -1, Int.max]
            var flags = [true, false]
            var missing: String? = nil
            var empty: [String: Int] = [:]
            var none: [Int] = []
            var nested = ["b": [1, 2], "a": []]
        }
        let pretty = Self.text(JSON.encode(Sample()))
        #expect(pretty.hasPrefix("{\n  \"empty\" : {\n\n  },\n  \"flags\" : [\n    true,\n    false\n  ],\n"), "\(pretty)")
        #expect(pretty.contains(#""text" : "quote \" backslash \\ slash / tab \t newline \n bell \u0007 unit \u001f del "# + "\u{7F} é 𝔐\""), "\(pretty)")
        #expect(pretty.contains("\"nested\" : {\n    \"a\" : [\n\n    ],\n    \"b\" : [\n      1,\n      2\n    ]\n  },"), "\(pretty)")
        #expect(!pretty.contains("missing"))
        let compact = Self.text(JSON.encode(Sample(), pretty: false))
        #expect(compact.contains(#""numbers":[0,0.5,1,-2.25,0.016667,1e-07,123456789.125,1e+21]"#), "\(compact)")
        #expect(compact.contains(#""integers":[0,-1,9223372036854775807]"#), "\(compact)")
    }

    /// swift-foundation's `JSONEncoder` orders keys by bytes too, so on
    /// Linux the two must agree on every record the schema declares; a
    /// difference would change bags built before the writer.
    @Test func agreesWithLinuxJSONEncoderOnTheSchemasRecords() throws {
        #if os(Linux)
        let categories = [ClauseCategory(name: "Justice", icon: 2), ClauseCategory(name: "All", icon: 1, filter: "all")]
        let clause = Clause(id: "39", title: "No free man \"seized\"", categories: ["Justice"], colour: "#8B1E1EB3",
                            translation: "No free man shall be seized.\nOr imprisoned.", context: "Still law / today.",
                            overlays: [PixelRect(x: 10, y: 20, width: 300, height: 24)])
        let values: [any Encodable] = [
            ClausesDocument(master: PixelSize(width: 34_000, height: 24_000), categories: categories, clauses: [clause]),
            CategoriesDocument(categories),
            BundleJSON.Info(name: "magna-carta", version: "1.0.0", title: "Magna Carta", sourceDate: "2024-01-01T00:00:00Z"),
            BagItProfile.mcpackBundle,
            AssetCatalogContents.folder,
            ["nested": ["Z": [1.5, 2], "a": [0.000001]], "Bagging-Date": ["x": []], "empty": [:]],
        ]
        let encoder = JSONEncoder()
        for pretty in [true, false] {
            encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
            for value in values {
                let theirs = Self.text(try encoder.encode(value)) + "\n"
                #expect(Self.text(JSON.encode(value, pretty: pretty)) == theirs)
            }
        }
        #endif
    }

    @Test func aNumberWithNoJSONFormIsRefused() {
        #expect(throws: EncodingError.self) { _ = try JSONWriter.write(Double.nan, pretty: false) }
    }
}
