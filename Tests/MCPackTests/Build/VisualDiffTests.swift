import Foundation
import Imaging
import Testing

/// What `diff --pixels` and `diff --html` show of pictures: the document's
/// visible change told from re-encoding, pictures before and after, moved
/// overlays, one self-contained page.
@Suite struct VisualDiffTests {
    /// A 1200 x 800 master: 254 px tiles give 5 x 4 tiles at full size (level 11).
    static let width = 1200
    static let height = 800
    /// The retouched area, away from the tile seams at 254 (so at full
    /// size it falls in tiles 1_1 and 2_1 only).
    static let area = (x: 400, y: 300, width: 240, height: 160)

    /// 1.0.0 from a JPEG master; 1.1.0 from that master decoded, an area
    /// painted over, and saved as JPEG again at the same quality, as an
    /// editor does: every pixel moves a little, the area a lot.
    static func retouchedPair() throws -> TestProject {
        let project = try TestProject.make()
        try project.remove("assets/document/master.png")
        try project.edit("bundle.toml", "assets/document/master.png", "assets/document/master.jpg")
        let master = try Image.noise(width: width, height: height, bands: 3, seed: 7).jpegData(quality: 90)
        try project.write("assets/document/master.jpg", master)
        let built = try MCPackBinary.run(["build"], in: project.root)
        #expect(built.status == 0, "\(built.stderr)")
        let patch = try Image.solid(width: area.width, height: area.height, ink: [200, 40, 40])
        let retouched = try Image.assembled(width: width, height: height, pieces: [(try Image(data: master), 0, 0), (patch, area.x, area.y)])
        try project.write("assets/document/master.jpg", retouched.jpegData(quality: 90))
        try project.edit("bundle.toml", #"version = "1.0.0""#, #"version = "1.1.0""#)
        let again = try MCPackBinary.run(["build"], in: project.root)
        #expect(again.status == 0, "\(again.stderr)")
        return project
    }

    /// The tiles of `level` whose pixels (overlap included, `grow` px more)
    /// meet the retouched area scaled to that level.
    static func covering(level: Int, maxLevel: Int, grow: Int) -> Set<String> {
        let shift = maxLevel - level
        let x0 = area.x >> shift, y0 = area.y >> shift
        let x1 = (area.x + area.width - 1) >> shift, y1 = (area.y + area.height - 1) >> shift
        let levelWidth = (width + (1 << shift) - 1) >> shift, levelHeight = (height + (1 << shift) - 1) >> shift
        var names = Set<String>()
        for row in 0..<((levelHeight + 253) / 254) {
            for column in 0..<((levelWidth + 253) / 254) {
                let left = column * 254 - 1 - grow, right = (column + 1) * 254 + grow
                let top = row * 254 - 1 - grow, bottom = (row + 1) * 254 + grow
                if left <= x1 && right >= x0 && top <= y1 && bottom >= y0 { names.insert("\(column)_\(row)") }
            }
        }
        return names
    }

    @Test func aRetouchedAreaIsToldFromReEncoding() throws {
        let project = try Self.retouchedPair()
        defer { project.destroy() }
        let plain = try MCPackBinary.run(["diff", "1.0.0", "1.1.0", "--json"], in: project.root)
        #expect(!plain.stdout.contains("visible_tiles"), "tiles are decoded only when asked for")

        let result = try MCPackBinary.run(["diff", "1.0.0", "1.1.0", "--pixels", "--json"], in: project.root)
        #expect(result.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let changes = json["changes"] as? [[String: Any]] ?? []
        var levels: [Int: [String: Any]] = [:]
        for change in changes {
            if let tiles = change["tiles"] as? [String: Any], let level = tiles["level"] as? Int { levels[level] = tiles }
        }
        // Full size: every tile was encoded again, two changed visibly.
        let full = try #require(levels[11])
        #expect(full["changed"] as? Int == 20)
        #expect(full["visible"] as? Int == 2)
        #expect(full["visible_tiles"] as? [String] == ["1_1", "2_1"])
        for (level, tiles) in levels {
            let visible = Set(tiles["visible_tiles"] as? [String] ?? [])
            // Never a tile away from the area, at any level.
            #expect(visible.isSubset(of: Self.covering(level: level, maxLevel: 11, grow: 2)), "level \(level): \(visible)")
            // Where the area is still 8 px or more (a block), every tile it lies in.
            if (Self.area.height >> (11 - level)) >= 8 {
                #expect(Self.covering(level: level, maxLevel: 11, grow: -2).isSubset(of: visible), "level \(level): \(visible)")
            }
        }
        let regions = try #require(json["regions"] as? [[String: Any]])
        #expect(regions.count == 1)
        let region = regions.first ?? [:]
        for (key, value) in [("x", Self.area.x), ("y", Self.area.y), ("width", Self.area.width), ("height", Self.area.height)] {
            #expect(abs((region[key] as? Int ?? -100) - value) <= 10, "\(key): \(region)")
        }
        let summary = json["summary"] as? String ?? ""
        let reencoded = levels.values.reduce(0) { $0 + ($1["changed"] as? Int ?? 0) - ($1["visible"] as? Int ?? 0) }
        #expect(reencoded > 20)
        #expect(summary.hasPrefix("clauses: ") == false)
        #expect(summary.contains("document: master changed, 1 region changed visibly (2 tiles at full size); \(reencoded) more re-encoded"), "\(summary)")

        let text = try MCPackBinary.run(["diff", "1.0.0", "1.1.0", "--pixels"], in: project.root)
        #expect(text.stdout.contains("~ tiles level 11 (20 changed, 2 visibly)"), "\(text.stdout)")
    }
}
