import Foundation
import Imaging

/// Pictures as photographers and designers hand them over, made in code
/// from libvips's own operations (through Imaging's VipsCall), so the
/// tests need no committed files and the product carries none of this.
extension Image {
    /// Seeded Gaussian noise, 8 bits a band: detail in every tile, and the
    /// same seed gives the same pixels.
    package static func noise(width: Int, height: Int, bands: Int, seed: Int) throws -> Image {
        let planes = try (0..<bands).map { band in
            try VipsCall("gaussnoise").int("width", width).int("height", height).double("mean", 128).double("sigma", 48)
                .int("seed", seed + band).outputImage()
        }
        let joined = try VipsCall("bandjoin").images("in", planes).outputImage()
        return try VipsCall("cast").image("in", joined).enumeration("format", nick: "uchar").outputImage()
    }

    /// Converted to `profile` (a file, or libvips's "srgb", "p3", "cmyk")
    /// with the profile embedded, at `depth` bits (8 or 16).
    package func exported(toProfile profile: String, depth: Int = 8) throws -> Image {
        try VipsCall("icc_transform").image("in", self).string("output_profile", profile).string("input_profile", "srgb")
            .bool("embedded", false).int("depth", depth).enumeration("intent", nick: "relative").outputImage()
    }

    /// Rotated clockwise by quarter turns.
    package func rotated(quarterTurns: Int) throws -> Image {
        let angle = ["d0", "d90", "d180", "d270"][(quarterTurns % 4 + 4) % 4]
        return try VipsCall("rot").image("in", self).enumeration("angle", nick: angle).outputImage()
    }

    /// The same pixels with an EXIF orientation tag (1-8).
    package func tagged(orientation: Int) throws -> Image {
        try withMetadata("orientation", int: orientation)
    }

    /// The same pixels with `profile` attached as their ICC profile, as it
    /// is (a damaged one too).
    package func withProfile(_ profile: Data) throws -> Image {
        try withMetadata("icc-profile-data", bytes: profile)
    }

    /// 16 bits per band, values scaled (RGB16, or GREY16 for grey).
    package func sixteenBit() throws -> Image {
        try colourspace(bands >= 3 ? "rgb16" : "grey16")
    }

    /// CIE Lab, as float (libvips's Lab).
    package func lab() throws -> Image { try colourspace("lab") }

    /// CIE Lab packed into 8 bits a channel (libvips's LabQ), which a TIFF
    /// stores as 8-bit CIELab.
    package func labQ() throws -> Image { try colourspace("labq") }

    private func colourspace(_ space: String) throws -> Image {
        try VipsCall("colourspace").image("in", self).enumeration("space", nick: space).outputImage()
    }

    /// 8-bit values at 16 or 32 bits an integer, each multiplied by
    /// `factor`; by default the same share of the range (255 becomes 65535
    /// or 4294967295).
    package func deepened(bits: Int, factor: Double? = nil) throws -> Image {
        let scaled = try VipsCall("linear").image("in", self).doubles("a", [factor ?? (bits == 16 ? 257 : 16_843_009)]).doubles("b", [0])
            .outputImage()
        let deep = try VipsCall("cast").image("in", scaled).enumeration("format", nick: bits == 16 ? "ushort" : "uint").outputImage()
        let grey = bands < 3
        let space = bits == 16 ? (grey ? "grey16" : "rgb16") : (grey ? "b-w" : "srgb")
        return try VipsCall("copy").image("in", deep).enumeration("interpretation", nick: space).outputImage()
    }

    /// Writes a file as its suffix says (`.tif`, `.png`, `.jpg`), keeping
    /// the profile and orientation tag.
    package func writeKeepingMetadata(to path: String) throws {
        try write(to: path, keepingMetadata: true)
    }

    /// The mean of each band, decoding every pixel.
    package func bandMeans() throws -> [Double] {
        try (0..<bands).map { band in
            let one = try VipsCall("extract_band").image("in", self).int("band", band).outputImage()
            return try VipsCall("avg").image("in", one).outputDouble()
        }
    }
}
