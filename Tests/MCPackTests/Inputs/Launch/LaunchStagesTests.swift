import Foundation
import MCPackSchema
import Imaging
import ImagingTestSupport
@testable import MCPackInputs
@testable import MCPackKit
import Testing

/// The launch input's verify stage, in process, on a two-screen set.
@Suite struct LaunchStagesTests {
    static let record = LaunchInput.Record(background: "b.png", backgroundSHA256: "aa", text: "t.png", textSHA256: "bb",
                                           textPoints: [2, 1], screens: ["8x6", "6x8"])

    static func png(_ width: Int, _ height: Int) throws -> Data {
        try Imaging.Image.solid(width: width, height: height, ink: [30, 60, 90]).pngData()
    }

    /// What LaunchInput.make writes for `record`, with the @3x text 6 x 3 px.
    static func files() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for (screen, w, h) in [("8x6", 8, 6), ("6x8", 6, 8)] {
            files["data/launch/screens/\(screen).png"] = try png(w, h)
            files["data/launch/preview/\(screen).png"] = try png(w, h)
        }
        let set = "data/\(AssetCatalog.launchSet(AssetCatalog.launchText))/"
        files[set + "LaunchText.png"] = try png(2, 1)
        files[set + "LaunchText@2x.png"] = try png(4, 2)
        files[set + "LaunchText@3x.png"] = try png(6, 3)
        files["data/\(AssetCatalog.launchSet(AssetCatalog.launchBackground))/LaunchBackground.png"] = try png(8, 8)
        return files
    }

    /// Only the first bytes of each launch PNG, as verify keeps them.
    static func bag(_ files: [String: Data]) -> BagView {
        var contents = BagContents()
        for (path, data) in files {
            contents.put(BagFile(path: path, size: Int64(data.count), digests: [:], data: nil,
                                           head: BagContents.keeping(path, size: Int64(data.count)).headBytes.map { data.prefix($0) }))
        }
        return BagView(contents: contents)
    }

    @Test func aCompleteSetPasses() throws {
        #expect(LaunchInput.verify(Self.record, in: Self.bag(try Self.files())) == [])
    }

    /// A bag made before the catalog kept the layers in
    /// launch/Launch.xcassets; it verifies as it was made.
    @Test func aBagOfTheEarlierLayoutPasses() throws {
        var files: [String: Data] = [:]
        for (path, data) in try Self.files() {
            files[path.replacingOccurrences(of: "data/\(AssetCatalog.folder)/", with: "data/launch/Launch.xcassets/")] = data
        }
        #expect(LaunchInput.verify(Self.record, in: Self.bag(files)) == [])
        files["data/launch/Launch.xcassets/LaunchText.imageset/LaunchText@2x.png"] = try Self.png(5, 2)
        #expect(LaunchInput.verify(Self.record, in: Self.bag(files)).map(\.path) == ["data/launch/Launch.xcassets/LaunchText.imageset/LaunchText@2x.png"])
    }

    @Test func aMissingOrMisSizedScreenIsNamed() throws {
        var files = try Self.files()
        files["data/launch/preview/6x8.png"] = nil
        files["data/launch/screens/8x6.png"] = try Self.png(8, 5)
        files["data/launch/screens/9x9.png"] = try Self.png(9, 9)
        let problems = LaunchInput.verify(Self.record, in: Self.bag(files))
        #expect(problems.map(\.path) == ["data/launch/preview/6x8.png", "data/launch/screens/8x6.png", "data/launch/screens/9x9.png"], "\(problems)")
        #expect(problems.map(\.severity) == [.error, .error, .warning])
        #expect(problems[1].message.contains("8 x 6"))
    }

    @Test func textScalesMustAgree() throws {
        var files = try Self.files()
        files["data/\(AssetCatalog.launchSet(AssetCatalog.launchText))/LaunchText@2x.png"] = try Self.png(5, 2)
        let problems = LaunchInput.verify(Self.record, in: Self.bag(files))
        #expect(problems.map(\.path) == ["data/\(AssetCatalog.launchSet(AssetCatalog.launchText))/LaunchText@2x.png"])
        #expect(problems.first?.message.contains("should be 4 x 2") == true)
    }

    @Test func aPreviewThatIsNotSRGBIsNamed() throws {
        var files = try Self.files()
        files["data/launch/preview/8x6.png"] = try Imaging.Image.solid(width: 8, height: 6, ink: [30, 60, 90]).sixteenBit().pngData()
        let problems = LaunchInput.verify(Self.record, in: Self.bag(files))
        #expect(problems.map(\.rule) == ["picture-srgb"], "\(problems)")
        #expect(problems.first?.path == "data/launch/preview/8x6.png")
    }

    /// A launch PNG larger than the head verify keeps is still checked from
    /// its header, read off disk as `mcpack verify DIR` reads a bag.
    @Test func aLargeScreenIsCheckedFromItsHeader() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("launch-head-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let path = "data/launch/screens/900x700.png"
        let large = try Imaging.Image.noise(width: 900, height: 700, bands: 3, seed: 7).pngData(compression: 0)
        let kept = try #require(BagContents.keeping(path, size: Int64(large.count)).headBytes)
        #expect(large.count > kept)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("data/launch/screens"), withIntermediateDirectories: true)
        try large.write(to: root.appendingPathComponent(path))
        let contents = try BagContents.read(root.path, limits: VerifyLimits())
        #expect(contents.files[path]?.head?.count == kept)
        #expect(contents.files[path]?.data == nil)
        let record = LaunchInput.Record(background: "b", backgroundSHA256: "", text: "t", textSHA256: "", textPoints: [], screens: ["900x700"])
        let problems = LaunchInput.verify(record, in: BagView(contents: contents))
        #expect(!problems.contains { $0.path == path }, "\(problems)")
        #expect(problems.contains { $0.path == "data/launch/preview/900x700.png" && $0.message == "missing" })
    }

    /// The screens of the iPads sold now, from Apple's device tables: the
    /// iPad mini (A17 Pro), the iPad Pro 11" and 13" (M4), and the iPad
    /// and iPad Air 11"; each in both orientations.
    @Test func everyCurrentIPadScreenIsCovered() {
        let made = Set(LaunchInput.allScreens.map { "\($0.width)x\($0.height)" })
        for (width, height) in [(1488, 2266), (1668, 2420), (2064, 2752), (1640, 2360), (2048, 2732)] {
            #expect(made.contains("\(width)x\(height)") && made.contains("\(height)x\(width)"), "\(width)x\(height)")
        }
        #expect(made.count == LaunchInput.allScreens.count, "a screen listed twice")
    }
}
