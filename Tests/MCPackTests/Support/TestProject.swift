import Foundation
import FileIO
import Imaging
import ImagingTestSupport

/// A small project generated in a temporary folder: a noise master, square
/// RGBA category icons and a clauses.toml, all made in code.
struct TestProject {
    let root: URL

    static let masterWidth = 600
    static let masterHeight = 400

    static let bundleTOML = """
        [bundle]
        name = "test-bundle"
        version = "1.0.0"
        title = "Test Bundle"
        output = "dist"
        format = "zip"

        [document]
        image = "assets/document/master.png"
        tile_size = 254
        overlap = 1

        [categories]
        icons = "assets/categories"

        [clauses]
        file = "assets/clauses.toml"

        """

    static let clausesTOML = """
        [[category]]
        name = "Key Clauses"
        icon = 1

        [[category]]
        name = "Justice"
        icon = 2

        [[category]]
        name = "All"
        icon = 3
        filter = "all"

        [[clause]]
        id = "39"
        title = "No free man shall be seized"
        categories = ["Key Clauses", "Justice"]
        colour = "#8B1E1EB3"
        translation = \"\"\"
        No free man shall be seized or imprisored "except" by the lawful judgement of his peers.\"\"\"
        context = "Still law in England."
        overlays = [[10, 20, 300, 24], [10, 44, 120, 24]]

        [[clause]]
        id = "40"
        title = "To no one will we sell right or justice"
        categories = ["Justice"]
        colour = "#1E3A8B"
        translation = "To no one will we sell, to no one deny or delay right or justice."
        context = "Also still law."
        overlays = [[130, 44, 400, 24]]

        """

    /// The [icon] and [launch] tables, for tests of those inputs: their
    /// outputs are full iPad screens, too slow to make in every test.
    static let imageTables = """

        [icon]
        master = "assets/icon/AppIcon-1024.png"

        [launch]
        background = "assets/launch/background.png"
        text = "assets/launch/text.png"

        """

    /// Makes the project; `icons` category icons of `iconSize` px; with
    /// `images`, an icon master and launch layers too.
    static func make(icons: Int = 3, iconSize: Int = 32, images: Bool = false) throws -> TestProject {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("mcpack-test-\(UUID().uuidString)")
        let project = TestProject(root: root)
        for folder in ["assets/document", "assets/categories"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try project.write("bundle.toml", bundleTOML)
        try project.write("assets/clauses.toml", clausesTOML)
        try project.write("assets/document/master.png",
                          Image.noise(width: masterWidth, height: masterHeight, bands: 3, seed: 7).pngData())
        for number in 1...max(icons, 1) where icons > 0 {
            try project.write("assets/categories/\(number).png", icon(number, size: iconSize))
        }
        if images {
            try project.write("bundle.toml", bundleTOML + imageTables)
            try project.write("assets/icon/AppIcon-1024.png", Image.noise(width: 1024, height: 1024, bands: 3, seed: 3).pngData())
            try project.write("assets/launch/background.png", Image.noise(width: 300, height: 200, bands: 3, seed: 4).pngData())
            try project.write("assets/launch/text.png", Image.solid(width: 90, height: 30, ink: [20, 10, 5, 220]).pngData())
        }
        return project
    }

    static func icon(_ number: Int, size: Int = 32, alpha: Bool = true) throws -> Data {
        let ink = [Double(number * 40 % 256), 30, 60] + (alpha ? [200.0] : [])
        return try Image.solid(width: size, height: size, ink: ink).pngData()
    }

    func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// The built archive unpacked into unpacked/ by Python's zipfile, not
    /// by mcpack; the bag's top folder in it.
    func unpacked(_ archive: String = "dist/test-bundle-1.0.0.zip", top: String = "test-bundle-1.0.0") throws -> URL {
        let folder = url("unpacked")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let extracted = try MCPackBinary.tool("python3", ["-m", "zipfile", "-e", url(archive).path, "."], in: folder)
        guard extracted.status == 0 else { throw FileError(path: archive, message: "python3 -m zipfile -e failed: \(extracted.stdout)") }
        return folder.appendingPathComponent(top)
    }

    func write(_ relative: String, _ text: String) throws {
        try write(relative, Data(text.utf8))
    }

    func write(_ relative: String, _ data: Data) throws {
        let file = url(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    func read(_ relative: String) throws -> String {
        try String(contentsOf: url(relative), encoding: .utf8)
    }

    /// Replaces text in a project file; the text must be there.
    func edit(_ relative: String, _ old: String, _ new: String) throws {
        let text = try read(relative)
        precondition(text.contains(old), "\(relative) does not contain \(old)")
        try write(relative, text.replacingOccurrences(of: old, with: new))
    }

    func remove(_ relative: String) throws {
        try FileManager.default.removeItem(at: url(relative))
    }

    /// Every file under the project's output folder.
    func outputFiles(_ folder: String = "dist") -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: url(folder).path).sorted()) ?? []
    }

    /// The 1-based line of the first line containing `text` in a file.
    func line(of text: String, in relative: String) throws -> Int {
        let lines = try read(relative).components(separatedBy: "\n")
        guard let index = lines.firstIndex(where: { $0.contains(text) }) else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "\(text) not in \(relative)"])
        }
        return index + 1
    }

    /// Removes the project, and the file a test of paths leading outside it
    /// puts beside it (`outside-<folder>.toml`).
    func destroy() {
        try? FileManager.default.removeItem(at: root)
        try? FileManager.default.removeItem(at: root.deletingLastPathComponent().appendingPathComponent("outside-\(root.lastPathComponent).toml"))
    }
}
