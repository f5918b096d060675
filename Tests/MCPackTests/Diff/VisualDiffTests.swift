import Foundation
import MCPackSchema
import Imaging
import ImagingTestSupport
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

    /// Unpacked bags give the same answer as their archives.
    @Test func unpackedBagsAreComparedAlike() throws {
        let project = try Self.retouchedPair()
        defer { project.destroy() }
        for version in ["1.0.0", "1.1.0"] {
            for (path, data) in try archiveContents(project.url("dist/test-bundle-\(version).zip")) where !path.hasSuffix("/") {
                try project.write("unpacked/\(path)", data)
            }
        }
        let archives = try MCPackBinary.run(["diff", "1.0.0", "1.1.0", "--pixels", "--json"], in: project.root)
        let folders = try MCPackBinary.run(["diff", "unpacked/test-bundle-1.0.0", "unpacked/test-bundle-1.1.0", "--pixels", "--json"], in: project.root)
        #expect(folders.status == 1, "\(folders.stderr)")
        func told(_ result: RunResult) -> (summary: String, regions: NSArray?) {
            let json = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return (json?["summary"] as? String ?? "", json?["regions"] as? NSArray)
        }
        #expect(told(folders).summary == told(archives).summary)
        #expect(told(folders).regions == told(archives).regions)
        #expect(told(folders).summary.contains("1 region changed visibly"))
    }

    @Test func theDiffPageMapsTheAreaAndIsTheSameEachTime() throws {
        let project = try Self.retouchedPair()
        defer { project.destroy() }
        let first = try MCPackBinary.run(["diff", "1.0.0", "1.1.0", "--html", "a.html"], in: project.root)
        #expect(first.status == 1, "\(first.stderr)")
        #expect(try MCPackBinary.run(["diff", "1.0.0", "1.1.0", "--html", "b.html"], in: project.root).status == 1)
        let page = try project.read("a.html")
        #expect(try Data(contentsOf: project.url("a.html")) == Data(contentsOf: project.url("b.html")), "the same inputs give the same page")
        #expect(page.contains(#"alt="the document before, whole""#))
        #expect(page.contains(#"alt="the document after, whole""#))
        #expect(page.contains(#"alt="the document after, its visibly changed areas marked""#))
        #expect(page.contains(##"<a class="area" href="#area-1" aria-label="changed area 1: "##))
        #expect(page.contains(#"<section class="region" id="area-1""#))
        #expect(page.contains(#"role="group" aria-label="changed area 1, at full size""#))
        // One file: nothing fetched from elsewhere.
        #expect(!page.contains("http://") && !page.contains("https://") && !page.contains("src=\"file"))
        #expect(page.components(separatedBy: "src=\"data:image/").count - 1 >= 3 + 3)
    }

    @Test func aChangedIconIsShownBeforeAndAfterWithItsSize() throws {
        let (_, _, project) = try DiffTests.diffAfter(images: true) { project in
            try project.write("assets/categories/2.png", TestProject.icon(12))
        }
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["diff", "1.0.0", "1.1.0", "--html", "changes.html"], in: project.root).status == 1)
        let page = try project.read("changes.html")
        #expect(page.contains("<div class=\"pair\" role=\"group\" aria-label=\"data/\(AssetCatalog.categoryImagePath(2))\">"))
        #expect(page.contains("alt=\"before: data/\(AssetCatalog.categoryImagePath(2))\"") && page.contains("alt=\"after: data/\(AssetCatalog.categoryImagePath(2))\""))
        #expect(page.contains("<figcaption>before, 32 x 32 px</figcaption>") && page.contains("<figcaption>after, 32 x 32 px</figcaption>"))
        #expect(page.contains("alt=\"difference: data/\(AssetCatalog.categoryImagePath(2))\""))
    }

    @Test func aMovedOverlayIsDrawnOldAndNew() throws {
        let (_, changes, project) = try DiffTests.diffAfter { project in
            try project.edit("assets/clauses.toml", "[10, 44, 120, 24]", "[300, 200, 120, 24]")
        }
        defer { project.destroy() }
        let moved = try #require(changes.first { $0["field"] as? String == "overlays" })
        let rectangles = moved["rectangles"] as? [String: [[Int]]]
        #expect(rectangles?["old"] == [[10, 20, 300, 24], [10, 44, 120, 24]])
        #expect(rectangles?["new"] == [[10, 20, 300, 24], [300, 200, 120, 24]])
        #expect(try MCPackBinary.run(["diff", "1.0.0", "1.1.0", "--html", "changes.html"], in: project.root).status == 1)
        let page = try project.read("changes.html")
        #expect(page.contains(#"alt="clause 39: its overlays before and after, on the document""#))
        // 600 x 400 master: [10, 44, 120, 24] and [300, 200, 120, 24] as shares of it.
        #expect(page.contains(#"<span class="overlay-old" title="old: 10, 44, 120, 24" style="left:1.667%;top:11.000%;width:20.000%;height:6.000%">"#))
        #expect(page.contains(#"<span class="overlay-new" title="new: 300, 200, 120, 24" style="left:50.000%;top:50.000%;width:20.000%;height:6.000%">"#))
    }
}
