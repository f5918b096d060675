import Foundation
import MCPackSchema
import Imaging
@testable import MCPackKit
import Testing

/// The catalog's rules as Xcode reads it, on bags made in memory.
@Suite struct AssetCatalogRulesTests {
    static let root = "data/\(AssetCatalog.folder)"
    static let set = "data/\(AssetCatalog.appIconSet)"

    static func png(_ side: Int, _ ink: [Double]) throws -> Data {
        try Imaging.Image.solid(width: side, height: side, ink: ink).pngData()
    }

    /// A catalog that keeps every rule: the app icon in three appearances,
    /// a launch layer at three scales and a category icon.
    static func good() throws -> [String: Data] {
        let text = "data/\(AssetCatalog.launchSet("LaunchText"))"
        let category = "data/\(AssetCatalog.categoriesFolder)/Category1.imageset"
        return [
            "\(root)/Contents.json": JSON.encode(AssetCatalogContents.folder),
            "\(set)/Contents.json": JSON.encode(AssetCatalogContents(images: IconAppearance.allCases.map(\.entry))),
            "\(set)/AppIcon.png": try png(1024, [200, 30, 30]),
            "\(set)/AppIcon-dark.png": try png(1024, [20, 30, 30, 100]),
            "\(set)/AppIcon-tinted.png": try Imaging.Image.solid(width: 1024, height: 1024, ink: [90]).pngData(),
            "\(text)/Contents.json": JSON.encode(AssetCatalogContents(images: [
                .init(filename: "LaunchText.png", idiom: "universal", scale: "1x"),
                .init(filename: "LaunchText@2x.png", idiom: "universal", scale: "2x"),
                .init(filename: "LaunchText@3x.png", idiom: "universal", scale: "3x"),
            ])),
            "\(text)/LaunchText.png": try Imaging.Image.solid(width: 30, height: 10, ink: [1, 2, 3, 200]).pngData(),
            "\(text)/LaunchText@2x.png": try Imaging.Image.solid(width: 60, height: 20, ink: [1, 2, 3, 200]).pngData(),
            "\(text)/LaunchText@3x.png": try Imaging.Image.solid(width: 90, height: 30, ink: [1, 2, 3, 200]).pngData(),
            "data/\(AssetCatalog.categoriesFolder)/Contents.json": JSON.encode(AssetCatalogContents.folder),
            "\(category)/Contents.json": JSON.encode(CategoriesInput.imageSet("Category1")),
            "\(category)/Category1.png": try png(32, [1, 2, 3, 200]),
        ]
    }

    static func check(_ files: [String: Data]) -> [String] {
        AssetCatalogRules.check(DocumentStagesTests.bag(files)).map { "\($0.path): \($0.rule): \($0.message)" }
    }

    @Test func aWellMadeCatalogKeepsEveryRule() throws {
        #expect(Self.check(try Self.good()) == [])
    }

    @Test func aContentsJsonNamingAMissingFileIsCaught() throws {
        var files = try Self.good()
        files["\(Self.set)/AppIcon-dark.png"] = nil
        #expect(Self.check(files) == ["\(Self.set)/Contents.json: catalog-contents: images[1] names AppIcon-dark.png, which is not in the bag"])
    }

