import Foundation
import MCPackSchema
import Testing

/// The same project gives the same bytes on a Mac and on Linux only if no
/// JSON file of the bag depends on the platform's key order. Each JSON file
/// of the example's bag (in both layouts) is read back and written again
/// by the one writer, whose keys are in UTF-8 byte order: a file written
/// another way, or in another order, differs.
@Suite struct ExampleJSONTests {
    /// A JSON value as read, to be written again.
    enum Value: Codable, Equatable {
        case null, bool(Bool), integer(Int), number(Double), string(String), array([Value]), object([String: Value])

        init(from decoder: Decoder) throws {
            if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
                self = .object(try Dictionary(uniqueKeysWithValues: keyed.allKeys.map { ($0.stringValue, try keyed.decode(Value.self, forKey: $0)) }))
            } else if var items = try? decoder.unkeyedContainer() {
                var values: [Value] = []
                while !items.isAtEnd { values.append(try items.decode(Value.self)) }
                self = .array(values)
            } else {
                let single = try decoder.singleValueContainer()
                if single.decodeNil() { self = .null }
                else if let value = try? single.decode(Bool.self) { self = .bool(value) }
                else if let value = try? single.decode(Int.self) { self = .integer(value) }
                else if let value = try? single.decode(Double.self) { self = .number(value) }
                else { self = .string(try single.decode(String.self)) }
            }
        }

        func encode(to encoder: Encoder) throws {
            switch self {
            case .null: var c = encoder.singleValueContainer(); try c.encodeNil()
            case .bool(let v): var c = encoder.singleValueContainer(); try c.encode(v)
            case .integer(let v): var c = encoder.singleValueContainer(); try c.encode(v)
            case .number(let v): var c = encoder.singleValueContainer(); try c.encode(v)
            case .string(let v): var c = encoder.singleValueContainer(); try c.encode(v)
            case .array(let v): var c = encoder.unkeyedContainer(); for item in v { try c.encode(item) }
            case .object(let v): var c = encoder.container(keyedBy: AnyKey.self); for (key, item) in v { try c.encode(item, forKey: AnyKey(key)) }
            }
        }
    }

    @Test(arguments: ["dz", "iiif3"])
    func everyJSONFileOfTheExampleIsInByteOrder(layout: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-json-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for item in ["bundle.toml", "assets"] {
            try FileManager.default.copyItem(at: TestPython.repository.appendingPathComponent(item), to: folder.appendingPathComponent(item))
        }
        if layout == "iiif3" {
            let config = folder.appendingPathComponent("bundle.toml")
            let text = try String(contentsOf: config, encoding: .utf8)
            try text.replacingOccurrences(of: "overlap = 1", with: "overlap = 1\nlayout = \"iiif3\"\niiif_base_url = \"https://example.org/iiif\"")
                .write(to: config, atomically: true, encoding: .utf8)
        }
        let built = try MCPackBinary.run(["build", "--output", "out"], in: folder)
        try #require(built.status == 0, "\(built.stderr)")
        let archive = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path).first { $0.hasSuffix(".zip") })
        let files = try archiveContents(folder.appendingPathComponent("out/\(archive)")).filter { $0.key.hasSuffix(".json") }
        #expect(files.count >= (layout == "dz" ? 24 : 26), "\(files.keys.sorted())")
        for (path, data) in files {
            let value = try JSONDecoder().decode(Value.self, from: data)
            // Pretty, as every file of a bag is written.
            let again = JSON.encode(value)
            #expect(again == data, "\(path) is not what the one JSON writer writes for its content (keys in UTF-8 byte order)")
        }
    }
}
