import CVipsShim
import Foundation

/// How two pictures of one size differ block by block: of each `block` x
/// `block` px block, the largest absolute difference of any band's mean.
/// A retouch moves block means; JPEG re-encoding mostly moves single pixels
/// around a mean it keeps, so this tells the two apart where a per-pixel
/// comparison cannot.
public struct BlockDifference: Sendable, Equatable {
    public var block: Int
    public var columns: Int
    public var rows: Int
    /// Row by row, 0...255.
    public var values: [Float]

    public var largest: Float { values.max() ?? 0 }

    /// The blocks whose difference is above `threshold`, as (column, row).
    public func blocks(above threshold: Float) -> [(column: Int, row: Int)] {
        values.indices.filter { values[$0] > threshold }.map { ($0 % columns, $0 / columns) }
    }
}

extension Image {
    /// Compares with another image of the same size (as 8-bit sRGB with
    /// alpha): the signed difference, averaged over each block before its
    /// size is taken, so JPEG's error, detail around a mean it keeps, cancels.
    public func blockDifference(to other: Image, block: Int) throws -> BlockDifference {
        let what = "cannot compare \(width) x \(height) with \(other.width) x \(other.height) block by block"
        guard width == other.width, height == other.height, block >= 1 else {
            throw ImagingError(what, cause: "the images differ in size")
        }
        return try ImagingError.renamed(what) {
            // Two tiles of one pyramid are alike (8-bit sRGB, same bands):
            // compared as they are, without the conversions that make any
            // two pictures comparable, which cost more than the decode on
            // thousands of tiles.
            let alike = isSRGB8 && other.isSRGB8 && bands == other.bands
            let difference = try (alike ? self : rgba8()).subtracting(alike ? other : other.rgba8()).cast(VIPS_FORMAT_FLOAT)
            // A block never larger than the image: a 1 x 1 top tile is one block.
            let means = try VipsCall("shrink").image("in", difference)
                .double("hshrink", Double(min(block, width))).double("vshrink", Double(min(block, height))).outputImage()
            let sizes = try VipsCall("abs").image("in", means).outputImage()
            return BlockDifference(block: block, columns: sizes.width, rows: sizes.height, values: try sizes.largestBandPerPixel())
        }
    }

    private var isSRGB8: Bool {
        vips_image_get_format(pointer) == VIPS_FORMAT_UCHAR && vips_image_get_interpretation(pointer) == VIPS_INTERPRETATION_sRGB
    }

    /// Of each pixel of a float image, its largest band, row by row.
    private func largestBandPerPixel() throws -> [Float] {
        var size = 0
        guard let memory = vips_image_write_to_memory(pointer, &size) else { throw ImagingError("cannot compute the image") }
        defer { g_free(memory) }
        let (count, bands) = (width * height, self.bands)
        guard size == count * bands * MemoryLayout<Float>.size else { throw ImagingError("libvips made no float image") }
        let pixels = UnsafeBufferPointer(start: memory.assumingMemoryBound(to: Float.self), count: count * bands)
        return (0..<count).map { pixel in
            (0..<bands).reduce(Float(0)) { largest, band in max(largest, pixels[pixel * bands + band]) }
        }
    }

    /// A `width` x `height` white picture with `pieces` placed on it, each
    /// at its top-left corner: tiles joined into one picture. Computed
    /// lazily, so only what is read of it is decoded.
    public static func assembled(width: Int, height: Int, pieces: [(image: Image, left: Int, top: Int)]) throws -> Image {
        var canvas = try solid(width: width, height: height, ink: [255, 255, 255])
        for piece in pieces {
            canvas = try ImagingError.renamed("cannot place a \(piece.image.width) x \(piece.image.height) piece at \(piece.left), \(piece.top)") {
                try VipsCall("insert").image("main", canvas).image("sub", piece.image).int("x", piece.left).int("y", piece.top).outputImage()
            }
        }
        return canvas
    }

    /// Baseline JPEG no larger than `side` px either way, as 8-bit sRGB:
    /// for photographs on a report page, where a PNG would be several
    /// times larger.
    public func previewJPEG(side: Int, quality: Int = 85) throws -> Data {
        let scale = min(1, Double(side) / Double(max(width, height)))
        let sized = scale < 1 ? try resized(width: max(1, Int((Double(width) * scale).rounded())), height: max(1, Int((Double(height) * scale).rounded()))) : self
        return try sized.srgb().jpegData(quality: quality)
    }
}