    @Test func aContentsJsonNamingAWrongSizedFileIsCaught() throws {
        var files = try Self.good()
        files["\(Self.set)/AppIcon.png"] = try Self.png(512, [200, 30, 30])
        let text = "data/\(AssetCatalog.launchSet("LaunchText"))"
        files["\(text)/LaunchText@2x.png"] = try Imaging.Image.solid(width: 50, height: 20, ink: [1, 2, 3, 200]).pngData()
        #expect(Self.check(files) == [
            "\(Self.set)/AppIcon.png: catalog-sizes: is 512 x 512 px; Contents.json says 1024x1024 @1x = 1024 x 1024 px",
            "\(text)/LaunchText@2x.png: catalog-sizes: is 50 x 20 px at 2x; the 1x file is 30 x 10 px, so it should be about 60 x 20",
        ])
    }

    @Test func anUnnamedFileAndAMissingContentsJsonAreCaught() throws {
        var files = try Self.good()
        files["\(Self.set)/AppIcon-76@1x.png"] = try Self.png(76, [1, 2, 3])
        files["\(Self.root)/Contents.json"] = nil
        files["data/\(AssetCatalog.categoriesFolder)/Category1.imageset/Contents.json"] = nil
        #expect(Self.check(files) == [
            "\(Self.root)/Contents.json: catalog-contents: missing; Xcode reads a catalog by its Contents.json",
            "\(Self.set)/AppIcon-76@1x.png: catalog-contents: not named in AppIcon.appiconset/Contents.json; Xcode warns of unassigned files",
            "data/\(AssetCatalog.categoriesFolder)/Category1.imageset/Contents.json: catalog-contents: missing; Xcode needs one in every folder and set of a catalog",
        ])
    }

    @Test func appearancesMustBeWellFormed() throws {
        var files = try Self.good()
        var images = IconAppearance.allCases.map(\.entry)
        images[1].appearances = [.init(appearance: "contrast", value: "high")]
        images.append(IconAppearance.tinted.entry)
        images[3].filename = "AppIcon-tinted.png"
        images.append(.init(appearances: [.dark], filename: "AppIcon-dark.png", idiom: "ipad", scale: "2x", size: "76x76"))
        files["\(Self.set)/Contents.json"] = JSON.encode(AssetCatalogContents(images: images))
        let found = Self.check(files)
        #expect(found.contains("\(Self.set)/Contents.json: catalog-appearances: images[1] has the appearance contrast = high; expected luminosity light, dark or tinted"))
        #expect(found.contains { $0.contains("images[3] repeats the slot of an earlier entry") })
        #expect(found.contains { $0.contains("images[4] is a dark icon of ipad 76x76 2x; Xcode takes dark and tinted icons as universal 1024x1024 entries") })
    }

    /// Sizes and scales that read as numbers but make no pixels (NaN, an
    /// overflowing product, a huge scale) are named, not trapped on.
    @Test func aHostileSizeOrScaleIsNamedNotTrappedOn() throws {
        var files = try Self.good()
        var images = IconAppearance.allCases.map(\.entry)
        images[0].size = "nanxnan"
        images[2].scale = "9223372036854775807x"
        images.append(.init(filename: "AppIcon.png", idiom: "ipad", scale: "2x", size: "1e308x1"))
        images.append(.init(filename: "AppIcon.png", idiom: "iphone", scale: "1x", size: "infx0"))
        files["\(Self.set)/Contents.json"] = JSON.encode(AssetCatalogContents(images: images))
        let text = "data/\(AssetCatalog.launchSet("LaunchText"))"
        files["\(text)/Contents.json"] = JSON.encode(AssetCatalogContents(images: [
            .init(filename: "LaunchText.png", idiom: "universal", scale: "1x"),
            .init(filename: "LaunchText@2x.png", idiom: "universal", scale: "9223372036854775807x"),
            .init(filename: "LaunchText@3x.png", idiom: "universal", scale: "3x"),
        ]))
        let expected = [
            "\(Self.set)/Contents.json: catalog-contents: images[0] has the size \"nanxnan\"; expected WIDTHxHEIGHT in points, each above 0 and at most 10000",
            "\(Self.set)/Contents.json: catalog-contents: images[2] has the scale \"9223372036854775807x\"; expected 1x, 2x or 3x",
            "\(Self.set)/Contents.json: catalog-contents: images[3] has the size \"1e308x1\"; expected WIDTHxHEIGHT in points, each above 0 and at most 10000",
            "\(Self.set)/Contents.json: catalog-contents: images[4] has the size \"infx0\"; expected WIDTHxHEIGHT in points, each above 0 and at most 10000",
            "\(text)/Contents.json: catalog-contents: images[1] has the scale \"9223372036854775807x\"; expected 1x, 2x or 3x",
        ]
        #expect(Self.check(files).sorted() == expected.sorted())
    }

    @Test func aColouredTintedIconAndAnAlphaDefaultIconAreCaught() throws {
        var files = try Self.good()
        files["\(Self.set)/AppIcon-tinted.png"] = try Self.png(1024, [90, 10, 10])
        files["\(Self.set)/AppIcon.png"] = try Self.png(1024, [200, 30, 30, 250])
        #expect(Self.check(files) == [
            "\(Self.set)/AppIcon.png: catalog-alpha: has an alpha channel; the App Store rejects an icon with transparency (ITMS-90717)",
            "\(Self.set)/AppIcon-tinted.png: catalog-tinted: has 3 colour bands; a tinted icon is greyscale",
        ])
    }
}
