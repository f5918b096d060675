import Foundation
import MCPackSchema
import FileIO
import Hashing
import Imaging
@testable import MCPackKit
import Testing

/// The tile pyramid, the app icons and the launch layers, checked in the
/// archive a real build writes.
@Suite struct ImageTests {
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

    @Test func iconsHaveTheSizesContentsJsonClaims() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try archiveContents(project.url("dist/test-bundle-1.0.0.zip"))
        let set = top + "icons/AppIcon.appiconset/"
        let contentsData = try #require(files[set + "Contents.json"])
        let contents = try #require(try JSONSerialization.jsonObject(with: contentsData) as? [String: Any])
        let images = try #require(contents["images"] as? [[String: String]])
        #expect(images.count == 10)  // 9 iPad slots and the store icon
        #expect(Set(images.compactMap { $0["idiom"] }) == ["ipad", "ios-marketing"])
        for entry in images {
            let points = Double(entry["size"]!.split(separator: "x")[0])!
            let scale = Double(entry["scale"]!.dropLast())!
            let image = try Image(data: try #require(files[set + entry["filename"]!], "missing \(entry["filename"]!)"))
            #expect(image.width == Int((points * scale).rounded()) && image.height == image.width, "\(entry)")
            #expect(image.format == "png")
            if entry["idiom"] == "ios-marketing" { #expect(!image.hasAlpha, "the store icon has alpha") }
        }
        let pngs = files.keys.filter { $0.hasPrefix(set) && $0.hasSuffix(".png") }
        #expect(Set(pngs) == Set(images.map { set + $0["filename"]! }))
    }

    @Test func launchLayersHaveTheirStatedSizes() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try archiveContents(project.url("dist/test-bundle-1.0.0.zip"))
        for screen in LaunchInput.allScreens {
            for folder in ["screens", "preview"] {
                let path = top + "launch/\(folder)/\(screen.width)x\(screen.height).png"
                let image = try Image(data: try #require(files[path], "missing \(path)"))
                #expect(image.width == screen.width && image.height == screen.height, "\(path)")
            }
        }
        #expect(LaunchInput.allScreens.count == 14)
        let textSet = top + "launch/Launch.xcassets/LaunchText.imageset/"
        for (name, width, height) in [("LaunchText.png", 30, 10), ("LaunchText@2x.png", 60, 20), ("LaunchText@3x.png", 90, 30)] {
            let image = try Image(data: try #require(files[textSet + name], "missing \(name)"))
            #expect(image.width == width && image.height == height && image.hasAlpha, "\(name)")
        }
        let storyboard = String(decoding: try #require(files[top + "launch/LaunchScreen.storyboard"]), as: UTF8.self)
        #expect(storyboard.contains(#"image="LaunchBackground""#) && storyboard.contains(#"contentMode="scaleAspectFill""#))
        #expect(storyboard.contains(#"<image name="LaunchText" width="30" height="10"/>"#))
        #expect(storyboard.contains(#"firstAttribute="centerX""#))
    }

    /// A square background is resized once per screen size and both
    /// orientations are cut from it; each must be exactly the cover that
    /// resizing for that screen alone gives, enlarged or reduced.
    @Test(arguments: [240, 3001])
    func aSquareBackgroundCoversEachScreenAsAlone(side: Int) throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        let background = try Image.noise(width: side, height: side, bands: 3, seed: 9).pngData()
        try project.write("assets/launch/background.png", background)
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try archiveContents(project.url("dist/test-bundle-1.0.0.zip"))
        let source = try Image(data: background).srgb()
        for screen in LaunchInput.allScreens {
            let path = top + "launch/screens/\(screen.width)x\(screen.height).png"
            let made = try Image(data: try #require(files[path], "missing \(path)"))
            let alone = try source.resized(width: screen.width, height: screen.height, crop: true)
            #expect(try made.pixelDifference(to: alone).identical, "\(path)")
        }
    }

    @Test func imageBuildsAreReproducibleFromAColdCache() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["build", "--output", "a"], in: project.root).status == 0)
        try FileManager.default.removeItem(at: project.url(".mcpack-cache"))
        #expect(try MCPackBinary.run(["build", "--output", "b"], in: project.root).status == 0)
        #expect(try Data(contentsOf: project.url("a/test-bundle-1.0.0.zip")) == Data(contentsOf: project.url("b/test-bundle-1.0.0.zip")))
    }

