import Foundation
import MCPackSchema
import Imaging
import ImagingTestSupport
import Testing

/// Pictures as photographers and designers hand them over (colour
/// profiles, CMYK, 16 bits, EXIF orientation, alpha, grey), made in code
/// from an sRGB original: what ships must show the original's colours.
@Suite struct ColourTests {
    /// A saturated red, inside both sRGB and the wide gamuts.
    static let colour: [Double] = [200, 40, 40]
    /// Mean absolute difference per channel allowed, out of 255: the
    /// profile round trip at 8 bits and the JPEG tiles' rounding.
    static let tolerance = 3.0
    /// Through CMYK the original cannot come back exactly: the print
    /// profile's inks and black generation do not invert to the same RGB.
    static let cmykTolerance = 6.0

    static let adobeRGB = "/usr/share/color/icc/compatibleWithAdobeRGB1998.icc"

    struct Delivery: Sendable, CustomTestStringConvertible {
        var name: String
        var file: String
        /// The master as delivered, from the 600 x 400 sRGB original.
        var make: @Sendable (Image) throws -> Image
        var keepMetadata = true
        /// What bundle.json must record of it.
        var colourSpace: String
        var profile: String?
        var bits = 8
        var assumed = false
        var tolerance = ColourTests.tolerance
        var testDescription: String { name }
    }

    static var deliveries: [Delivery] {
        var list = [
            Delivery(name: "Display P3 PNG", file: "master.png", make: { try $0.exported(toProfile: "p3") },
                     colourSpace: "srgb", profile: "P3"),
            Delivery(name: "CMYK JPEG with its profile", file: "master.jpg", make: { try $0.exported(toProfile: "cmyk") },
                     colourSpace: "cmyk", profile: "", tolerance: cmykTolerance),
            Delivery(name: "CMYK JPEG without a profile", file: "master.jpg", make: { try $0.exported(toProfile: "cmyk") },
                     keepMetadata: false, colourSpace: "cmyk", assumed: true, tolerance: cmykTolerance),
            Delivery(name: "16-bit PNG", file: "master.png", make: { try $0.sixteenBit() }, colourSpace: "rgb16", bits: 16),
            Delivery(name: "16-bit TIFF", file: "master.tif", make: { try $0.sixteenBit() }, colourSpace: "rgb16", bits: 16),
        ]
        #if os(Linux)
        // Debian's icc-profiles-free (make test installs it).
        list += [
            Delivery(name: "Adobe RGB PNG", file: "master.png", make: { try $0.exported(toProfile: adobeRGB) },
                     colourSpace: "srgb", profile: "Adobe"),
            Delivery(name: "Adobe RGB 16-bit TIFF", file: "master.tif", make: { try $0.exported(toProfile: adobeRGB, depth: 16) },
                     colourSpace: "rgb16", profile: "Adobe", bits: 16),
        ]
        #endif
        return list
    }

    /// Builds the test project with `master` as its master scan.
    static func build(_ master: Image, file: String, keepMetadata: Bool = true) throws -> (TestProject, RunResult) {
        let project = try TestProject.make()
        try project.remove("assets/document/master.png")
        let path = project.url("assets/document/\(file)").path
        if keepMetadata { try master.writeKeepingMetadata(to: path) } else { try master.write(to: path) }
        try project.edit("bundle.toml", "assets/document/master.png", "assets/document/\(file)")
        return (project, try MCPackBinary.run(["build"], in: project.root))
    }

    static func unpack(_ project: TestProject) throws -> URL {
        try project.unpacked().appendingPathComponent("data")
    }

