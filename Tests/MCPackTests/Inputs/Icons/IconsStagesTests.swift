import Foundation
import MCPackSchema
import Imaging
@testable import MCPackKit
import Testing

/// The app icon input's verify stage, in process: Contents.json against
/// the icons the bag holds.
@Suite struct IconsStagesTests {
    static let folder = "data/icons/AppIcon.appiconset"

    static func contents(_ images: [(file: String, idiom: String, size: String, scale: String)]) -> Data {
        JSON.encode(AssetCatalogContents(images: images.map {
            AssetCatalogContents.Image(filename: $0.file, idiom: $0.idiom, scale: $0.scale, size: $0.size)
        }))
    }

    @Test func eachNamedIconIsThereAtItsPixelSize() throws {
        let list = Self.contents([("icon-40.png", "ipad", "20x20", "2x"), ("icon-1024.png", "ios-marketing", "1024x1024", "1x")])
        let icon40 = try Imaging.Image.solid(width: 40, height: 40, ink: [10, 20, 30, 255]).pngData()
        let store = try Imaging.Image.solid(width: 1024, height: 1024, ink: [10, 20, 30]).pngData()
        var files = ["\(Self.folder)/Contents.json": list, "\(Self.folder)/icon-40.png": icon40, "\(Self.folder)/icon-1024.png": store]
        #expect(IconsInput.verify(nil, in: DocumentStagesTests.bag(files)).isEmpty)

        files["\(Self.folder)/icon-40.png"] = try Imaging.Image.solid(width: 20, height: 20, ink: [10, 20, 30, 255]).pngData()
        files["\(Self.folder)/icon-1024.png"] = try Imaging.Image.solid(width: 1024, height: 1024, ink: [10, 20, 30, 255]).pngData()
        files["\(Self.folder)/stray.png"] = icon40
        let problems = IconsInput.verify(nil, in: DocumentStagesTests.bag(files))
        #expect(problems.map(\.path) == ["\(Self.folder)/icon-40.png", "\(Self.folder)/icon-1024.png", "\(Self.folder)/stray.png"])
        #expect(problems[0].message.contains("20 x 20 px; Contents.json says 20x20 @2x = 40 px"))
        #expect(problems[1].message.contains("alpha channel"))
        #expect(problems[2].severity == .warning)
    }

    @Test func aNamedIconMissingFromTheBagIsNamed() {
        let list = Self.contents([("icon-40.png", "ipad", "20x20", "2x")])
        let problems = IconsInput.verify(nil, in: DocumentStagesTests.bag(["\(Self.folder)/Contents.json": list]))
        #expect(problems.map(\.message) == ["names icon-40.png, which is not in the bag"])
    }
}
