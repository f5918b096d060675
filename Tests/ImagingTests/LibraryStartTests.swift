import Foundation
import Imaging
import Testing

/// libvips starts without the optional modules it loads by default (HEIF,
/// JPEG XL, ImageMagick, OpenSlide, PDF, and the libraries they bring),
/// whose formats mcpack refuses anyway; the pictures mcpack takes still
/// read and write.
@Suite struct LibraryStartTests {
    @Test func thePicturesMcpackTakesNeedNoModule() throws {
        let image = try Image.solid(width: 8, height: 4, ink: [200, 10, 10])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-library-start-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for suffix in ["png", "jpg", "webp", "tif"] {
            let path = folder.appendingPathComponent("p.\(suffix)").path
            try image.write(to: path)
            let back = try Image(contentsOf: path)
            #expect(back.width == 8 && back.height == 4, "\(suffix)")
        }
    }

    #if os(Linux)
    /// What is mapped once libvips has started: no module, unless the user's
    /// own VIPSHOME (in the environment the process started with) asked for
    /// its own install, which is left alone.
    @Test func noModuleIsLoaded() throws {
        _ = try Image.solid(width: 2, height: 2, ink: [0, 0, 0])
        let initial = try Self.whole("/proc/self/environ").split(separator: "\0")
        if let own = initial.first(where: { $0.hasPrefix("VIPSHOME=") }) {
            #expect(ProcessInfo.processInfo.environment["VIPSHOME"] == String(own.dropFirst("VIPSHOME=".count)))
            return
        }
        let maps = try Self.whole("/proc/self/maps")
        #expect(!maps.contains("vips-modules-"))
        #expect(!maps.contains("libMagickCore") && !maps.contains("libheif") && !maps.contains("libpoppler"))
        #expect(maps.contains("libvips"))
    }

    /// A /proc file whole: it claims no size, and Foundation's
    /// String(contentsOfFile:) reads such a file's first 4 KB only.
    static func whole(_ path: String) throws -> String {
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        return String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
    }
    #endif
}
