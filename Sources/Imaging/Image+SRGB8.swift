import CVipsShim
import Foundation

/// mcpack's colour policy: how any picture it accepts becomes 8-bit sRGB,
/// step by step, where libvips's own conversion would round or clip.
extension Image {
    /// 8-bit sRGB (or 8-bit grey, for a grey image with no profile), alpha
    /// kept and scaled to 8 bits. With `embedded`, from the embedded
    /// profile; else from `inputProfile` when given (a file, or libvips's
    /// built-in "cmyk"); else by libvips's colourspace conversion, which
    /// scales 16-bit and float values rather than truncating them.
    func convertedToSRGB8(embedded: Bool, inputProfile: String?, intent: RenderingIntent) throws -> Image {
        let input = try unpackedLab().scaledToSixteenBits()
        let format = vips_image_get_format(input.pointer)
        let type = vips_image_get_interpretation(input.pointer)
        guard embedded || inputProfile != nil else {
            if format == VIPS_FORMAT_USHORT, type == VIPS_INTERPRETATION_RGB16 || type == VIPS_INTERPRETATION_GREY16 {
                // 16 bits to 8 by v / 257, rounded: libvips's colourspace
                // drops the low byte (v >> 8), one too high on part of the range.
                let target = type == VIPS_INTERPRETATION_GREY16 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB
                return try input.linear(1.0 / 257.0, 0.5).cast(VIPS_FORMAT_UCHAR).interpreted(as: target)
            }
            let grey = type == VIPS_INTERPRETATION_B_W || type == VIPS_INTERPRETATION_GREY16
            return try input.colourspace(grey ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB).cast(VIPS_FORMAT_UCHAR)
        }
        // The ICC path keeps extra (alpha) bands at the input's depth:
        // they are scaled to 8 bits beside the converted colour.
        let colourBands = input.bands - (input.hasAlpha ? 1 : 0)
        let colour = input.hasAlpha ? try input.extractBands(0, count: colourBands) : input
        let call = try VipsCall("icc_transform").image("in", colour).string("output_profile", "srgb")
        if embedded { call.bool("embedded", true) } else if let inputProfile { call.string("input_profile", inputProfile) }
        let converted = try call.enumeration("intent", intent.vips).int("depth", 8).outputImage()
        guard input.hasAlpha else { return converted }
        // Alpha at 16 bits (or float 0-1) to 0-255, rounded (the cast truncates).
        let scale = format == VIPS_FORMAT_USHORT ? 1.0 / 257.0 : [VIPS_FORMAT_FLOAT, VIPS_FORMAT_DOUBLE].contains(format) ? 255.0 : 1.0
        let alpha = try input.extractBands(colourBands, count: 1).linear(scale, 0.5, uchar: true)
        return try VipsCall("bandjoin").images("in", [converted, alpha]).outputImage()
    }

    /// An 8-bit CIELab TIFF is read packed (LabQ); libvips's LabQ-to-sRGB
    /// path is a coarse table that made L = 100 251 of 255. Unpacked to
    /// float Lab first, it converts exactly.
    private func unpackedLab() throws -> Image {
        guard vips_image_get_coding(pointer) == VIPS_CODING_LABQ else { return self }
        return try VipsCall("LabQ2Lab").image("in", self).outputImage()
    }

    /// 32-bit and signed integer samples scaled to 16 bits, rounding
    /// (libvips's casts clip them: a 32-bit white would be 255 of 4294967295).
    private func scaledToSixteenBits() throws -> Image {
        let format = vips_image_get_format(pointer)
        guard let white = Self.integerWhite[format] else { return self }
        let grey = bands - (hasAlpha ? 1 : 0) < 3
        return try linear(65535.0 / white, 0.5).cast(VIPS_FORMAT_USHORT)
            .interpreted(as: grey ? VIPS_INTERPRETATION_GREY16 : VIPS_INTERPRETATION_RGB16)
    }

    /// White, the largest value, of the integer formats scaled to 16 bits.
    private static let integerWhite: [VipsBandFormat: Double] = [
        VIPS_FORMAT_UINT: 4294967295.0, VIPS_FORMAT_INT: 2147483647.0, VIPS_FORMAT_SHORT: 32767.0, VIPS_FORMAT_CHAR: 127.0,
    ]
}