    /// A cold build leaves no second copy of the tiles in the work cache:
    /// the archive is their one copy, and the next build copies from it.
    @Test func theArchiveIsTheTilesOnlyCopy() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        let tiles = project.url(".mcpack-cache/tiles")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: tiles.path)) ?? []
        #expect(left.isEmpty, "tile cache entries left beside the archive: \(left)")
    }

    /// Two damaged sources (a tile of the previous archive and a file of
    /// the icons' cache entry) are both made again, one after the other,
    /// and the archive is still the cold build's.
    @Test func twoDamagedSourcesAreBothRemade() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["build", "--output", "cold"], in: project.root).status == 0)
        let cold = try Data(contentsOf: project.url("cold/test-bundle-1.0.0.zip"))
        try FileManager.default.createDirectory(at: project.url("dist"), withIntermediateDirectories: true)
        try PreviousArchiveTests.damage(project.url("cold/test-bundle-1.0.0.zip"), to: project.url("dist/test-bundle-0.9.0.zip"), how: "retile")
        try FileManager.default.removeItem(at: project.url("cold"))
        let icons = try #require(try FileManager.default.contentsOfDirectory(atPath: project.url(".mcpack-cache/icons").path).first { !$0.hasPrefix(".") })
        let folder = project.url(".mcpack-cache/icons/\(icons)/files")
        let first = try #require(try FileSystem.regularFiles(under: folder).sorted().first)
        var bytes = try Data(contentsOf: folder.appendingPathComponent(first))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: folder.appendingPathComponent(first))
        let warm = try MCPackBinary.run(["build"], in: project.root)
        #expect(warm.status == 0, "\(warm.stderr)")
        #expect(warm.stderr.contains("(first: \(first))"), "\(warm.stderr)")
        #expect(warm.stderr.contains("test-bundle-0.9.0.zip: data/document/master_files/"), "\(warm.stderr)")
        #expect(try Data(contentsOf: project.url("dist/test-bundle-1.0.0.zip")) == cold)
    }

    struct IconCase: Sendable, CustomTestStringConvertible {
        var name: String
        var master: @Sendable () throws -> Data
        var expect: String
        var testDescription: String { name }
    }

    static let iconCases: [IconCase] = [
        IconCase(name: "not a PNG", master: { try Image.solid(width: 1024, height: 1024, ink: [1, 2, 3]).jpegData() },
                 expect: "assets/icon/AppIcon-1024.png: is jpeg data, not PNG"),
        IconCase(name: "not square", master: { try Image.solid(width: 1024, height: 1000, ink: [1, 2, 3]).pngData() },
                 expect: "assets/icon/AppIcon-1024.png: is 1024 x 1000 px, not square"),
        IconCase(name: "not 1024", master: { try Image.solid(width: 512, height: 512, ink: [1, 2, 3]).pngData() },
                 expect: "assets/icon/AppIcon-1024.png: is 512 x 512 px; the icon master must be exactly 1024 x 1024"),
        IconCase(name: "alpha channel", master: { try Image.solid(width: 1024, height: 1024, ink: [1, 2, 3, 128]).pngData() },
                 expect: "has an alpha channel; the App Store rejects an icon with transparency (ITMS-90717). Remove it, or set [icon] background = \"#RRGGBB\""),
    ]

    @Test(arguments: iconCases)
    func badIconMasterIsRefused(_ testCase: IconCase) throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        try project.write("assets/icon/AppIcon-1024.png", testCase.master())
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2)
        #expect(result.stderr.contains(testCase.expect), "\(result.stderr)")
        #expect(project.outputFiles().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: project.url(".mcpack-cache").path), "work started before every input was checked")
    }

    @Test func alphaMasterIsFlattenedWhenAskedTo() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        try project.write("assets/icon/AppIcon-1024.png", Image.solid(width: 1024, height: 1024, ink: [200, 0, 0, 0]).pngData())
        try project.edit("bundle.toml", #"idioms = ["ipad", "ios-marketing"]"#, "idioms = [\"ios-marketing\"]\nbackground = \"#00FF00\"")
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try archiveContents(project.url("dist/test-bundle-1.0.0.zip"))
        let icon = try Image(data: try #require(files[top + "icons/AppIcon.appiconset/AppIcon-1024@1x.png"]))
        #expect(!icon.hasAlpha)
    }

    @Test func textLayerWithoutAlphaIsRefused() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        try project.write("assets/launch/text.png", Image.solid(width: 90, height: 30, ink: [1, 2, 3]).pngData())
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("assets/launch/text.png: has no alpha channel"))
    }
}
