import Foundation
import Hashing
import Imaging
import MCPackSchema
import Testing

/// The tile pyramid in the archive a real build writes.
@Suite struct DocumentBuildTests {
    let top = "test-bundle-1.0.0/data/"

    @Test func pyramidHoldsExactlyTheTilesItsDziImplies() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try archiveContents(project.url("dist/test-bundle-1.0.0.zip"))
        let dzi = String(decoding: try #require(files[top + "document/master.dzi"]), as: UTF8.self)
        #expect(dzi.contains(#"TileSize="254""#) && dzi.contains(#"Overlap="1""#) && dzi.contains(#"Format="jpeg""#))
        #expect(dzi.contains(#"Width="600""#) && dzi.contains(#"Height="400""#))

        let geometry = PyramidGeometry(width: 600, height: 400, tileSize: 254, overlap: 1)
        var expected = Set<String>()
        for level in 0...geometry.maxLevel {
            let tiles = geometry.tiles(ofLevel: level)
            for column in 0..<tiles.columns {
                for row in 0..<tiles.rows {
                    let path = top + "document/master_files/\(level)/\(column)_\(row).jpeg"
                    expected.insert(path)
                    let image = try Image(data: try #require(files[path], "missing \(path)"))
                    try image.decodeAll()
                    let size = geometry.tileSize(level: level, column: column, row: row)
                    #expect(image.width == size.width && image.height == size.height, "\(path): \(image.width)x\(image.height), expected \(size)")
                }
            }
        }
        let shipped = Set(files.keys.filter { $0.hasPrefix(top + "document/master_files/") })
        #expect(shipped == expected, "extra: \(shipped.subtracting(expected)), missing: \(expected.subtracting(shipped))")
        #expect(geometry.size(ofLevel: geometry.maxLevel) == (600, 400))
        #expect(!files.keys.contains { $0.contains("vips-properties") })

        // The master is hashed on another core while the other inputs are
        // checked; bundle.json must still record the file's own hash.
        let master = try Data(contentsOf: project.url("assets/document/master.png"))
        let json = try #require(files[top + "bundle.json"])
        let record = try #require(JSONSerialization.jsonObject(with: json) as? [String: Any])
        let document = try #require((record["components"] as? [String: Any])?["document"] as? [String: Any])
        #expect(document["sha256"] as? String == Digest.hex(master))
        let inputs = try #require(record["inputs"] as? [[String: Any]])
        let listed = try #require(inputs.first { $0["path"] as? String == "assets/document/master.png" })
        #expect(listed["sha256"] as? String == Digest.hex(master) && listed["bytes"] as? Int == master.count)
    }

    @Test func iiif3LayoutWritesInfoJson() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.edit("bundle.toml", "overlap = 1", "overlap = 0\nlayout = \"iiif3\"\niiif_base_url = \"https://example.org/iiif\"")
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try archiveContents(project.url("dist/test-bundle-1.0.0.zip"))
        let info = try #require(files[top + "document/master/info.json"])
        let json = try #require(try JSONSerialization.jsonObject(with: info) as? [String: Any])
        #expect(json["width"] as? Int == 600)
        #expect(json["height"] as? Int == 400)
        #expect(files.keys.contains { $0.hasPrefix(top + "document/master/0,0,") && $0.hasSuffix("/default.jpg") })
    }
}
