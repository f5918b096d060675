import CVipsShim
import Foundation

/// How two pictures differ, pixel by pixel.
public struct PixelDifference: Sendable, Equatable {
    /// False when the sizes differ; the other fields are then 1 and nil.
    public var sameSize: Bool
    /// The fraction of pixels that differ in any band, 0...1.
    public var changedFraction: Double
    /// The mean absolute difference per band, 0...255.
    public var meanDifference: Double
    /// The largest difference of any band of any pixel, 0...255.
    public var largestDifference: Double = 255

    public var identical: Bool { sameSize && changedFraction == 0 }
}

extension Image {
    /// Compares decoded pixels (as 8-bit sRGB with alpha), so a PNG saved
    /// again at another compression level compares identical.
    public func pixelDifference(to other: Image) throws -> PixelDifference {
        guard width == other.width, height == other.height else {
            return PixelDifference(sameSize: false, changedFraction: 1, meanDifference: 255)
        }
        return try ImagingError.renamed("cannot compare the images") {
            let size = try VipsCall("abs").image("in", try rgba8().subtracting(other.rgba8())).outputImage()
            let mean = try VipsCall("avg").image("in", size).outputDouble()
            let largest = try VipsCall("max").image("in", size).outputDouble()
            // 255 where any band differs, 0 elsewhere: its mean is the share changed.
            let any = try VipsCall("bandbool").image("in", size).enumeration("boolean", VIPS_OPERATION_BOOLEAN_OR).outputImage()
            let changed = try VipsCall("relational_const").image("in", any).enumeration("relational", VIPS_OPERATION_RELATIONAL_MORE)
                .doubles("c", [0]).outputImage()
            let share = try VipsCall("avg").image("in", changed).outputDouble() / 255.0
            return PixelDifference(sameSize: true, changedFraction: share, meanDifference: mean, largestDifference: largest)
        }
    }

    /// 8-bit sRGB with an alpha band, so an RGB and an RGBA file of the
    /// same picture compare equal.
    func rgba8() throws -> Image {
        let rgb = try colourspace(VIPS_INTERPRETATION_sRGB)
        let withAlpha = rgb.hasAlpha ? rgb : try VipsCall("bandjoin_const").image("in", rgb).doubles("c", [255]).outputImage()
        return try withAlpha.cast(VIPS_FORMAT_UCHAR)
    }

    /// This image minus `other`, band by band, signed.
    func subtracting(_ other: Image) throws -> Image {
        try VipsCall("subtract").image("left", self).image("right", other).outputImage()
    }
}

extension Image {
    /// Where this image and another of the same size differ, brightened so
    /// small changes show.
    public func differenceImage(to other: Image) throws -> Image {
        try ImagingError.renamed("cannot compare the images") {
            // The absolute difference, brightened four times, without alpha.
            let size = try VipsCall("abs").image("in", try rgba8().subtracting(other.rgba8())).outputImage()
            return try size.linear(4, 0).extractBands(0, count: 3).cast(VIPS_FORMAT_UCHAR)
        }
    }

    /// A PNG no larger than `side` px either way, for a report page.
    public func previewPNG(side: Int = 320) throws -> Data {
        let scale = min(1, Double(side) / Double(max(width, height)))
        let sized = scale < 1 ? try resized(width: max(1, Int(Double(width) * scale)), height: max(1, Int(Double(height) * scale))) : self
        return try sized.srgb().pngData()
    }
}
