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

    var vips: VipsIntent {
        switch self {
        case .relativeColorimetric: return VIPS_INTENT_RELATIVE
        case .perceptual: return VIPS_INTENT_PERCEPTUAL
        case .saturation: return VIPS_INTENT_SATURATION
        }
    }
}

extension Image {
    /// What the file holds, read from the header: nothing is decoded.
    public var pictureFacts: PictureFacts {
        let interpretation = vips_image_get_interpretation(pointer)
        let name = vips_enum_nick(vips_interpretation_get_type(), Int32(interpretation.rawValue)).map { String(cString: $0) } ?? "unknown"
        let format = vips_image_get_format(pointer)
        let bits = Int(vips_format_sizeof(format)) * 8
        let float = [VIPS_FORMAT_FLOAT, VIPS_FORMAT_DOUBLE, VIPS_FORMAT_COMPLEX, VIPS_FORMAT_DPCOMPLEX].contains(format)
        let signed = [VIPS_FORMAT_CHAR, VIPS_FORMAT_SHORT, VIPS_FORMAT_INT].contains(format)
        let integerMax: UInt64 = bits >= 64 ? UInt64.max : (1 << UInt64(bits - (signed ? 1 : 0))) - 1
        let embedded = EmbeddedProfile(of: self)
        var profile: PictureFacts.Profile?
        if case .usable(let usable) = embedded { profile = usable }
        var unreadable = false
        if case .unreadable = embedded { unreadable = true }
        return PictureFacts(interpretation: name, bits: bits, float: float, integerMax: integerMax, orientation: orientation,
                            hasAlpha: hasAlpha, profile: profile, profileUnreadable: unreadable)
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
    public static var colourWarnings: Int { ColourWarnings.seen }

    /// 8-bit sRGB (8-bit grey for a grey picture with no profile), alpha
    /// kept at 8 bits. Computed lazily, so it streams with what reads it.
    public func srgb8(from source: ColourSource, intent: RenderingIntent = .relativeColorimetric) throws -> Image {
        try ImagingError.renamed("cannot convert the colours to sRGB") {
            switch source {
            case .embedded: return try convertedToSRGB8(embedded: true, inputProfile: nil, intent: intent)
            case .assumed(let profile): return try convertedToSRGB8(embedded: false, inputProfile: profile, intent: intent)
            case .colourspace: return try convertedToSRGB8(embedded: false, inputProfile: nil, intent: intent)
            }
        }
    }
}
