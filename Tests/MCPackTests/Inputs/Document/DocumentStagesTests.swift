import Foundation
import MCPackSchema
import Imaging
import ImagingTestSupport
@testable import MCPackBag
@testable import MCPackInputs
@testable import MCPackKit
import Testing

/// The document input's verify and diff stages, in process.
@Suite struct DocumentStagesTests {
    static func record(width: Int = 600, height: Int = 400, sha: String = "aa", quality: Int = 85) -> DocumentInput.Record {
        DocumentInput.Record(image: "assets/document/master.png", sha256: sha, format: "png", width: width, height: height,
                             name: "master", levels: 11, tiles: 18,
                             settings: .init(tileSize: 254, overlap: 1, tileFormat: "jpeg", quality: quality, layout: "dz"))
    }

    static func manifest(_ lines: [(String, String)]) -> Data {
        Data(lines.map { "\($0.1)  \($0.0)\n" }.joined().utf8)
    }

    /// Verify decodes the top-left tile of each level in both layouts, and
    /// keeps the first 1 KB (the header) of every other IIIF picture, whose
    /// size it checks.
    @Test func verifyKeepsSampleTilesWholeAndHeadersOfTheRest() {
        let keeps = [
            "data/document/master_files/12/0_0.jpeg": BagReader.Keep.Bytes.whole,
            "data/document/master_files/12/1_0.jpeg": .digestsOnly,
            "data/document/master_files/12/10_0.jpeg": .digestsOnly,
            "data/document/master/0,0,1024,1024/254,254/0/default.jpg": .whole,
            "data/document/master/1024,0,1024,1024/254,254/0/default.jpg": .head(1024),
            "data/document/master/full/max/0/default.jpg": .head(1024),
            "data/document/master.dzi": .whole,
            "data/document/master/info.json": .whole,
            "data/\(AssetCatalog.appIconSet)/AppIcon.png": .whole,
            "data/launch/screens/2048x2732.png": .head(256 << 10),
            "data/launch/Launch.storyboard": .digestsOnly,
            "bagit.txt": .whole,
        ]
        for (path, expected) in keeps {
            #expect(BagContents.keeping(path, size: 4096) == expected, "\(path)")
        }
        #expect(BagContents.keeping("data/clauses.json", size: 17 << 20) == .head(1024))
        #expect(BagContents.keeping("data/document/master_files/12/0_0.png", size: 17 << 20) == .head(1024))
    }

    /// One input owns each file: the IIIF manifest inside document/ is the
    /// manifest input's, not the document's.
    @Test func theLongerPayloadEntryOwnsAFile() {
        #expect(ManifestInput.owns("data/document/manifest.json"))
        #expect(!DocumentInput.owns("data/document/manifest.json"))
        #expect(DocumentInput.owns("data/document/master_files/0/0_0.jpeg"))
        #expect(Inputs.owner(of: "data/index.html") == nil && Inputs.owner(of: "bagit.txt") == nil)
    }

    @Test func tilesAreCountedPerLevelAndSettingsNamed() {
        let old = Self.manifest([("data/document/master_files/9/0_0.jpeg", "01"), ("data/document/master_files/10/0_0.jpeg", "02"),
                                 ("data/document/master_files/10/1_0.jpeg", "03")])
        let new = Self.manifest([("data/document/master_files/9/0_0.jpeg", "01"), ("data/document/master_files/10/0_0.jpeg", "0f"),
                                 ("data/document/master_files/10/2_0.jpeg", "04")])
        let changes = DocumentInput.diff(DiffSide(record: Self.record(), files: [:]),
                                         DiffSide(record: Self.record(sha: "bb", quality: 90), files: [:]),
                                         ManifestDelta(old: Manifest(old), new: Manifest(new)))
        #expect(changes.map(\.field) == ["master", "quality", "tiles"])
        #expect(changes.last?.path == "level 10")
        #expect(changes.last?.detail == "1 added, 1 removed, 1 changed")
    }

