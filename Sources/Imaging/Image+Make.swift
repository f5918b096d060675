import CVipsShim
import Foundation

extension Image {
    /// An image of one colour; `ink` has one value (0...255) per band.
    public static func solid(width: Int, height: Int, ink: [Double]) throws -> Image {
        let what = "cannot make a \(width) x \(height) image"
        guard (1...16).contains(ink.count) else { throw ImagingError(what, cause: nil) }
        return try ImagingError.renamed(what) {
            let black = try VipsCall("black").int("width", width).int("height", height).int("bands", ink.count).outputImage()
            let lit = try VipsCall("linear").image("in", black).doubles("a", Array(repeating: 0, count: ink.count)).doubles("b", ink).outputImage()
            // Said to be sRGB (or grey), as a file of it would be read back.
            return try lit.cast(VIPS_FORMAT_UCHAR).interpreted(as: ink.count >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W)
        }
    }

    /// PNG bytes without metadata; `compression` 0...9.
    public func pngData(compression: Int = 6) throws -> Data {
        try encoded { mcvips_pngsave_buffer(pointer, &$0, &$1, Int32(compression), 1) }
    }

    /// Baseline JPEG bytes without metadata.
    public func jpegData(quality: Int = 85) throws -> Data {
        try encoded { mcvips_jpegsave_buffer(pointer, &$0, &$1, Int32(quality), 1) }
    }

    /// Writes a file in the format its suffix names (.png, .jpg, .tif, ...),
    /// without metadata.
    public func write(to path: String) throws {
        try write(to: path, keepingMetadata: false)
    }

    /// With `keepingMetadata`, the profile and orientation tag are written
    /// too: files as photographers deliver them, which only tests make.
    package func write(to path: String, keepingMetadata: Bool) throws {
        guard mcvips_write_file(pointer, path, keepingMetadata ? 0 : 1) == 0 else { throw ImagingError("cannot write \(path)") }
    }

    /// A copy with `field` of its metadata set (pixels untouched): an
    /// orientation tag, a profile, as a file may carry them.
    package func withMetadata(_ field: String, int number: Int) throws -> Image {
        let copy = try VipsCall("copy").image("in", self).outputImage()
        vips_image_set_int(copy.pointer, field, Int32(number))
        return copy
    }

    /// A copy with `bytes` as `field` of its metadata, whatever they hold
    /// (a damaged profile too).
    package func withMetadata(_ field: String, bytes: Data) throws -> Image {
        let copy = try VipsCall("copy").image("in", self).outputImage()
        bytes.withUnsafeBytes { vips_image_set_blob_copy(copy.pointer, field, $0.baseAddress, $0.count) }
        return copy
    }

    private func encoded(_ save: (inout UnsafeMutableRawPointer?, inout Int) -> Int32) throws -> Data {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard save(&buffer, &length) == 0, let buffer else { throw ImagingError("cannot encode the image") }
        defer { g_free(buffer) }
        return Data(bytes: buffer, count: length)
    }
}
