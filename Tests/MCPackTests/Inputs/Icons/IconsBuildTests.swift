import Foundation
import Hashing
import Imaging
import ImagingTestSupport
@testable import MCPackInputs
import MCPackSchema
import Testing

/// The app icon in the archive a real build writes: the catalog's sets,
/// Icon Composer documents, and the masters a designer hands over.
@Suite struct IconsBuildTests {
    let top = "test-bundle-1.0.0/data/"

    /// The catalog's app icon set as a build writes it: its Contents.json
    /// decoded, and its files by name.
    func iconSet(_ files: [String: Data]) throws -> (contents: AssetCatalogContents, pngs: Set<String>) {
        let set = top + AssetCatalog.appIconSet + "/"
        let contents = try JSONDecoder().decode(AssetCatalogContents.self, from: try #require(files[set + "Contents.json"]))
        let pngs = Set(files.keys.filter { $0.hasPrefix(set) && $0.hasSuffix(".png") }.map { String($0.dropFirst(set.count)) })
        return (contents, pngs)
    }

    @Test func theDefaultIconIsTheSingleSizeEntryAlone() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try archiveContents(project.url("dist/test-bundle-1.0.0.zip"))
        let (contents, pngs) = try iconSet(files)
        #expect(contents.images == [AssetCatalogContents.Image(filename: "AppIcon.png", idiom: "universal", platform: "ios", size: "1024x1024")])
        #expect(pngs == ["AppIcon.png"])
        let icon = try Image(data: try #require(files[top + AssetCatalog.appIconSet + "/AppIcon.png"]))
        #expect(icon.width == 1024 && icon.height == 1024 && !icon.hasAlpha && icon.format == "png")

        // The Info.plist keys the catalog and the storyboard need, read by
        // Foundation's property list parser.
        let fragment = try #require(files[top + "app/Info-fragment.plist"])
        let plist = try #require(try PropertyListSerialization.propertyList(from: fragment, format: nil) as? [String: Any])
        #expect(plist["CFBundleIconName"] as? String == AssetCatalog.appIconName)
        #expect(plist["UILaunchStoryboardName"] as? String == AssetCatalog.launchStoryboardName)
        #expect(files[top + "launch/\(AssetCatalog.launchStoryboardName).storyboard"] != nil)
        // The generated source and the catalog name the category icons alike.
        let source = String(decoding: try #require(files[top + "app/ClauseData.swift"]), as: UTF8.self)
        for number in 1...3 {
            #expect(source.contains("imageName: \"Category\(number)\""))
            #expect(files[top + AssetCatalog.categoryImagePath(number)] != nil)
        }
        #expect(files[top + AssetCatalog.folder + "/Contents.json"] == JSON.encode(AssetCatalogContents.folder))
        #expect(!files.keys.contains { $0.hasPrefix(top + "icons/") || $0.hasPrefix(top + "categories/") || $0.contains("Launch.xcassets") },
                "the separate folders are gone")
    }

    @Test func darkAndTintedMastersGiveTheirEntriesAndATintedOneComesOutGrey() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        // A dark master may keep its transparency; the tinted one is coloured
        // on purpose, to be made grey.
        try project.write("assets/icon/dark.png", Image.solid(width: 1024, height: 1024, ink: [30, 200, 90, 128]).pngData())
        try project.write("assets/icon/tinted.png", Image.noise(width: 1024, height: 1024, bands: 3, seed: 5).pngData())
        try project.edit("bundle.toml", #"master = "assets/icon/AppIcon-1024.png""#,
                         "master = \"assets/icon/AppIcon-1024.png\"\ndark = \"assets/icon/dark.png\"\ntinted = \"assets/icon/tinted.png\"")
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try archiveContents(project.url("dist/test-bundle-1.0.0.zip"))
        let (contents, pngs) = try iconSet(files)
        #expect(contents.images == [
            AssetCatalogContents.Image(filename: "AppIcon.png", idiom: "universal", platform: "ios", size: "1024x1024"),
            AssetCatalogContents.Image(appearances: [.dark], filename: "AppIcon-dark.png", idiom: "universal", platform: "ios", size: "1024x1024"),
            AssetCatalogContents.Image(appearances: [.tinted], filename: "AppIcon-tinted.png", idiom: "universal", platform: "ios", size: "1024x1024"),
        ])
        #expect(pngs == ["AppIcon.png", "AppIcon-dark.png", "AppIcon-tinted.png"])
        let dark = try Image(data: try #require(files[top + AssetCatalog.appIconSet + "/AppIcon-dark.png"]))
        #expect(dark.hasAlpha && dark.bands == 4)
        let tinted = try Image(data: try #require(files[top + AssetCatalog.appIconSet + "/AppIcon-tinted.png"]))
        #expect(tinted.bands == 1 && tinted.pictureFacts.interpretation == "b-w" && tinted.width == 1024)
        let json = String(decoding: try #require(files[top + "bundle.json"]), as: UTF8.self)
        #expect(json.contains(IconsInput.madeGrey), "the record does not say the tinted icon was made grey")
        let verify = try MCPackBinary.run(["verify", "dist/test-bundle-1.0.0.zip"], in: project.root)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    /// `sizes = "all"` writes Xcode's "All Sizes" set for iOS (IconSlot):
    /// universal iOS entries, every file its size, none with alpha, and
    /// verify takes it; `idioms` is read only to warn that nothing uses it.
    @Test func allSizesGiveXcodesUniversalIOSIconSet() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        try project.edit("bundle.toml", #"master = "assets/icon/AppIcon-1024.png""#,
                         "master = \"assets/icon/AppIcon-1024.png\"\nsizes = \"all\"\nidioms = [\"iphone\", \"ipad\", \"ios-marketing\"]")
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("icon.idioms") && result.stderr.contains("is no longer used"), "\(result.stderr)")
        let files = try archiveContents(project.url("dist/test-bundle-1.0.0.zip"))
        let (contents, pngs) = try iconSet(files)
        let images = try #require(contents.images)
        #expect(images == IconSlot.allSizes.map(\.entry))
        #expect(images.count == 16 && images.allSatisfy { $0.idiom == "universal" && $0.platform == "ios" })
        for entry in images {
            let points = Double(entry.size!.split(separator: "x")[0])!
            let scale = Double(entry.scale?.dropLast() ?? "1")!
            let image = try Image(data: try #require(files[top + AssetCatalog.appIconSet + "/" + entry.filename!], "missing \(entry.filename!)"))
            #expect(image.width == Int((points * scale).rounded()) && image.height == image.width, "\(entry)")
            #expect(!image.hasAlpha)
        }
        #expect(pngs == Set(images.compactMap(\.filename)))
        let verify = try MCPackBinary.run(["verify", "dist/test-bundle-1.0.0.zip"], in: project.root)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    /// verify reads the catalog as Xcode would: in a bag whose manifests
    /// are made again after the change (so that only the catalog's rules
    /// can object), a wrong-sized icon and a named file that is missing are
    /// each found.
    @Test func verifyCatchesAWrongSizedAndAMissingCatalogFile() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        let data = try ColourTests.unpack(project)
        try Image.solid(width: 512, height: 512, ink: [10, 20, 30]).pngData()
            .write(to: data.appendingPathComponent(AssetCatalog.appIconSet + "/AppIcon.png"))
        try FileManager.default.removeItem(at: data.appendingPathComponent(AssetCatalog.categoryImagePath(2)))
        let bag = data.deletingLastPathComponent()
        try Self.remakeManifests(bag)
        let result = try MCPackBinary.run(["verify", bag.path, "--json"], in: project.root)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let problems = (json["problems"] as? [[String: Any]] ?? []).map { "\($0["path"] ?? ""): \($0["rule"] ?? "")" }
        #expect(problems.contains("data/\(AssetCatalog.appIconSet)/AppIcon.png: catalog-sizes"), "\(problems)")
        #expect(problems.contains("data/\(AssetCatalog.categoriesFolder)/Category2.imageset/Contents.json: catalog-contents"), "\(problems)")
        #expect(!problems.contains { $0.hasSuffix(": fixity") || $0.hasSuffix(": payload-oxum") }, "the manifests were made again: \(problems)")
    }

    /// manifest-sha256.txt, Payload-Oxum and tagmanifest-sha256.txt made
    /// again for the files a bag folder holds now, as a tool that re-bags
    /// a changed folder does.
    static func remakeManifests(_ bag: URL) throws {
        func text(_ name: String) throws -> String { try String(contentsOf: bag.appendingPathComponent(name), encoding: .utf8) }
        var bytes = 0
        var lines: [String] = []
        for line in try text("manifest-sha256.txt").split(separator: "\n") {
            let path = String(line.split(separator: " ", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces)
            guard let data = FileManager.default.contents(atPath: bag.appendingPathComponent(path).path) else { continue }
            bytes += data.count
            lines.append("\(Digest.hex(data))  \(path)")
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: bag.appendingPathComponent("manifest-sha256.txt"))
        let info = try text("bag-info.txt").replacingOccurrences(of: #"Payload-Oxum: [0-9.]+"#, with: "Payload-Oxum: \(bytes).\(lines.count)",
                                                                  options: .regularExpression)
        try Data(info.utf8).write(to: bag.appendingPathComponent("bag-info.txt"))
        let tags = try text("tagmanifest-sha256.txt").split(separator: "\n").map { line in
            let path = String(line.split(separator: " ", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces)
            return "\(Digest.hex(try Data(contentsOf: bag.appendingPathComponent(path))))  \(path)"
        }
        try Data((tags.joined(separator: "\n") + "\n").utf8).write(to: bag.appendingPathComponent("tagmanifest-sha256.txt"))
    }

    /// dark or tinted with sizes = "all" is a located error; idioms, which
    /// no set uses any more, a located warning.
    @Test func darkOrTintedWithAllSizesIsALocatedErrorAndIdiomsAWarning() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        try project.write("assets/icon/dark.png", Image.solid(width: 1024, height: 1024, ink: [30, 200, 90]).pngData())
        try project.edit("bundle.toml", #"master = "assets/icon/AppIcon-1024.png""#,
                         "master = \"assets/icon/AppIcon-1024.png\"\nsizes = \"all\"\ndark = \"assets/icon/dark.png\"")
        var result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("bundle.toml:") && result.stderr.contains("icon.dark") && result.stderr.contains("needs the single-size icon"), "\(result.stderr)")
        try project.edit("bundle.toml", "sizes = \"all\"\ndark = \"assets/icon/dark.png\"", "idioms = [\"ipad\"]")
        result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("icon.idioms") && result.stderr.contains("is no longer used"), "\(result.stderr)")
    }

    @Test func aTintedMasterWithAlphaOrTheWrongSizeIsRefusedAsTheDefaultIs() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        try project.edit("bundle.toml", #"master = "assets/icon/AppIcon-1024.png""#,
                         "master = \"assets/icon/AppIcon-1024.png\"\ntinted = \"assets/icon/tinted.png\"")
        try project.write("assets/icon/tinted.png", Image.solid(width: 1024, height: 1024, ink: [30, 30, 30, 100]).pngData())
        var result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("assets/icon/tinted.png: has transparency (alpha below fully opaque); the tinted icon must be opaque"), "\(result.stderr)")
        try project.write("assets/icon/tinted.png", Image.solid(width: 512, height: 512, ink: [30, 30, 30]).pngData())
        result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("assets/icon/tinted.png: is 512 x 512 px; the tinted icon master must be exactly 1024 x 1024"), "\(result.stderr)")
        #expect(project.outputFiles().isEmpty)
    }

    /// An Icon Composer document's icon.json in the shape Icon Composer
    /// writes (as github.com/e-marchand/TestAppIcon,
    /// TestAppIcon/AppIcon.icon/icon.json), with a PNG and an SVG layer.
    static func composerJSON(_ images: [String], platforms: String = #"{ "circles" : [ "watchOS" ], "squares" : "shared" }"#) -> String {
        let layers = images.enumerated().map { index, image in
            #"{ "blend-mode" : "normal", "glass" : true, "image-name" : "\#(image)", "name" : "layer\#(index)", "opacity" : 1 }"#
        }.joined(separator: ", ")
        return #"{ "fill" : { "automatic-gradient" : "display-p3:0.89106,0.42105,0.27834,1.00000" }, "#
            + #""groups" : [ { "hidden" : false, "layers" : [ \#(layers) ], "name" : "Group", "specular" : true } ], "#
            + #""supported-platforms" : "# + platforms + " }"
    }

    static func writeComposer(_ project: TestProject, name: String = "AppIcon.icon", images: [String] = ["seal.png", "ring.svg"],
                              present: [String] = ["seal.png", "ring.svg"], platforms: String? = nil) throws {
        let folder = "assets/icon/\(name)"
        try project.write("\(folder)/icon.json", platforms.map { composerJSON(images, platforms: $0) } ?? composerJSON(images))
        for image in present {
            let data = image.hasSuffix(".svg")
                ? Data(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1024 1024"><circle cx="512" cy="512" r="400"/></svg>"#.utf8)
                : try Image.solid(width: 1024, height: 1024, ink: [200, 40, 40, 255]).pngData()
            try project.write("\(folder)/Assets/\(image)", data)
        }
        try project.edit("bundle.toml", #"master = "assets/icon/AppIcon-1024.png""#,
                         "master = \"assets/icon/AppIcon-1024.png\"\ncomposer = \"\(folder)\"")
    }

    @Test func anIconComposerDocumentGoesBesideTheCatalogAsItIs() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        try Self.writeComposer(project)
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try archiveContents(project.url("dist/test-bundle-1.0.0.zip"))
        let folder = top + IconComposer.bundleFolder + "/"
        #expect(files[folder + "icon.json"] == Data(Self.composerJSON(["seal.png", "ring.svg"]).utf8), "icon.json is shipped as it is")
        #expect(files[folder + "Assets/seal.png"] != nil && files[folder + "Assets/ring.svg"] != nil)
        let fragment = try #require(files[top + "app/Info-fragment.plist"])
        let plist = try #require(try PropertyListSerialization.propertyList(from: fragment, format: nil) as? [String: Any])
        #expect(plist["CFBundleIconName"] as? String == "AppIcon")
        let json = String(decoding: try #require(files[top + "bundle.json"]), as: UTF8.self)
        #expect(json.contains(#""document" : "assets/icon/AppIcon.icon""#), "\(json)")
        let verify = try MCPackBinary.run(["verify", "dist/test-bundle-1.0.0.zip"], in: project.root)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test func anIconComposerDocumentWithAMissingLayerIsRefusedNamingIt() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        try Self.writeComposer(project, present: ["seal.png"])
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2)
        #expect(result.stderr.contains(#"assets/icon/AppIcon.icon/icon.json: groups[0].layers[1] (layer "layer1") names the picture "ring.svg", which is not in assets/icon/AppIcon.icon/Assets/"#),
                "\(result.stderr)")
        #expect(project.outputFiles().isEmpty)
    }

    /// A document for macOS and watchOS only (Icon Composer's
    /// `"squares" : [ "macOS" ]`, as in github.com/Marginal/QLVideo's
    /// AppIcon.icon) draws no iOS icon: refused, naming the platforms.
    @Test func anIconComposerDocumentWithoutIOSIsRefusedNamingItsPlatforms() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        try Self.writeComposer(project, platforms: #"{ "circles" : [ "watchOS" ], "squares" : [ "macOS" ] }"#)
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("assets/icon/AppIcon.icon/icon.json: supported-platforms lists macOS (square icon) and watchOS (round icon), not iOS"),
                "\(result.stderr)")
        #expect(project.outputFiles().isEmpty)
    }

    @Test func anIconComposerDocumentOfAnotherNameIsRefused() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        try Self.writeComposer(project, name: "Seal.icon")
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("assets/icon/Seal.icon: is named Seal; it must be AppIcon.icon"), "\(result.stderr)")
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
                 expect: "has transparency (alpha below fully opaque); the App Store refuses an app icon that is transparent or has an alpha channel at all (ITMS-90717). Make it opaque, or set [icon] background = \"#RRGGBB\""),
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

    /// A master whose alpha band is opaque everywhere hides nothing: its
    /// band is dropped, no pixel changing, without a background to name,
    /// and the icon ships with no alpha channel (which App Store Connect
    /// refuses even when opaque, ITMS-90717). The tinted master's too.
    @Test func anOpaqueAlphaBandOnTheIconMasterIsDroppedNotRefused() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        let master = try Image.solid(width: 1024, height: 1024, ink: [200, 40, 10, 255])
        try project.write("assets/icon/AppIcon-1024.png", master.pngData())
        try project.write("assets/icon/tinted.png", Image.solid(width: 1024, height: 1024, ink: [90, 90, 90, 255]).pngData())
        try project.edit("bundle.toml", #"master = "assets/icon/AppIcon-1024.png""#,
                         "master = \"assets/icon/AppIcon-1024.png\"\ntinted = \"assets/icon/tinted.png\"")
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try archiveContents(project.url("dist/test-bundle-1.0.0.zip"))
        let icon = try Image(data: try #require(files[top + AssetCatalog.appIconSet + "/AppIcon.png"]))
        #expect(!icon.hasAlpha && icon.bands == 3)
        #expect(try icon.pixelDifference(to: master).largestDifference == 0)
        let tinted = try Image(data: try #require(files[top + AssetCatalog.appIconSet + "/AppIcon-tinted.png"]))
        #expect(!tinted.hasAlpha && tinted.bands == 1)
        let json = String(decoding: try #require(files[top + "bundle.json"]), as: UTF8.self)
        #expect(json.contains("alpha channel dropped: every pixel was opaque"), "\(json)")
        #expect(json.contains(#""flattened_onto" : null"#), "\(json)")
        let verify = try MCPackBinary.run(["verify", "dist/test-bundle-1.0.0.zip"], in: project.root)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test func alphaMasterIsFlattenedWhenAskedTo() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        try project.write("assets/icon/AppIcon-1024.png", Image.solid(width: 1024, height: 1024, ink: [200, 0, 0, 0]).pngData())
        try project.edit("bundle.toml", #"master = "assets/icon/AppIcon-1024.png""#, "master = \"assets/icon/AppIcon-1024.png\"\nbackground = \"#00FF00\"")
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try archiveContents(project.url("dist/test-bundle-1.0.0.zip"))
        let icon = try Image(data: try #require(files[top + AssetCatalog.appIconSet + "/AppIcon.png"]))
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
