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
    /// Compares with another image of the same size (as 8-bit sRGB with alpha).
    public func blockDifference(to other: Image, block: Int) throws -> BlockDifference {
        var values: UnsafeMutablePointer<Float>?
        var columns: Int32 = 0
        var rows: Int32 = 0
        guard mcvips_block_difference(pointer, other.pointer, Int32(block), &values, &columns, &rows) == 0, let values else {
            throw ImagingError("cannot compare \(width) x \(height) with \(other.width) x \(other.height) block by block")
        }
        defer { g_free(values) }
        let count = Int(columns) * Int(rows)
        return BlockDifference(block: block, columns: Int(columns), rows: Int(rows),
                               values: Array(UnsafeBufferPointer(start: values, count: count)))
    }

    /// A `width` x `height` white picture with `pieces` placed on it, each
    /// at its top-left corner: tiles joined into one picture. Computed
    /// lazily, so only what is read of it is decoded.
    public static func assembled(width: Int, height: Int, pieces: [(image: Image, left: Int, top: Int)]) throws -> Image {
        var canvas = try solid(width: width, height: height, ink: [255, 255, 255])
        for piece in pieces {
            guard let out = mcvips_insert(canvas.pointer, piece.image.pointer, Int32(piece.left), Int32(piece.top)) else {
                throw ImagingError("cannot place a \(piece.image.width) x \(piece.image.height) piece at \(piece.left), \(piece.top)")
            }
            canvas = Image(pointer: out, parents: [canvas, piece.image])
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
