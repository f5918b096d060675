import CZlib
import Foundation
import MCPackSchema
import Imaging
import ImagingTestSupport
import Testing

/// Files that came out wrong while the build said all was well: a profile
/// with perceptual tables only, a profile cut short, 32-bit samples, 16-bit
/// samples at the top of their range, Lab white. Each is compared with an
/// independent expected picture (the colour it was made to show), and what
/// bundle.json records is read against the pixels.
@Suite struct TrueColourTests {
    static let colour: [Double] = [200, 60, 30]

    static func build(_ master: Image, file: String = "master.tif") throws -> (TestProject, RunResult) {
        try ColourTests.build(master, file: file)
    }

    static func conversions(_ project: TestProject) throws -> [String] {
        let picture = try ColourTests.record(try ColourTests.unpack(project), "document")["picture"] as? [String: Any]
        return picture?["conversions"] as? [String] ?? []
    }

    @Test func aPerceptualOnlyProfileIsConvertedWithTheIntentItHas() throws {
        // The profile reads device (r, g, b) as the sRGB colour (g, b, r):
        // taken as sRGB, these pixels would show (30, 200, 60), a green.
        let device = [Self.colour[2], Self.colour[0], Self.colour[1]]
        let master = try Image.solid(width: TestProject.masterWidth, height: TestProject.masterHeight, ink: device)
            .withProfile(try Image.perceptualOnlyTestProfile())
        let (project, result) = try Self.build(master)
        defer { project.destroy() }
        #expect(result.status == 0, "\(result.stderr)")
        let data = try ColourTests.unpack(project)
        for tile in ["master_files/10/0_0.jpeg", "master_files/10/2_1.jpeg"] {
            let difference = try ColourTests.meanDifference(data.appendingPathComponent("document/\(tile)"), Self.colour)
            #expect(difference <= ColourTests.tolerance, "\(tile): mean difference \(difference)")
        }
        let said = try Self.conversions(project)
        #expect(said.contains { $0.contains("Perceptual only (rotating)") && $0.contains("(perceptual: the profile has no relative colorimetric tables)") },
                "\(said)")
    }

    @Test func aProfileCutShortIsRefusedNamingTheFile() throws {
        let profile = try Image.perceptualOnlyTestProfile().prefix(300)
        let master = try Image.solid(width: TestProject.masterWidth, height: TestProject.masterHeight, ink: Self.colour).withProfile(Data(profile))
        let (project, result) = try Self.build(master)
        defer { project.destroy() }
        #expect(result.status == 2)
        #expect(result.stderr.contains("assets/document/master.tif: embeds an ICC colour profile that cannot be read whole"), "\(result.stderr)")
        #expect(project.outputFiles().isEmpty)
    }

    @Test func thirtyTwoBitSamplesAreScaledNotClipped() throws {
        let master = try Image.solid(width: TestProject.masterWidth, height: TestProject.masterHeight, ink: Self.colour).deepened(bits: 32)
        #expect(master.pictureFacts.bits == 32)
        let (project, result) = try Self.build(master)
        defer { project.destroy() }
        #expect(result.status == 0, "\(result.stderr)")
        let data = try ColourTests.unpack(project)
        let difference = try ColourTests.meanDifference(data.appendingPathComponent("document/master_files/10/0_0.jpeg"), Self.colour)
        #expect(difference <= ColourTests.tolerance, "mean difference \(difference)")
        #expect(try Self.conversions(project).contains("32-bit values scaled to 8 bits by their range (0 to 4294967295), rounded"))
    }

    /// 65280 is 254.0 of 255 at 16 bits: dropping the low byte gives 255.
    @Test func sixteenBitSamplesAreRoundedNotTruncated() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        let icon = try Image.solid(width: 32, height: 32, ink: [255, 128, 0, 255]).deepened(bits: 16, factor: 256)
        try icon.write(to: project.url("assets/categories/1.png").path)
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        let shipped = try Image(contentsOf: try ColourTests.unpack(project).appendingPathComponent(AssetCatalog.categoryImagePath(1)).path)
        // 128 x 256 = 32768 is 127.5 of 255: rounded, 128.
        let means = try shipped.bandMeans()
        #expect(means == [254, 128, 0, 254], "\(means)")
    }

    /// A float Lab TIFF and an 8-bit CIELab TIFF (which libvips reads
    /// packed, as LabQ) keep their white.
    @Test(arguments: ["float", "8-bit CIELab"])
    func labWhiteIsWhite(_ kind: String) throws {
        let white = try Image.solid(width: TestProject.masterWidth, height: TestProject.masterHeight, ink: [255, 255, 255]).lab()
        let master = kind == "float" ? white : try white.labQ()
        #expect(master.pictureFacts.interpretation == (kind == "float" ? "lab" : "labq"))
        let (project, result) = try Self.build(master)
        defer { project.destroy() }
        #expect(result.status == 0, "\(result.stderr)")
        let tile = try Image(contentsOf: try ColourTests.unpack(project).appendingPathComponent("document/master_files/10/0_0.jpeg").path)
        let means = try tile.bandMeans()
        #expect(means.allSatisfy { $0 >= 254 }, "\(means)")
    }

    /// A valid baseline TIFF that libvips 8.14 cannot read: 16 x 16 RGB,
    /// one 16 x 16 tile per colour plane (PlanarConfiguration 2).
    static func separatePlanesTIFF() -> Data {
        var out = Data("II*\u{0}".utf8)
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        let side = 16, plane = side * side
        let planes = [200, 60, 30].flatMap { [UInt8](repeating: UInt8($0), count: plane) }
        let bitsAt = 8 + planes.count, offsetsAt = bitsAt + 6, countsAt = offsetsAt + 12, ifdAt = countsAt + 12
        out += u32(ifdAt) + planes + u16(8) + u16(8) + u16(8)
        out += u32(8) + u32(8 + plane) + u32(8 + 2 * plane) + u32(plane) + u32(plane) + u32(plane)
        let entries: [(tag: Int, type: Int, count: Int, value: Int)] = [
            (256, 3, 1, side), (257, 3, 1, side), (258, 3, 3, bitsAt), (259, 3, 1, 1), (262, 3, 1, 2), (277, 3, 1, 3),
            (284, 3, 1, 2), (322, 3, 1, side), (323, 3, 1, side), (324, 4, 3, offsetsAt), (325, 4, 3, countsAt),
        ]
        out += u16(entries.count)
        for e in entries { out += u16(e.tag) + u16(e.type) + u32(e.count) + (e.type == 3 && e.count == 1 ? u16(e.value) + u16(0) : u32(e.value)) }
        return out + u32(0)
    }

    @Test func aTIFFLibvipsCannotReadIsRefusedInPlainWordsNotAsDamaged() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try Self.separatePlanesTIFF().write(to: project.url("assets/document/master.tif"))
        try project.remove("assets/document/master.png")
        try project.edit("bundle.toml", "assets/document/master.png", "assets/document/master.tif")
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("assets/document/master.tif: its pixels cannot be read: this TIFF stores its colour planes separately in tiles"),
                "\(result.stderr)")
        #expect(!result.stderr.contains("damaged"), "\(result.stderr)")
        #expect(!result.stderr.contains(project.root.path), "paths are the project's: \(result.stderr)")
    }

    @Test func aPhotoshopDocumentIsNamedAsOne() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try (Data("8BPS".utf8) + Data(repeating: 0, count: 60)).write(to: project.url("assets/document/master.psd"))
        try project.remove("assets/document/master.png")
        try project.edit("bundle.toml", "assets/document/master.png", "assets/document/master.psd")
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("assets/document/master.psd: is a Photoshop document (PSD); the master must be TIFF, PNG or JPEG"), "\(result.stderr)")
    }

    /// A PNG with a chunk of `type` inserted after its header (an eXIf, or
    /// the tEXt ImageMagick writes for "Raw profile type exif").
    static func withChunk(_ png: Data, type: String, body: Data) -> Data {
        var chunk = Data()
        let length = UInt32(body.count)
        chunk += [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        let typed = Data(type.utf8) + body
        chunk += typed
        let crc = typed.withUnsafeBytes { UInt32(crc32(0, $0.bindMemory(to: Bytef.self).baseAddress, uInt($0.count))) }
        chunk += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        // After the 8-byte signature and the 25-byte IHDR chunk.
        return png.prefix(33) + chunk + png.dropFirst(33)
    }

    /// Orientation kept in a PNG's eXIf chunk, or in the "Raw profile type
    /// exif" text ImageMagick writes: turned upright as in a JPEG.
    @Test(arguments: ["eXIf", "Raw profile type exif"]) func aPNGsOrientationIsApplied(_ place: String) throws {
        let upright = try Image.noise(width: TestProject.masterWidth, height: TestProject.masterHeight, bands: 3, seed: 7)
        let (reference, built) = try ColourTests.build(upright, file: "master.png")
        defer { reference.destroy() }
        #expect(built.status == 0, "\(built.stderr)")
        let stored = try upright.rotated(quarterTurns: 3)
        let project = try TestProject.make()
        defer { project.destroy() }
        let path = project.url("assets/document/master.png")
        try stored.write(to: path.path)
        // Orientation 6 (Right-top) in a big-endian TIFF block.
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]
        let body: Data
        if place == "eXIf" {
            body = Data(tiff)
        } else {
            let exif = Array("Exif".utf8) + [0, 0] + tiff
            let hex = exif.map { String(format: "%02x", $0) }.joined()
            body = Data("Raw profile type exif".utf8) + [0] + Data("\nexif\n\(String(repeating: " ", count: 6))\(exif.count)\n\(hex)\n".utf8)
        }
        try Self.withChunk(try Data(contentsOf: path), type: place == "eXIf" ? "eXIf" : "tEXt", body: body).write(to: path)
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        let want = try ColourTests.unpack(reference), got = try ColourTests.unpack(project)
        for tile in ["master_files/10/0_0.jpeg", "master_files/10/2_1.jpeg"] {
            #expect(try Data(contentsOf: want.appendingPathComponent("document/\(tile)")) == Data(contentsOf: got.appendingPathComponent("document/\(tile)")),
                    "\(tile) differs from the upright picture's")
        }
        #expect((try ColourTests.record(got, "document")["picture"] as? [String: Any])?["orientation"] as? Int == 6)
    }
}
