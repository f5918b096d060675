import Foundation
import MCPackSchema
import Imaging

/// The one import step every picture input goes through (the master, the
/// icon master, the launch layers, the category icons), so that every
/// picture in an archive is 8-bit sRGB as a person sees it, whatever file
/// the photographer or designer handed over:
///
/// - the EXIF orientation is applied first, so every size check, overlay
///   and screen sees the picture upright;
/// - an embedded ICC profile is honoured: the pixels are converted from it
///   to sRGB with the relative colorimetric intent, which keeps every colour
///   sRGB can show exactly as measured and clips only those it cannot (a
///   scan of a document is judged by the colours it has, not made to look
///   plausible as perceptual rendering would). A profile without relative
///   colorimetric tables (many scanner and camera profiles, jpegli's XYB)
///   is converted with the intent it has, perceptual then saturation, and
///   the record says which; one with none, or damaged, is refused;
/// - without a profile, RGB is taken as sRGB, CMYK is converted through
///   libvips's built-in CMYK profile (and the record says so), Lab and
///   float become sRGB, grey stays grey;
/// - 16-bit, 32-bit and float values are scaled to 8 bits by their real
///   range, rounding (v / 257 for 16 bits), not truncated or clipped.
///
/// What ships is untagged: iOS, browsers and IIIF viewers take untagged
/// pictures as sRGB. A picture that is already 8-bit sRGB, upright and
/// untagged goes through unchanged, byte for byte where it is shipped as is.
package enum PictureImport {
    /// The intent asked for; a profile without it is converted with the
    /// first of `fallbackIntents` it has.
    package static let intent = RenderingIntent.relativeColorimetric
    package static let fallbackIntents: [RenderingIntent] = [.perceptual, .saturation]

    /// The intent a profile is converted with, nil when it has none.
    package static func intent(for profile: PictureFacts.Profile) -> RenderingIntent? {
        ([intent] + fallbackIntents).first { profile.intents.contains($0) }
    }

    /// What bundle.json records of a picture input: what the file was, and
    /// each conversion made.
    package typealias Record = PictureRecord

    /// Why a shipped picture is not what every viewer shows right (8-bit
    /// sRGB or grey, untagged or tagged sRGB), or nil when it is.
    package static func notSRGB(_ image: Image) -> String? {
        let facts = image.pictureFacts
        if !["srgb", "b-w"].contains(facts.interpretation) || facts.bits != 8 {
            return "is \(facts.interpretation) at \(facts.bits) bits; a shipped picture must be 8-bit sRGB"
        }
        if let profile = facts.profile, !profile.description.localizedCaseInsensitiveContains("srgb") {
            return "carries the colour profile \"\(profile.description)\"; a shipped picture must be sRGB"
        }
        return nil
    }

    /// What a diff says of a picture input whose source or conversions
    /// changed: one line, old and new.
    package static func describe(_ record: Record?) -> String {
        guard let record else { return "(not recorded)" }
        let source = [record.profile.map { "profile \"\($0)\"" }, "\(record.colourSpace) \(record.bits)-bit",
                      record.orientation == 1 ? nil : "EXIF orientation \(record.orientation)"].compactMap { $0 }.joined(separator: ", ")
        return record.conversions.isEmpty ? "\(source), unchanged" : "\(source); " + record.conversions.joined(separator: "; ")
    }

    /// A change of what a picture input was or what was done to it.
    package static func change(_ component: String, field: String, _ old: Record?, _ new: Record?) -> [Change] {
        guard old != new else { return [] }
        return [Change(component, "changed", field: field, old: describe(old), new: describe(new))]
    }

    /// Colour spaces a picture can be converted from.
    package static let convertible: Set<String> = ["srgb", "rgb", "rgb16", "b-w", "grey16", "cmyk", "lab", "labs", "scrgb", "xyz", "lch", "cmc", "hsv", "yxy"]

    /// A picture read and checked, ready to convert.
    package struct Checked: Sendable {
        package var facts: PictureFacts
        /// Width and height as displayed (after the EXIF orientation).
        package var width: Int
        package var height: Int

        /// How a size message names the orientation, when it matters.
        package var sizeNote: String {
            guard facts.orientation != 1 else { return "" }
            return " as displayed; its file stores it \(facts.turnsQuarter ? "turned a quarter" : "turned or mirrored"), EXIF orientation \(facts.orientation)"
        }

        /// Nothing to do: 8-bit sRGB or grey, no profile, upright.
        package var unchanged: Bool {
            facts.orientation == 1 && facts.profile == nil && facts.bits == 8 && ["srgb", "b-w"].contains(facts.interpretation)
        }
    }

    /// Reads what the picture is, and says what is wrong if it cannot be
    /// converted (an unreadable profile, one of another colour space than
    /// the pixels, a colour space with no conversion). Reads the header,
    /// and converts one pixel to prove the profile is one libvips can use.
    package static func check(_ image: Image, path: String, env: CheckEnvironment) -> Checked? {
        let facts = image.pictureFacts
        if facts.profileUnreadable {
            env.problem(path, "embeds an ICC colour profile that cannot be read whole (cut short or damaged, or not a profile); export the picture again with its profile, or as sRGB")
            return nil
        }
        if let profile = facts.profile, intent(for: profile) == nil {
            env.problem(path, "embeds the ICC profile \"\(profile.description)\", which has no tables to convert its colours from (no rendering intent); export the picture again as sRGB")
            return nil
        }
        let colourBands = image.bands - (facts.hasAlpha ? 1 : 0)
        let expected = ["cmyk": 4, "b-w": 1, "grey16": 1][facts.interpretation] ?? 3
        guard convertible.contains(facts.interpretation), colourBands == expected else {
            env.problem(path, "is in the \(facts.interpretation) colour space with \(image.bands) channels, which mcpack cannot convert to sRGB; export it as RGB, CMYK or greyscale")
            return nil
        }
        if let profile = facts.profile {
            let pixels = ["cmyk": "cmyk", "b-w": "grey", "grey16": "grey", "lab": "lab", "labs": "lab"][facts.interpretation] ?? "rgb"
            guard profile.space == pixels else {
                let words = PictureFacts.Profile.words
                env.problem(path, "embeds the ICC profile \"\(profile.description)\", a profile for \(words(profile.space)) colours, but its pixels are \(words(pixels)); export it again with a matching profile")
                return nil
            }
        }
        let checked = Checked(facts: facts, width: facts.turnsQuarter ? image.height : image.width,
                              height: facts.turnsQuarter ? image.width : image.height)
        if !checked.unchanged {
            let named = facts.profile.map { " with its ICC profile \"\($0.description)\"" } ?? ""
            // libvips does not fail a conversion it cannot make from a
            // profile: it warns and takes the pixels as sRGB. A warning
            // here is a conversion that would not happen.
            let warnings = Image.colourWarnings
            do {
                try converted(image.cropped(left: 0, top: 0, width: 1, height: 1), checked).image.decodeAll()
            } catch {
                env.problem(path, "cannot be converted to sRGB\(named): \(error)")
                return nil
            }
            if facts.profile != nil, Image.colourWarnings != warnings {
                env.problem(path, "cannot be converted to sRGB\(named): the image library could not use the profile and would have taken the colours as sRGB; export the picture again as sRGB")
                return nil
            }
        }
        return checked
    }

    /// The picture as a person sees it (upright, 8-bit sRGB), for comparing
    /// two files of one picture; the image itself when it cannot be converted.
    package static func displayed(_ image: Image) -> Image {
        let facts = image.pictureFacts
        guard !facts.profileUnreadable, convertible.contains(facts.interpretation) else { return image }
        let checked = Checked(facts: facts, width: image.width, height: image.height)
        return (try? converted(image, checked).image) ?? image
    }

    /// Two files of one picture converted to sRGB from different profiles
    /// differ by rounding: at most this much in any band, out of 255.
    package static let conversionRounding = 2.0

    /// The picture upright in 8-bit sRGB, and the record of what was done.
    /// Lazy: nothing is computed until the result is read.
    package static func converted(_ image: Image, _ checked: Checked) throws -> (image: Image, record: Record) {
        let facts = checked.facts
        var record = Record(colourSpace: facts.interpretation, profile: facts.profile?.description, bits: facts.bits,
                            orientation: facts.orientation, conversions: [], assumedProfile: false)
        var picture = image
        if facts.orientation != 1 {
            picture = try picture.autorotated()
            record.conversions.append("turned upright (EXIF orientation \(facts.orientation))")
        }
        if let profile = facts.profile {
            guard let chosen = intent(for: profile) else { throw NoRenderingIntent(profile: profile.description) }
            picture = try picture.srgb8(from: .embedded, intent: chosen)
            let why = chosen == intent ? "" : ": the profile has no \(intent.rawValue) tables"
            record.conversions.append("converted from its profile \"\(profile.description)\" to sRGB (\(chosen.rawValue)\(why))")
        } else if facts.interpretation == "cmyk" {
            picture = try picture.srgb8(from: .assumed("cmyk"), intent: intent)
            record.conversions.append("no profile: CMYK taken as libvips's built-in CMYK profile, converted to sRGB (relative colorimetric)")
            record.assumedProfile = true
        } else if facts.bits != 8 || !["srgb", "b-w"].contains(facts.interpretation) {
            picture = try picture.srgb8(from: .colourspace)
            if !["srgb", "rgb", "rgb16", "b-w", "grey16"].contains(facts.interpretation) {
                record.conversions.append("converted from \(facts.interpretation) to sRGB")
            }
        }
        if facts.bits != 8 {
            let how = facts.float ? "floating-point values (0 to 1) scaled to 8 bits, rounded"
                : "\(facts.bits)-bit values scaled to 8 bits by their range (0 to \(facts.integerMax)), rounded"
            record.conversions.append(how)
        }
        return (picture, record)
    }
}

