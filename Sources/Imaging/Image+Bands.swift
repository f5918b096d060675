import CVipsShim
import Foundation

/// What an icon check asks of a picture's bands: is its alpha opaque
/// everywhere, are its colours grey. Each reads every pixel through
/// libvips's own operations (`extract_band`, `subtract`, `abs`, `min`,
/// `max`), called through its generic operation interface (VipsCall).
extension Image {
    /// The largest value a band of this picture holds, what libvips counts
    /// as opaque (its own rule, vips_interpretation_max_alpha, is not in
    /// 8.14's public headers): 65535 for 16-bit, 1 for scRGB, else 255.
    public var bandMaximum: Double {
        switch vips_image_get_interpretation(pointer) {
        case VIPS_INTERPRETATION_GREY16, VIPS_INTERPRETATION_RGB16: return 65535
        case VIPS_INTERPRETATION_scRGB: return 1
        default: return 255
        }
    }

    /// The smallest value of one band over every pixel.
    public func bandMinimum(_ index: Int) throws -> Double {
        try VipsCall("min").image("in", try band(index)).outputDouble()
    }

    /// True when there is no alpha band, or when every pixel's alpha is
    /// the largest value its format holds: the band is there, but nothing
    /// shows through.
    public func alphaIsOpaque() throws -> Bool {
        guard hasAlpha else { return true }
        return try bandMinimum(bands - 1) >= bandMaximum
    }

    /// The same picture without its alpha band, every other value as it
    /// was: for an alpha band that `alphaIsOpaque` says hides nothing.
    public func droppingAlpha() throws -> Image {
        guard hasAlpha else { return self }
        return try extractBands(0, count: bands - 1)
    }

    /// How far from grey the most colourful pixel is: the largest
    /// difference between its red, green and blue values, in 8-bit levels
    /// (0...255) whatever the depth. 0 for a picture of one or two bands,
    /// and for an RGB one whose every pixel has red = green = blue.
    public func largestChannelDifference() throws -> Double {
        guard bands >= 3 else { return 0 }
        let (red, green, blue) = (try band(0), try band(1), try band(2))
        var largest = 0.0
        for (a, b) in [(red, green), (green, blue), (red, blue)] {
            let size = try VipsCall("abs").image("in", try a.subtracting(b)).outputImage()
            largest = max(largest, try VipsCall("max").image("in", size).outputDouble())
        }
        return largest * 255 / bandMaximum
    }

    /// One band, as a one-band picture.
    func band(_ index: Int) throws -> Image { try extractBands(index, count: 1) }
}
