import Foundation
import MCPackReader
import MCPackSchema
import Testing

/// Opening a bundle, the clause under a finger, and the menu's filters.
@Suite struct BundleTests {
    @Test(arguments: ["dz", "iiif3"])
    func aBundleOpensWithItsRecords(layout: String) async throws {
        let fixture = try await (layout == "dz" ? ReaderFixture.deepZoom : ReaderFixture.iiif).value
        let bundle = try fixture.open()
        #expect(bundle.name == "reader-test")
        #expect(bundle.version == "1.0.0")
        #expect(bundle.title == "Reader Test")
        #expect(bundle.document.size == PixelSize(width: ReaderFixture.width, height: ReaderFixture.height))
        #expect(bundle.document.kind == (layout == "dz" ? .deepZoom : .iiif))
        #expect(bundle.clauses.map(\.id) == ["39", "40", "1"])
        #expect(bundle.categories.map(\.name) == ["Key Clauses", "Justice", "All", "Hide Overlays"])
        #expect(FileManager.default.fileExists(atPath: bundle.iconURL(for: bundle.categories[1]).path))
        #expect(bundle.iconURL(for: bundle.categories[1]).path.hasSuffix("data/" + AssetCatalog.categoryImagePath(bundle.categories[1].icon)))
        // Every tile of every level is where the reader looks for it.
        for level in bundle.document.levels {
            for column in 0..<level.columns {
                for row in 0..<level.rows {
                    let tile = bundle.document.tile(level: level, column: column, row: row)
                    #expect(FileManager.default.fileExists(atPath: tile.url.path), "\(tile.url.path)")
                }
            }
        }
    }

    @Test func aFolderThatIsNotABagIsNamedInTheError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-reader-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = #expect(throws: KioskBundleError.self) { try KioskBundle(folder: folder) }
        #expect(error?.path == "data/bundle.json")
        #expect(error?.description.hasPrefix("data/bundle.json: not found in ") == true)

