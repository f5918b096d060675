import CLCMS2
import CVipsShim
import Foundation

/// An ICC profile embedded in a picture, read with Little CMS (which
/// libvips converts colour with) before any pixel is read.
enum EmbeddedProfile {
    case none
    /// It cannot be read whole as a profile: cut short, or a table a
    /// conversion needs is damaged.
    case unreadable
    case usable(PictureFacts.Profile)

    /// Little CMS's TYPE_RGB_8, a macro of macros Swift cannot import:
    /// COLORSPACE_SH(PT_RGB) | CHANNELS_SH(3) | BYTES_SH(1).
    private static let rgb8 = cmsUInt32Number(PT_RGB) << 16 | 3 << 3 | 1

    /// The intents libvips may ask of a profile, and Little CMS's numbers.
    private static let intents: [(RenderingIntent, cmsUInt32Number)] = [
        (.perceptual, cmsUInt32Number(INTENT_PERCEPTUAL)),
        (.relativeColorimetric, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC)),
        (.saturation, cmsUInt32Number(INTENT_SATURATION)),
    ]

    init(of image: Image) {
        var data: UnsafeRawPointer?
        var length = 0
        guard vips_image_get_typeof(image.pointer, VIPS_META_ICC_NAME) != 0 else {
            self = .none
            return
        }
        guard vips_image_get_blob(image.pointer, VIPS_META_ICC_NAME, &data, &length) == 0, let data, length >= 128 else {
            self = .unreadable
            return
        }
        // A profile cut short still opens: Little CMS reads its tags only
        // when a transform needs them. Its header says how long it is.
        let bytes = UnsafeRawBufferPointer(start: data, count: length)
        let declared = bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        guard declared <= length else {
            self = .unreadable
            return
        }
        guard let profile = cmsOpenProfileFromMem(data, cmsUInt32Number(length)) else {
            vips_error_clear()
            self = .unreadable
            return
        }
        defer { cmsCloseProfile(profile) }
        self = Self.read(profile)
    }

    private static func read(_ profile: cmsHPROFILE) -> EmbeddedProfile {
        // The intents it converts from, as libvips asks Little CMS before it
        // uses a profile (it refuses a profile without the intent asked).
        let supported = intents.filter { cmsIsIntentSupported(profile, $0.1, cmsUInt32Number(LCMS_USED_AS_INPUT)) != 0 }
        let first = supported.first { $0.0 == .relativeColorimetric } ?? supported.first
        // Every tag a conversion reads is read now: a damaged table fails here.
        if let first {
            let srgb = cmsCreate_sRGBProfile()
            let transform = cmsCreateTransform(profile, cmsFormatterForColorspaceOfProfile(profile, 2, 0), srgb, rgb8, first.1, 0)
            cmsCloseProfile(srgb)
            guard let transform else {
                // Little CMS's complaint went to libvips's error buffer: it
                // must not appear under a later, unrelated failure.
                vips_error_clear()
                return .unreadable
            }
            cmsDeleteTransform(transform)
        }
        let space = spaces[cmsGetColorSpace(profile).rawValue] ?? "other"
        let named = description(profile).trimmingCharacters(in: .whitespacesAndNewlines)
        let unnamed = "an unnamed \(PictureFacts.Profile.words(space)) profile"
        return .usable(PictureFacts.Profile(description: named.isEmpty ? unnamed : named, space: space, intents: Set(supported.map(\.0))))
    }

    private static let spaces: [cmsColorSpaceSignature.RawValue: String] = [
        cmsSigRgbData.rawValue: "rgb", cmsSigCmykData.rawValue: "cmyk", cmsSigGrayData.rawValue: "grey",
        cmsSigLabData.rawValue: "lab", cmsSigXYZData.rawValue: "xyz",
    ]

    /// Its description in US English, else in the language it has.
    private static func description(_ profile: cmsHPROFILE) -> String {
        var text = [CChar](repeating: 0, count: 256)
        // Little CMS reads two bytes of each code: cmsNoLanguage is "\0\0".
        let none: [CChar] = [0, 0, 0]
        cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", &text, cmsUInt32Number(text.count))
        if text[0] == 0 {
            cmsGetProfileInfoASCII(profile, cmsInfoDescription, none, none, &text, cmsUInt32Number(text.count))
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