/// A profile with no table to convert its colours from.
package struct NoRenderingIntent: Error, CustomStringConvertible {
    package var profile: String
    package var description: String { "the ICC profile \"\(profile)\" has no tables to convert its colours from (no rendering intent)" }
}

extension PictureImport {
    /// An image input's bytes opened (and with `decodeAll`, every pixel
    /// decoded), or nil after saying why not: cut short, or unreadable,
    /// the refusal ending with `unreadable`, what the file should be.
    static func open(_ data: Data, path: String, env: CheckEnvironment, unreadable: String, decodeAll: Bool = false) -> Image? {
        if let problem = ImageFileCheck.problem(in: data) {
            env.problem(path, problem)
            return nil
        }
        do {
            let image = try Image(data: data)
            if decodeAll { try image.decodeAll() }
            return image
        } catch {
            env.problem(path, "not a readable image (\(error)); \(unreadable)")
            return nil
        }
    }

    /// A PNG input (an icon master, a category icon, an Icon Composer
    /// layer) opened from its bytes and checked for import, or nil after
    /// saying why not: cut short, unreadable, or another format. `expected`
    /// ends each refusal, saying what the file should be (`unreadable`, when
    /// given, ends the one for a file no image library reads).
    package static func png(_ data: Data, path: String, env: CheckEnvironment, expected: String,
                    unreadable: String? = nil) -> (image: Image, checked: Checked)? {
        guard let image = open(data, path: path, env: env, unreadable: unreadable ?? expected) else { return nil }
        guard image.format == "png" else {
            env.problem(path, "is \(image.format ?? "not an image") data, not PNG; \(expected)")
            return nil
        }
        guard let checked = check(image, path: path, env: env) else { return nil }
        return (image, checked)
    }
}