    /// IIIF tiles are counted by scale factor, and the summary counts them
    /// as tiles, not as changed settings; the manifest inside document/ is
    /// the manifest input's.
    @Test func iiifTilesAreCountedByScaleAndSummedAsTiles() {
        let tile = "data/document/master/0,0,254,254/254,254/0/default.jpg", half = "data/document/master/0,0,508,508/254,254/0/default.jpg"
        let old = Self.manifest([(tile, "01"), (half, "02"), ("data/document/manifest.json", "03")])
        let new = Self.manifest([(tile, "0f"), (half, "0e"), ("data/document/manifest.json", "04")])
        let changes = DocumentInput.diff(DiffSide(record: Self.record(), files: [:]), DiffSide(record: Self.record(), files: [:]),
                                         ManifestDelta(old: Manifest(old), new: Manifest(new)))
        #expect(changes.map(\.path) == ["scale 1", "scale 2"])
        #expect(Differ.summary(changes) == "document: 2 tiles in 2 levels")
    }

    static func bag(_ files: [String: Data]) -> BagView {
        var contents = BagContents()
        for (path, data) in files {
            contents.put(BagFile(path: path, size: Int64(data.count), digests: [:], data: data))
        }
        return BagView(contents: contents)
    }

    /// A 3 x 2 master with 2 px tiles: levels 0 (1 x 1), 1 (2 x 1) and 2 (3 x 2).
    static let dzi = Data(#"<Image TileSize="2" Overlap="0" Format="jpeg"><Size Width="3" Height="2"/></Image>"#.utf8)
    static let tiles = ["0/0_0", "1/0_0", "2/0_0", "2/1_0"].map { "data/document/m_files/\($0).jpeg" }

    @Test func aDeepZoomPyramidHoldsEveryTileItImplies() {
        var files = Dictionary(uniqueKeysWithValues: Self.tiles.map { ($0, Data()) })
        files["data/document/m.dzi"] = Self.dzi
        #expect(DocumentInput.verify(Self.record(width: 3, height: 2), in: Self.bag(files)).isEmpty)

        files["data/document/m_files/2/1_0.jpeg"] = nil
        files["data/document/m_files/2/9_9.jpeg"] = Data()
        let problems = DocumentInput.verify(Self.record(width: 3, height: 2), in: Self.bag(files))
        #expect(problems.map(\.path) == ["data/document/m_files/2/1_0.jpeg", "data/document/m_files/2/9_9.jpeg"])
        #expect(problems.allSatisfy { $0.rule == "pyramid-complete" })

        // A name that reads as the missing tile's but is not how tiles are
        // named (a leading zero, another extension's case) stands in for none.
        files["data/document/m_files/2/9_9.jpeg"] = nil
        files["data/document/m_files/2/01_0.jpeg"] = Data()
        files["data/document/m_files/1/0_0.JPEG"] = Data()
        #expect(DocumentInput.verify(Self.record(width: 3, height: 2), in: Self.bag(files)).map(\.path)
            == ["data/document/m_files/2/1_0.jpeg", "data/document/m_files/1/0_0.JPEG", "data/document/m_files/2/01_0.jpeg"])
    }

    @Test func aDescriptorOfAnotherSizeIsNamed() {
        var files = Dictionary(uniqueKeysWithValues: Self.tiles.map { ($0, Data()) })
        files["data/document/m.dzi"] = Self.dzi
        let problems = DocumentInput.verify(Self.record(width: 30, height: 2), in: Self.bag(files))
        #expect(problems.map(\.rule) == ["pyramid-dzi"])
    }
}

/// verify decodes a sample of shipped pictures and finds any that is not
/// 8-bit sRGB.
@Suite struct PictureSRGBVerifyTests {
    @Test func aCMYKTileIsNamed() throws {
        let dzi = Data(#"<Image TileSize="2" Overlap="0" Format="jpeg"><Size Width="1" Height="1"/></Image>"#.utf8)
        let good = try Imaging.Image.solid(width: 1, height: 1, ink: [200, 40, 40]).jpegData()
        let cmyk = try Imaging.Image.solid(width: 1, height: 1, ink: [200, 40, 40]).exported(toProfile: "cmyk").jpegData()
        let files = ["data/document/m.dzi": dzi, "data/document/m_files/0/0_0.jpeg": good]
        #expect(DocumentInput.verify(nil, in: DocumentStagesTests.bag(files)).isEmpty)
        let problems = DocumentInput.verify(nil, in: DocumentStagesTests.bag(files.merging(["data/document/m_files/0/0_0.jpeg": cmyk]) { $1 }))
        #expect(problems.map(\.rule) == ["picture-srgb"], "\(problems)")
        #expect(problems.first?.message.contains("cmyk") == true)
    }
}