    static func record(_ data: URL, _ component: String) throws -> [String: Any] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: data.appendingPathComponent("bundle.json"))) as? [String: Any]
        return try #require((json?["components"] as? [String: Any])?[component] as? [String: Any])
    }

    static func meanDifference(_ file: URL, _ expected: [Double]) throws -> Double {
        let means = try Image(contentsOf: file.path).srgb().bandMeans()
        return zip(means, expected).map { abs($0 - $1) }.reduce(0, +) / Double(expected.count)
    }

    @Test(arguments: deliveries) func theTilesShowTheOriginalColour(_ delivery: Delivery) throws {
        let original = try Image.solid(width: TestProject.masterWidth, height: TestProject.masterHeight, ink: Self.colour)
        let (project, result) = try Self.build(try delivery.make(original), file: delivery.file, keepMetadata: delivery.keepMetadata)
        defer { project.destroy() }
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Self.unpack(project)
        for tile in ["master_files/10/0_0.jpeg", "master_files/10/2_1.jpeg", "master_files/5/0_0.jpeg"] {
            let difference = try Self.meanDifference(data.appendingPathComponent("document/\(tile)"), Self.colour)
            #expect(difference <= delivery.tolerance, "\(tile): mean difference \(difference)")
        }
        let tile = try Image(contentsOf: data.appendingPathComponent("document/master_files/10/0_0.jpeg").path)
        #expect(tile.pictureFacts.interpretation == "srgb" && tile.pictureFacts.bits == 8 && tile.pictureFacts.profile == nil)

        let picture = try #require(try Self.record(data, "document")["picture"] as? [String: Any])
        #expect(picture["colour_space"] as? String == delivery.colourSpace)
        #expect(picture["bits"] as? Int == delivery.bits)
        #expect(picture["assumed_profile"] as? Bool == delivery.assumed)
        if let profile = delivery.profile {
            #expect(profile.isEmpty ? picture["profile"] is String : (picture["profile"] as? String)?.contains(profile) == true, "\(picture)")
        } else {
            #expect(picture["profile"] == nil)
        }
        #expect((picture["conversions"] as? [String])?.isEmpty == false)
    }

    /// EXIF orientations 3, 6 and 8: the file stores the picture turned;
    /// the build sees it upright (the overlays only fit it upright), and its
    /// tiles are the upright picture's, byte for byte.
    @Test(arguments: [(3, 2), (6, 3), (8, 1)]) func theOrientationIsApplied(_ orientation: Int, _ storedTurns: Int) throws {
        let upright = try Image.noise(width: TestProject.masterWidth, height: TestProject.masterHeight, bands: 3, seed: 7)
        let (reference, built) = try Self.build(upright, file: "master.tif")
        defer { reference.destroy() }
        #expect(built.status == 0, "\(built.stderr)")
        let stored = try upright.rotated(quarterTurns: storedTurns).tagged(orientation: orientation)
        let (project, result) = try Self.build(stored, file: "master.tif")
        defer { project.destroy() }
        #expect(result.status == 0, "\(result.stderr)")
        let want = try Self.unpack(reference)
        let got = try Self.unpack(project)
        for tile in ["master_files/10/0_0.jpeg", "master_files/10/2_1.jpeg", "master_files/8/0_0.jpeg"] {
            let a = try Data(contentsOf: want.appendingPathComponent("document/\(tile)"))
            let b = try Data(contentsOf: got.appendingPathComponent("document/\(tile)"))
            #expect(a == b, "\(tile) differs from the upright picture's")
        }
        let record = try Self.record(got, "document")
        #expect(record["width"] as? Int == TestProject.masterWidth && record["height"] as? Int == TestProject.masterHeight)
        #expect((record["picture"] as? [String: Any])?["orientation"] as? Int == orientation)
    }

    /// A size message names the orientation, so the user looks at the right picture.
    @Test func aTurnedMasterIsDescribedAsDisplayed() throws {
        // Stored 600 x 400 but displayed 400 x 600: the 530 px wide overlay no longer fits.
        let stored = try Image.noise(width: TestProject.masterWidth, height: TestProject.masterHeight, bands: 3, seed: 7).tagged(orientation: 6)
        let (project, result) = try Self.build(stored, file: "master.tif")
        defer { project.destroy() }
        #expect(result.status == 2)
        #expect(result.stderr.contains("outside the 400 x 600 master image as displayed; its file stores it turned a quarter, EXIF orientation 6"), "\(result.stderr)")
    }

    @Test func greyStaysGrey() throws {
        let grey = try Image.solid(width: TestProject.masterWidth, height: TestProject.masterHeight, ink: [90]).sixteenBit()
        let (project, result) = try Self.build(grey, file: "master.png")
        defer { project.destroy() }
        #expect(result.status == 0, "\(result.stderr)")
        let tile = try Image(contentsOf: try Self.unpack(project).appendingPathComponent("document/master_files/10/0_0.jpeg").path)
        #expect(tile.bands == 1)
        #expect(abs(try tile.bandMeans()[0] - 90) <= Self.tolerance)
    }

    @Test func alphaOnTheMasterIsFlattenedOntoTheBackground() throws {
        let master = try Image.solid(width: TestProject.masterWidth, height: TestProject.masterHeight, ink: [200, 40, 40, 0])
        let (project, result) = try Self.build(master, file: "master.png")
        defer { project.destroy() }
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Self.unpack(project)
        // Fully transparent: what shows is the default background, white.
        #expect(try Self.meanDifference(data.appendingPathComponent("document/master_files/10/0_0.jpeg"), [255, 255, 255]) <= Self.tolerance)
        let conversions = (try Self.record(data, "document")["picture"] as? [String: Any])?["conversions"] as? [String]
        #expect(conversions?.contains("alpha flattened onto #FFFFFF") == true, "\(conversions ?? [])")
    }

    @Test func alphaOnTheMasterIsRefusedWithFlatteningOff() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try Image.solid(width: TestProject.masterWidth, height: TestProject.masterHeight, ink: [200, 40, 40, 128])
            .write(to: project.url("assets/document/master.png").path)
        try project.edit("bundle.toml", "overlap = 1", "overlap = 1\nbackground = \"none\"")
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("assets/document/master.png: has an alpha channel") && result.stderr.contains("[document] background"), "\(result.stderr)")
        #expect(project.outputFiles().isEmpty)
    }

    @Test func aDamagedProfileIsRefusedByName() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        let path = project.url("assets/document/master.tif")
        try Image.solid(width: TestProject.masterWidth, height: TestProject.masterHeight, ink: Self.colour)
            .exported(toProfile: "p3").writeKeepingMetadata(to: path.path)
        // The profile's signature ("acsp", 36 bytes into it) is what marks it a profile.
        var bytes = try Data(contentsOf: path)
        let signature = try #require(bytes.firstRange(of: Data("acsp".utf8)))
        bytes.replaceSubrange(signature, with: Data("xxxx".utf8))
        try bytes.write(to: path)
        try project.remove("assets/document/master.png")
        try project.edit("bundle.toml", "assets/document/master.png", "assets/document/master.tif")
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("assets/document/master.tif: embeds an ICC colour profile that cannot be read"), "\(result.stderr)")
        #expect(project.outputFiles().isEmpty)
    }

    @Test func aColourSpaceWithNoConversionIsRefused() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        // Five bands: no colour space mcpack knows.
        try Image.solid(width: TestProject.masterWidth, height: TestProject.masterHeight, ink: [1, 2, 3, 4, 5])
            .write(to: project.url("assets/document/master.tif").path)
        try project.remove("assets/document/master.png")
        try project.edit("bundle.toml", "assets/document/master.png", "assets/document/master.tif")
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("with 5 channels, which mcpack cannot convert to sRGB"), "\(result.stderr)")
    }

    /// The icon sizes and launch images come out in the original's colours
    /// when the designer exported them in Display P3.
    @Test func iconsAndLaunchLayersAreConverted() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        try Image.solid(width: 1024, height: 1024, ink: Self.colour).exported(toProfile: "p3")
            .writeKeepingMetadata(to: project.url("assets/icon/AppIcon-1024.png").path)
        try Image.solid(width: 300, height: 200, ink: Self.colour).exported(toProfile: "p3")
            .writeKeepingMetadata(to: project.url("assets/launch/background.png").path)
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Self.unpack(project)
        for file in [AssetCatalog.appIconSet + "/AppIcon.png",
                     "launch/screens/1024x768.png", AssetCatalog.launchSet(AssetCatalog.launchBackground) + "/LaunchBackground.png"] {
            let difference = try Self.meanDifference(data.appendingPathComponent(file), Self.colour)
            #expect(difference <= Self.tolerance, "\(file): mean difference \(difference)")
        }
        #expect(((try Self.record(data, "icons")["picture"] as? [String: Any])?["profile"] as? String)?.contains("P3") == true)
        #expect(((try Self.record(data, "launch")["background_picture"] as? [String: Any])?["profile"] as? String)?.contains("P3") == true)
    }

    /// Pictures already 8-bit sRGB ship as before: category icons byte for byte.
    @Test func sRGBCategoryIconsShipByteForByte() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        let data = try Self.unpack(project)
        for number in 1...3 {
            #expect(try Data(contentsOf: data.appendingPathComponent(AssetCatalog.categoryImagePath(number))) == Data(contentsOf: project.url("assets/categories/\(number).png")))
        }
        #expect((try Self.record(data, "categories")["converted"] as? [Any])?.isEmpty == true)
    }
}
