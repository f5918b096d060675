import Foundation

/// What a picture file handed over was, and what was done to it to ship it
/// as 8-bit sRGB: part of the record of every input made from pictures.
public struct PictureRecord: Codable, Sendable, Equatable {
    /// libvips's name for the file's colour space ("srgb", "rgb16", "cmyk").
    public var colourSpace: String
    /// The embedded profile's description; nil when there was none.
    public var profile: String?
    public var bits: Int
    public var orientation: Int
    /// In words, in the order they were made; empty when none was needed.
    public var conversions: [String]
    /// True when mcpack assumed a profile the file did not carry.
    public var assumedProfile: Bool

    public init(colourSpace: String, profile: String?, bits: Int, orientation: Int, conversions: [String], assumedProfile: Bool) {
        self.colourSpace = colourSpace
        self.profile = profile
        self.bits = bits
        self.orientation = orientation
        self.conversions = conversions
        self.assumedProfile = assumedProfile
    }

    enum CodingKeys: String, CodingKey {
        case colourSpace = "colour_space", profile, bits, orientation, conversions, assumedProfile = "assumed_profile"
    }
}
