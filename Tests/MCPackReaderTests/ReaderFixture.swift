import Foundation
import Imaging
import ImagingTestSupport
@testable import MCPackBag
@testable import MCPackKit
import MCPackReader

/// A small bundle built by mcpack in the test, unpacked into a folder as
/// the app would hold it: a grey master of noise enlarged (detail that a
/// tile one pixel out of place shows at every level, without the colour
/// JPEG halves at its coarse levels, as a parchment's scan has), four
/// categories (two of them the filters) and three clauses, two of whose
/// overlays overlap.
struct ReaderFixture: Sendable {
    /// Not a multiple of any tile size or power of two, so every level has
    /// edge tiles and rounds up.
    static let width = 1001
    static let height = 701

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

        [[category]]
        name = "Hide Overlays"
        icon = 4
        filter = "none"

        [[clause]]
        id = "39"
        title = "No free man shall be seized"
        categories = ["Key Clauses", "Justice"]
        colour = "#8B1E1EB3"
        translation = "No free man shall be seized or imprisoned except by the lawful judgement of his peers."
        context = "Still law in England."
        overlays = [[100, 100, 300, 50], [500, 600, 200, 40]]

        [[clause]]
        id = "40"
        title = "To no one will we sell right or justice"
        categories = ["Justice"]
        colour = "#1E3A8B"
        translation = "To no one will we sell, to no one deny or delay right or justice."
        context = "Also still law."
        overlays = [[350, 120, 200, 60]]

        [[clause]]
        id = "1"
        title = "The English Church shall be free"
        categories = ["Key Clauses"]
        colour = "#336699"
        translation = "The English Church shall be free."
        context = "The first clause."
        overlays = [[0, 0, 90, 30]]

        """

    static func bundleTOML(layout: String) -> String {
        let document = layout == "iiif3"
            ? "tile_size = 128\nlayout = \"iiif3\"\niiif_base_url = \"https://example.org/iiif\""
            : "tile_size = 126\noverlap = 1"
        return """
            [bundle]
            name = "reader-test"
            version = "1.0.0"
            title = "Reader Test"
            output = "dist"
            format = "zip"

            [document]
            image = "assets/document/master.png"
            quality = 90
            \(document)

            [categories]
            icons = "assets/categories"

            [clauses]
            file = "assets/clauses.toml"

            [preview]
            include = false

            """
    }

    /// The folder everything is under; the unpacked bag's top folder.
    let root: URL
    let bag: URL
    let masterPath: String

    /// The two layouts, built once for the whole test run.
    static let deepZoom = Task { try await ReaderFixture.make(layout: "dz") }
    static let iiif = Task { try await ReaderFixture.make(layout: "iiif3") }

    /// One folder for every fixture of this test process, removed when it
    /// exits.
    static let processRoot: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-reader-tests-\(UUID().uuidString)")
        atexit { try? FileManager.default.removeItem(at: ReaderFixture.processRoot) }
        return folder
    }()

    static func make(layout: String) async throws -> ReaderFixture {
        let root = processRoot.appendingPathComponent(layout)
        func write(_ relative: String, _ data: Data) throws {
            let file = root.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file)
        }
        try write("bundle.toml", Data(bundleTOML(layout: layout).utf8))
        try write("assets/clauses.toml", Data(clausesTOML.utf8))
        let master = try Image.noise(width: width / 8, height: height / 8, bands: 1, seed: 11).resized(width: width, height: height).srgb()
        try write("assets/document/master.png", try master.pngData())
        for icon in 1...4 {
            try write("assets/categories/\(icon).png", try Image.solid(width: 32, height: 32, ink: [Double(icon * 50), 30, 60, 200]).pngData())
        }
        let built = try await Builder.build(BuildOptions(configPath: root.appendingPathComponent("bundle.toml").path,
                                                         output: root.appendingPathComponent("dist").path))
        let bag = try BagUnpacker.unpack(built.archive, into: root.appendingPathComponent("unpacked"))
        return ReaderFixture(root: root, bag: bag, masterPath: root.appendingPathComponent("assets/document/master.png").path)
    }

    func open() throws -> KioskBundle { try KioskBundle(folder: bag) }

    /// A copy of the unpacked bag a test may damage.
    func copy() throws -> URL {
        let copy = root.appendingPathComponent("copy-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: bag, to: copy)
        return copy
    }
}