        try Data("{\"bundle\": {\"name\": \"x\"}}".utf8).write(to: folder.appendingPathComponent("data/bundle.json"))
        let malformed = #expect(throws: KioskBundleError.self) { try KioskBundle(folder: folder) }
        #expect(malformed?.description == "data/bundle.json: bundle.version is missing")
    }

    @Test func aDamagedDescriptorIsNamed() async throws {
        let fixture = try await ReaderFixture.deepZoom.value
        let copy = try fixture.copy()
        try Data("<Image/>".utf8).write(to: copy.appendingPathComponent("data/document/master.dzi"))
        let error = #expect(throws: KioskBundleError.self) { try KioskBundle(folder: copy) }
        #expect(error?.path == "data/document/master.dzi")
    }

    /// Each overlay's four corner pixels and centre hit its clause; the
    /// pixels just outside do not (a rectangle holds its left and top
    /// edges, not its right and bottom ones).
    @Test func everyCornerAndCentreHitsItsClause() async throws {
        let bundle = try await ReaderFixture.deepZoom.value.open()
        for clause in bundle.clauses {
            for r in clause.overlays {
                let (x0, y0, x1, y1) = (Double(r.x), Double(r.y), Double(r.x + r.width), Double(r.y + r.height))
                let inside = [(x0, y0), (x1 - 0.5, y0), (x0, y1 - 0.5), (x1 - 0.5, y1 - 0.5), ((x0 + x1) / 2, (y0 + y1) / 2)]
                for (x, y) in inside {
                    #expect(bundle.clauses(at: CGPoint(x: x, y: y)).contains { $0.id == clause.id }, "clause \(clause.id) at \(x), \(y)")
                }
                let outside = [(x0 - 0.5, y0), (x1, y0), (x0, y1), (x1, y1), (x0, y0 - 0.5)]
                for (x, y) in outside {
                    #expect(!bundle.clauses(at: CGPoint(x: x, y: y)).contains { $0.id == clause.id }, "clause \(clause.id) at \(x), \(y)")
                }
            }
        }
        #expect(bundle.clauses(at: CGPoint(x: 900, y: 400)).isEmpty)
    }

    @Test func overlappingClausesComeTopmostFirst() async throws {
        let bundle = try await ReaderFixture.deepZoom.value.open()
        // 39's [100, 100, 300, 50] and 40's [350, 120, 200, 60] share 350...400 x 120...150.
        #expect(bundle.clauses(at: CGPoint(x: 375, y: 130)).map(\.id) == ["40", "39"])
        #expect(bundle.clauses(at: CGPoint(x: 200, y: 130)).map(\.id) == ["39"])
        #expect(bundle.clauses(at: CGPoint(x: 500, y: 170)).map(\.id) == ["40"])
        // The clause's second rectangle.
        #expect(bundle.clauses(at: CGPoint(x: 600, y: 620)).map(\.id) == ["39"])
    }

    @Test func theMenusFiltersChooseWhatCanBeHit() async throws {
        let bundle = try await ReaderFixture.deepZoom.value.open()
        let menu = Dictionary(uniqueKeysWithValues: bundle.categories.map { ($0.name, $0) })
        let overlap = CGPoint(x: 375, y: 130)
        #expect(bundle.clauses(at: overlap, showing: menu["Key Clauses"]).map(\.id) == ["39"])
        #expect(bundle.clauses(at: overlap, showing: menu["Justice"]).map(\.id) == ["40", "39"])
        #expect(bundle.clauses(at: overlap, showing: menu["All"]).map(\.id) == ["40", "39"])
        #expect(bundle.clauses(at: overlap, showing: menu["Hide Overlays"]).isEmpty)
        #expect(bundle.clauses(at: CGPoint(x: 10, y: 10), showing: menu["Justice"]).isEmpty)
        #expect(bundle.clauses(at: CGPoint(x: 10, y: 10), showing: menu["Key Clauses"]).map(\.id) == ["1"])
        #expect(bundle.clauses(showing: menu["Key Clauses"]).map(\.id) == ["39", "1"])
        #expect(bundle.clauses(showing: menu["Justice"]).map(\.id) == ["39", "40"])
        #expect(bundle.clauses(showing: nil).count == 3)
        #expect(bundle.clauses(showing: menu["Hide Overlays"]).isEmpty)
    }

    /// What the SwiftUI view compares to know it was handed a new bundle:
    /// the same bag opened twice (or named with a trailing slash, or
    /// through a symbolic link) is the same bundle; a copy in another
    /// folder, or a new version in the same one, is not.
    @Test func aBundlesIdentityIsItsFolderNameAndVersion() async throws {
        let fixture = try await ReaderFixture.deepZoom.value
        let bundle = try fixture.open()
        #expect(bundle.identity == (try fixture.open()).identity)
        #expect(bundle.identity.name == "reader-test" && bundle.identity.version == "1.0.0")
        let slashed = try KioskBundle(folder: URL(fileURLWithPath: fixture.bag.path + "/", isDirectory: true))
        #expect(slashed.identity == bundle.identity)
        let link = fixture.root.appendingPathComponent("link-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: fixture.bag)
        #expect(try KioskBundle(folder: link).identity == bundle.identity)

        let copy = try fixture.copy()
        let copied = try KioskBundle(folder: copy)
        #expect(copied.identity != bundle.identity)
        #expect(copied.identity.folder == copy.standardizedFileURL.resolvingSymlinksInPath().path)
        // An update unpacked over the copy: a new version in the same folder.
        let file = copy.appendingPathComponent("data/bundle.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var head = try #require(json["bundle"] as? [String: Any])
        head["version"] = "1.0.1"
        json["bundle"] = head
        try JSONSerialization.data(withJSONObject: json).write(to: file)
        let updated = try KioskBundle(folder: copy)
        #expect(updated.version == "1.0.1")
        #expect(updated.identity != copied.identity)
        #expect(updated.identity.folder == copied.identity.folder)
        #expect(Set([bundle.identity, slashed.identity, copied.identity, updated.identity]).count == 3)
    }
}
