import Foundation
import Imaging
import ImagingTestSupport
@testable import MCPackInputs
import MCPackSchema
import Testing

/// The launch layers in the archive a real build writes.
@Suite struct LaunchBuildTests {
    let top = "test-bundle-1.0.0/data/"

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
        #expect(LaunchInput.allScreens.count == 20)
        let textSet = top + AssetCatalog.launchSet(AssetCatalog.launchText) + "/"
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
}
