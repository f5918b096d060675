import CVipsShim
import Foundation

/// What an image file holds before mcpack converts it: its colour space,
/// depth, orientation and embedded profile.
public struct PictureFacts: Sendable, Equatable {
    public struct Profile: Sendable, Equatable {
        /// The profile's own description ("Adobe RGB (1998)").
        public var description: String
        /// "rgb", "cmyk", "grey", "lab", "xyz" or "other".
        public var space: String
        /// The rendering intents it converts from: many scanner and camera
        /// profiles, and the XYB profile jpegli writes, have perceptual
        /// tables only.
        public var intents: Set<RenderingIntent>

        /// A colour space as a message names it: "RGB", "CMYK", "grey".
        public static func words(_ space: String) -> String {
            ["rgb": "RGB", "cmyk": "CMYK", "grey": "grey", "lab": "Lab", "xyz": "XYZ"][space] ?? "other colour space's"
        }
    }

    /// libvips's name for the colour space ("srgb", "rgb16", "cmyk",
    /// "b-w", "grey16", "lab", "scrgb", ...).
    public var interpretation: String
    /// Bits per band: 8, 16, 32 (integer or float) or 64.
    public var bits: Int
    /// Floating-point samples (0 to 1 for scRGB and grey); else integers.
    public var float: Bool = false
    /// The largest integer sample, white: 255, 65535, 4294967295 (signed
    /// formats: their largest positive value).
    public var integerMax: UInt64 = 255
    /// The EXIF orientation, 1 (as stored) to 8.
    public var orientation: Int
    public var hasAlpha: Bool
    /// The embedded ICC profile, nil when there is none.
    public var profile: Profile?
    /// True when the file embeds a profile that cannot be read as one.
    public var profileUnreadable: Bool

    /// Orientations 5 to 8 turn the picture a quarter: width and height swap.
    public var turnsQuarter: Bool { orientation >= 5 }
}

/// How colours outside the target space are brought in (ICC rendering intents).
public enum RenderingIntent: String, Sendable, CaseIterable {
    /// In-gamut colours unchanged, the others clipped to the nearest.
    case relativeColorimetric = "relative colorimetric"
    case perceptual
    case saturation

    var vips: Int32 {
        switch self {
        case .relativeColorimetric: return Int32(VIPS_INTENT_RELATIVE.rawValue)
        case .perceptual: return Int32(VIPS_INTENT_PERCEPTUAL.rawValue)
        case .saturation: return Int32(VIPS_INTENT_SATURATION.rawValue)
        }
    }
}

extension Image {
    /// What the file holds, read from the header: nothing is decoded.
    public var pictureFacts: PictureFacts {
        let interpretation = vips_image_get_interpretation(pointer)
        let name = vips_enum_nick(vips_interpretation_get_type(), Int32(interpretation.rawValue)).map { String(cString: $0) } ?? "unknown"
        let bits = Int(vips_format_sizeof(vips_image_get_format(pointer))) * 8
        var description = [CChar](repeating: 0, count: 256)
        var space: CChar = 0
        var intents: Int32 = 0
        let found = mcvips_icc_profile(pointer, &description, description.count, &space, &intents)
        let spaces: [UInt8: String] = [UInt8(ascii: "R"): "rgb", UInt8(ascii: "C"): "cmyk", UInt8(ascii: "G"): "grey", UInt8(ascii: "L"): "lab",
                                       UInt8(ascii: "X"): "xyz"]
        let kind = spaces[UInt8(bitPattern: space)] ?? "other"
        let named = String(cString: description).trimmingCharacters(in: .whitespacesAndNewlines)
        let supported = Set(zip([RenderingIntent.perceptual, .relativeColorimetric, .saturation], 0...).filter { intents & (1 << $0.1) != 0 }.map(\.0))
        let unnamed = "an unnamed \(PictureFacts.Profile.words(kind)) profile"
        let profile = found == 1 ? PictureFacts.Profile(description: named.isEmpty ? unnamed : named, space: kind, intents: supported) : nil
        let format = vips_image_get_format(pointer)
        let float = [VIPS_FORMAT_FLOAT, VIPS_FORMAT_DOUBLE, VIPS_FORMAT_COMPLEX, VIPS_FORMAT_DPCOMPLEX].contains(format)
        let signed = [VIPS_FORMAT_CHAR, VIPS_FORMAT_SHORT, VIPS_FORMAT_INT].contains(format)
        let integerMax: UInt64 = bits >= 64 ? UInt64.max : (1 << UInt64(bits - (signed ? 1 : 0))) - 1
        return PictureFacts(interpretation: name, bits: bits, float: float, integerMax: integerMax, orientation: Int(mcvips_orientation(pointer)),
                            hasAlpha: hasAlpha, profile: profile, profileUnreadable: found == -1)
    }

    /// Turned as the EXIF orientation says, so it is seen as a person sees it.
    public func autorotated() throws -> Image {
        guard let out = mcvips_autorot(pointer) else { throw ImagingError("cannot apply the EXIF orientation") }
        return Image(pointer: out, parents: [self])
    }

    /// Where the colours come from when converting to sRGB.
    public enum ColourSource: Sendable {
        /// The profile embedded in the file.
        case embedded
        /// A profile mcpack assumes: a file, or libvips's built-in "cmyk".
        case assumed(String)
        /// No profile: libvips's own conversion of the colour space (RGB
        /// taken as sRGB, Lab, 16-bit and float scaled to 8 bits).
        case colourspace
    }

    /// How many colour warnings libvips has given in this process (a profile
    /// it could not use, replaced by sRGB): read around a conversion to
    /// know it happened.
    public static var colourWarnings: Int { Int(mcvips_colour_warnings()) }

