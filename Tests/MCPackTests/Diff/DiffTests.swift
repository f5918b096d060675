import Foundation
import MCPackSchema
import Imaging
import ImagingTestSupport
import Testing

/// Pairs of small bundles, one kind of change at a time.
@Suite struct DiffTests {
    /// Builds 1.0.0, applies `change`, builds 1.1.0, and diffs them.
    static func diffAfter(images: Bool = false, _ change: (TestProject) throws -> Void,
                          extra: [String] = ["--json"]) throws -> (RunResult, [[String: Any]], TestProject) {
        let project = try TestProject.make(images: images)
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        try change(project)
        try project.edit("bundle.toml", #"version = "1.0.0""#, #"version = "1.1.0""#)
        let built = try MCPackBinary.run(["build"], in: project.root)
        #expect(built.status == 0, "\(built.stderr)")
        let result = try MCPackBinary.run(["diff", "1.0.0", "v1.1.0"] + extra, in: project.root)
        var changes: [[String: Any]] = []
        if extra.contains("--json") {
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(json["identical"] as? Bool == false)
            changes = json["changes"] as? [[String: Any]] ?? []
        }
        return (result, changes, project)
    }

    static func has(_ changes: [[String: Any]], _ pairs: [String: String]) -> Bool {
        changes.contains { change in pairs.allSatisfy { key, value in "\(change[key] ?? "")" == value } }
    }

    @Test func clauseTextChangeNamesTheClauseAndField() throws {
        let (result, changes, project) = try Self.diffAfter { try $0.edit("assets/clauses.toml", "Also still law.", "Also still the law today.") }
        defer { project.destroy() }
        #expect(result.status == 1)
        #expect(Self.has(changes, ["component": "clauses", "kind": "changed", "clause": "40", "field": "context"]))
        let change = changes.first { $0["clause"] as? String == "40" }
        #expect(change?["detail"] as? String == "Also still [-law.-] {+the law today.+}")
        #expect(Self.has(changes, ["component": "metadata", "field": "bag-info.txt Bundle-Version", "old": "1.0.0", "new": "1.1.0"]))
        #expect(Self.has(changes, ["component": "metadata", "field": "input", "path": "assets/clauses.toml"]))
        #expect(!changes.contains { $0["component"] as? String == "document" }, "no tile changed")
        let text = try MCPackBinary.run(["diff", "1.0.0", "1.1.0"], in: project.root)
        #expect(text.stdout.hasPrefix("clauses: 1 changed; preview: 1 file; files: 2 files; metadata: 5 fields\n"), "\(text.stdout)")
        #expect(text.stdout.contains("~ clause 40 context: Also still [-law.-] {+the law today.+}"))
        let stat = try MCPackBinary.run(["diff", "1.0.0", "1.1.0", "--stat"], in: project.root)
        #expect(stat.stdout == "clauses: 1 changed; preview: 1 file; files: 2 files; metadata: 5 fields\n")
    }

    @Test func clausesAddedRemovedAndMoved() throws {
        let (_, changes, project) = try Self.diffAfter { project in
            try project.edit("assets/clauses.toml", #"id = "40""#, #"id = "41""#)
            try project.edit("assets/clauses.toml", "[10, 44, 120, 24]", "[12, 44, 120, 24]")
        }
        defer { project.destroy() }
        #expect(Self.has(changes, ["component": "clauses", "kind": "removed", "clause": "40"]))
        #expect(Self.has(changes, ["component": "clauses", "kind": "added", "clause": "41"]))
        #expect(Self.has(changes, ["clause": "39", "field": "overlays", "old": "[10, 20, 300, 24] [10, 44, 120, 24]", "new": "[10, 20, 300, 24] [12, 44, 120, 24]"]))
    }

    @Test func categoryNameAndIcon() throws {
        let (_, changes, project) = try Self.diffAfter { project in
            try project.edit("assets/clauses.toml", #"name = "Key Clauses""#, #"name = "Key""#)
            try project.edit("assets/clauses.toml", #"categories = ["Key Clauses", "Justice"]"#, #"categories = ["Key", "Justice"]"#)
            try project.write("assets/categories/2.png", TestProject.icon(12))
        }
        defer { project.destroy() }
        #expect(Self.has(changes, ["component": "categories", "category": "1", "field": "name", "old": "Key Clauses", "new": "Key"]))
        #expect(Self.has(changes, ["component": "categories", "category": "2", "field": "icon"]))
        #expect(Self.has(changes, ["component": "clauses", "clause": "39", "field": "categories"]))
    }

    @Test func documentSettingsAndTilesAsCounts() throws {
        let (result, changes, project) = try Self.diffAfter { project in
            try project.edit("bundle.toml", "overlap = 1", "overlap = 1\nquality = 60")
        }
        defer { project.destroy() }
        #expect(result.status == 1)
        #expect(Self.has(changes, ["component": "document", "field": "quality", "old": "85", "new": "60"]))
        let tiles = changes.filter { $0["field"] as? String == "tiles" }
        #expect(tiles.contains { $0["path"] as? String == "level 10" && ($0["detail"] as? String)?.contains("6 changed") == true })
        #expect(tiles.count <= 11, "one line per level, not per tile")
    }

    @Test func iconsChanged() throws {
        let (_, changes, project) = try Self.diffAfter(images: true) { project in
            try project.write("assets/icon/AppIcon-1024.png", Image.noise(width: 1024, height: 1024, bands: 3, seed: 99).pngData())
        }
        defer { project.destroy() }
        #expect(Self.has(changes, ["component": "icons", "kind": "changed", "field": "app icon", "detail": "app icon: changed; its master is assets/icon/AppIcon-1024.png"]))
        #expect(Self.has(changes, ["component": "icons", "kind": "changed", "path": "data/\(AssetCatalog.appIconSet)/AppIcon.png"]))
        #expect(!changes.contains { $0["component"] as? String == "launch" })
    }

    /// A changed dark master is named as that appearance, in the text
    /// report and on the diff page; an added tinted one as added.
    @Test func aChangedAppearanceIsNamed() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        try project.write("assets/icon/dark.png", Image.noise(width: 1024, height: 1024, bands: 3, seed: 11).pngData())
        try project.edit("bundle.toml", #"master = "assets/icon/AppIcon-1024.png""#,
                         "master = \"assets/icon/AppIcon-1024.png\"\ndark = \"assets/icon/dark.png\"")
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        try project.write("assets/icon/dark.png", Image.noise(width: 1024, height: 1024, bands: 3, seed: 12).pngData())
        try project.write("assets/icon/tinted.png", Image.noise(width: 1024, height: 1024, bands: 3, seed: 13).pngData())
        try project.edit("bundle.toml", #"dark = "assets/icon/dark.png""#, "dark = \"assets/icon/dark.png\"\ntinted = \"assets/icon/tinted.png\"")
        try project.edit("bundle.toml", #"version = "1.0.0""#, #"version = "1.1.0""#)
        let built = try MCPackBinary.run(["build"], in: project.root)
        #expect(built.status == 0, "\(built.stderr)")
        let text = try MCPackBinary.run(["diff", "1.0.0", "1.1.0"], in: project.root)
        #expect(text.status == 1)
        #expect(text.stdout.contains("app icon, dark: changed"), "\(text.stdout)")
        #expect(text.stdout.contains("+ app icon, tinted"), "\(text.stdout)")
        #expect(!text.stdout.contains("~ app icon data/"), "the default appearance did not change: \(text.stdout)")
        let html = try MCPackBinary.run(["diff", "1.0.0", "1.1.0", "--html", "changes.html"], in: project.root)
        #expect(html.status == 1)
        let page = try project.read("changes.html")
        #expect(page.contains("app icon, dark"), "the diff page does not name the appearance")
        #expect(page.contains("<code>data/\(AssetCatalog.appIconSet)/AppIcon-dark.png</code>"))
    }

    /// --pixels says how a picture changed: a new size, a share of changed
    /// pixels, or the same pixels in other bytes.
    @Test func pixelsSaysHowPicturesChanged() throws {
        let (_, plain, project) = try Self.diffAfter(images: true) { project in
            try project.write("assets/categories/2.png", TestProject.icon(12))
            let same = try Image(data: Data(contentsOf: project.url("assets/categories/3.png")))
            try project.write("assets/categories/3.png", same.pngData(compression: 1))
            try project.write("assets/launch/text.png", Image.solid(width: 120, height: 30, ink: [20, 10, 5, 220]).pngData())
        }
        defer { project.destroy() }
        #expect(!plain.contains { $0["pixels"] != nil }, "pixels are decoded only when asked for")

        let result = try MCPackBinary.run(["diff", "1.0.0", "1.1.0", "--pixels", "--json"], in: project.root)
        #expect(result.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let changes = json["changes"] as? [[String: Any]] ?? []
        func pixels(_ path: String) -> [String: Any]? {
            changes.first { $0["path"] as? String == path }?["pixels"] as? [String: Any]
        }
        let recoloured = try #require(pixels("data/" + AssetCatalog.categoryImagePath(2)))
        #expect(recoloured["old_size"] as? String == "32x32" && recoloured["new_size"] as? String == "32x32")
        #expect((recoloured["changed_fraction"] as? Double ?? 0) > 0.99)
        let resaved = try #require(pixels("data/" + AssetCatalog.categoryImagePath(3)))
        #expect(resaved["changed_fraction"] as? Double == 0)
        let resized = try #require(pixels("data/\(AssetCatalog.launchSet(AssetCatalog.launchText))/LaunchText@3x.png"))
        #expect(resized["old_size"] as? String == "90x30" && resized["new_size"] as? String == "120x30")
        #expect(resized["changed_fraction"] == nil)

        let text = try MCPackBinary.run(["diff", "1.0.0", "1.1.0", "--pixels"], in: project.root)
        #expect(text.stdout.contains("data/" + AssetCatalog.categoryImagePath(3)) && text.stdout.contains("32x32, other bytes, the same pixels"))
        #expect(text.stdout.contains("size 90x30 -> 120x30"))
    }

    @Test func htmlHighlightsTextAndShowsChangedIcons() throws {
        let (_, _, project) = try Self.diffAfter(images: true) { project in
            try project.edit("assets/clauses.toml", "Also still law.", "Also still <b>law</b>.")
            try project.write("assets/icon/AppIcon-1024.png", Image.noise(width: 1024, height: 1024, bands: 3, seed: 98).pngData())
        }
        defer { project.destroy() }
        let result = try MCPackBinary.run(["diff", "1.0.0", "1.1.0", "--html", "changes.html"], in: project.root)
        #expect(result.status == 1)
        let page = try project.read("changes.html")
        #expect(page.contains("Also still <del>law.</del> <ins>&lt;b&gt;law&lt;/b&gt;.</ins>"))
        // The clauses' text rows under the heading and column their input names.
        #expect(page.contains("<h2>Clauses</h2>\n<table>\n<tr><th>clause</th><th>field</th><th>change</th></tr>\n<tr><td>40</td>"), "\(page)")
        #expect(page.contains("<h2>Pictures</h2>"))
        #expect(page.contains("<code>data/\(AssetCatalog.appIconSet)/AppIcon.png</code>"))
        #expect(page.contains("<figcaption>before, 1024 x 1024 px</figcaption>") && page.contains("<figcaption>after, 1024 x 1024 px</figcaption>"))
    }

    @Test func identicalBuildsSayIdentical() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["build", "--output", "a"], in: project.root).status == 0)
        #expect(try MCPackBinary.run(["build", "--output", "b"], in: project.root).status == 0)
        let result = try MCPackBinary.run(["diff", "a/test-bundle-1.0.0.zip", "b/test-bundle-1.0.0.zip"], in: project.root)
        #expect(result.status == 0)
        #expect(result.stdout == "identical\n")
        let json = try MCPackBinary.run(["diff", "a/test-bundle-1.0.0.zip", "b/test-bundle-1.0.0.zip", "--json", "--verify"], in: project.root)
        #expect(json.status == 0)
        #expect(json.stdout.contains("\"identical\" : true"))
    }

    @Test func unknownVersionListsTheVersionsFound() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        let result = try MCPackBinary.run(["diff", "1.0.0", "2.0.0"], in: project.root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("no archive of version 2.0.0 in dist; versions found: 1.0.0"))
    }

    @Test func aDamagedArchiveIsRefusedWithVerify() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        var data = try Data(contentsOf: project.url("dist/test-bundle-1.0.0.zip"))
        data[data.count / 2] ^= 0xFF
        try data.write(to: project.url("damaged.zip"))
        let result = try MCPackBinary.run(["diff", "dist/test-bundle-1.0.0.zip", "damaged.zip", "--verify"], in: project.root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("damaged.zip: does not verify"))
    }
}
