import CVipsShim
import Foundation

extension Image {
    /// An image of one colour; `ink` has one value (0...255) per band.
    public static func solid(width: Int, height: Int, ink: [Double]) throws -> Image {
        try Library.ensureStarted()
        guard let image = ink.withUnsafeBufferPointer({ mcvips_new_solid(Int32(width), Int32(height), Int32(ink.count), $0.baseAddress) }) else {
            throw ImagingError("cannot make a \(width) x \(height) image")
        }
        return Image(pointer: image)
    }

    /// Seeded noise: the same seed gives the same pixels.
    public static func noise(width: Int, height: Int, bands: Int, seed: Int) throws -> Image {
        try Library.ensureStarted()
        guard let image = mcvips_new_noise(Int32(width), Int32(height), Int32(bands), Int32(seed)) else {
            throw ImagingError("cannot make a \(width) x \(height) image")
        }
        return Image(pointer: image)
    }

    /// PNG bytes without metadata; `compression` 0...9.
    public func pngData(compression: Int = 6) throws -> Data {
        try encoded { mcvips_pngsave_buffer(pointer, &$0, &$1, Int32(compression)) }
    }

    /// Baseline JPEG bytes without metadata.
    public func jpegData(quality: Int = 85) throws -> Data {
        try encoded { mcvips_jpegsave_buffer(pointer, &$0, &$1, Int32(quality)) }
    }

    /// Writes a file in the format its suffix names (.png, .jpg, .tif, ...).
    public func write(to path: String) throws {
        guard mcvips_write_file(pointer, path) == 0 else { throw ImagingError("cannot write \(path)") }
    }

    private func encoded(_ save: (inout UnsafeMutableRawPointer?, inout Int) -> Int32) throws -> Data {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard save(&buffer, &length) == 0, let buffer else { throw ImagingError("cannot encode the image") }
        defer { g_free(buffer) }
        return Data(bytes: buffer, count: length)
    }
}