    /// 8-bit sRGB (8-bit grey for a grey picture with no profile), alpha
    /// kept at 8 bits. Computed lazily, so it streams with what reads it.
    public func srgb8(from source: ColourSource, intent: RenderingIntent = .relativeColorimetric) throws -> Image {
        let out: UnsafeMutablePointer<VipsImage>?
        switch source {
        case .embedded: out = mcvips_to_srgb8(pointer, 1, nil, intent.vips)
        case .assumed(let profile): out = mcvips_to_srgb8(pointer, 0, profile, intent.vips)
        case .colourspace: out = mcvips_to_srgb8(pointer, 0, nil, intent.vips)
        }
        guard let out else { throw ImagingError("cannot convert the colours to sRGB") }
        return Image(pointer: out, parents: [self])
    }
}

/// Pictures as photographers and designers hand them over, made from an
/// sRGB one: for tests, and for the benchmark's 16-bit Adobe RGB master.
extension Image {
    /// Converted to `profile` (a file, or libvips's "srgb", "p3", "cmyk")
    /// with the profile embedded, at `depth` bits (8 or 16).
    public func exported(toProfile profile: String, depth: Int = 8) throws -> Image {
        guard let out = mcvips_icc_export(pointer, profile, Int32(depth)) else { throw ImagingError("cannot convert to \(profile)") }
        return Image(pointer: out, parents: [self])
    }

    /// Rotated clockwise by quarter turns.
    public func rotated(quarterTurns: Int) throws -> Image {
        guard let out = mcvips_rotate(pointer, Int32(quarterTurns)) else { throw ImagingError("cannot rotate") }
        return Image(pointer: out, parents: [self])
    }

    /// The same pixels with an EXIF orientation tag (1-8).
    public func tagged(orientation: Int) throws -> Image {
        guard let out = mcvips_with_orientation(pointer, Int32(orientation)) else { throw ImagingError("cannot tag") }
        return Image(pointer: out, parents: [self])
    }

    /// 16 bits per band, values scaled (RGB16, or GREY16 for grey).
    public func sixteenBit() throws -> Image {
        let target = bands >= 3 ? VIPS_INTERPRETATION_RGB16 : VIPS_INTERPRETATION_GREY16
        guard let out = mcvips_colourspace(pointer, Int32(target.rawValue)) else { throw ImagingError("cannot make 16-bit") }
        return Image(pointer: out, parents: [self])
    }

    /// Grey (one band, or two with alpha).
    public func grey() throws -> Image {
        guard let out = mcvips_colourspace(pointer, Int32(VIPS_INTERPRETATION_B_W.rawValue)) else { throw ImagingError("cannot make grey") }
        return Image(pointer: out, parents: [self])
    }

    /// Writes a file as its suffix says (`.tif`, `.png`, `.jpg`), keeping
    /// the profile and orientation tag.
    public func writeKeepingMetadata(to path: String) throws {
        guard mcvips_write_file_keeping_metadata(pointer, path) == 0 else { throw ImagingError("cannot write \(path)") }
    }

    /// The mean of each band, decoding every pixel.
    public func bandMeans() throws -> [Double] {
        try (0..<bands).map { band in
            var mean = 0.0
            guard mcvips_band_mean(pointer, Int32(band), &mean) == 0 else { throw ImagingError("cannot read band \(band)") }
            return mean
        }
    }
}

/// Pictures with what photographers' files carry, for tests.
extension Image {
    /// An RGB input profile with perceptual tables only (as many scanner
    /// profiles and jpegli's XYB are) that reads device (r, g, b) as the
    /// sRGB colour (g, b, r), made with Little CMS.
    public static func perceptualOnlyTestProfile() throws -> Data {
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        guard mcvips_test_perceptual_profile(&bytes, &length) == 0, let bytes else { throw ImagingError("cannot make the test profile") }
        defer { g_free(bytes) }
        return Data(bytes: bytes, count: length)
    }

    /// The same pixels with `profile` attached as their ICC profile, as it
    /// is (a damaged one too).
    public func withProfile(_ profile: Data) throws -> Image {
        let out = profile.withUnsafeBytes { mcvips_with_profile(pointer, $0.baseAddress, $0.count) }
        guard let out else { throw ImagingError("cannot attach a profile") }
        return Image(pointer: out, parents: [self])
    }

    /// 8-bit values at 16 or 32 bits an integer, each multiplied by
    /// `factor`; by default the same share of the range (255 becomes 65535
    /// or 4294967295).
    public func deepened(bits: Int, factor: Double? = nil) throws -> Image {
        let format = bits == 16 ? VIPS_FORMAT_USHORT : VIPS_FORMAT_UINT
        guard let out = mcvips_test_deepen(pointer, Int32(format.rawValue), factor ?? (bits == 16 ? 257 : 16_843_009)) else {
            throw ImagingError("cannot make \(bits)-bit")
        }
        return Image(pointer: out, parents: [self])
    }

    /// CIE Lab, as float (libvips's Lab).
    public func lab() throws -> Image {
        guard let out = mcvips_colourspace(pointer, Int32(VIPS_INTERPRETATION_LAB.rawValue)) else { throw ImagingError("cannot make Lab") }
        return Image(pointer: out, parents: [self])
    }

    /// CIE Lab packed into 8 bits a channel (libvips's LabQ), which a TIFF
    /// stores as 8-bit CIELab.
    public func labQ() throws -> Image {
        guard let out = mcvips_colourspace(pointer, Int32(VIPS_INTERPRETATION_LABQ.rawValue)) else { throw ImagingError("cannot make LabQ") }
        return Image(pointer: out, parents: [self])
    }
}
