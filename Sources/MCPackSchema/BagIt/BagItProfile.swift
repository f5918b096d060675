import Foundation

/// A BagIt profile (BagIt Profiles Specification 1.4.0,
/// https://bagit-profiles.github.io/bagit-profiles-specification/): what
/// a bag of some kind must hold, as JSON. Every field but the profile's
/// own info is optional; absent, it constrains nothing (the spec's defaults).
public struct BagItProfile: Codable, Sendable, Equatable {
    public struct Info: Codable, Sendable, Equatable {
        public var identifier: String
        public var profileVersion: String?
        public var sourceOrganization: String
        public var externalDescription: String?
        public var version: String
        public var contactName: String?
        public var contactEmail: String?

        enum CodingKeys: String, CodingKey {
            case identifier = "BagIt-Profile-Identifier"
            case profileVersion = "BagIt-Profile-Version"
            case sourceOrganization = "Source-Organization"
            case externalDescription = "External-Description"
            case version = "Version"
            case contactName = "Contact-Name"
            case contactEmail = "Contact-Email"
        }

        public init(identifier: String, profileVersion: String?, sourceOrganization: String, externalDescription: String?, version: String) {
            self.identifier = identifier
            self.profileVersion = profileVersion
            self.sourceOrganization = sourceOrganization
            self.externalDescription = externalDescription
            self.version = version
        }
    }

    /// One bag-info.txt label's rule.
    public struct Field: Codable, Sendable, Equatable {
        public var required: Bool?
        public var values: [String]?
        public var repeatable: Bool?
        public var description: String?

        public init(required: Bool? = nil, values: [String]? = nil, repeatable: Bool? = nil, description: String? = nil) {
            self.required = required
            self.values = values
            self.repeatable = repeatable
            self.description = description
        }
    }

    /// `required`, `optional` or `forbidden`.
    public enum Serialization: String, Codable, Sendable {
        case required, optional, forbidden
    }

    public var info: Info
    public var bagInfo: [String: Field]?
    public var manifestsRequired: [String]?
    public var manifestsAllowed: [String]?
    public var tagManifestsRequired: [String]?
    public var tagManifestsAllowed: [String]?
    public var allowFetch: Bool?
    public var fetchRequired: Bool?
    public var dataEmpty: Bool?
    public var serialization: Serialization?
    public var acceptSerialization: [String]?
    public var acceptBagItVersion: [String]?
    public var tagFilesRequired: [String]?
    public var tagFilesAllowed: [String]?
    public var payloadFilesRequired: [String]?
    public var payloadFilesAllowed: [String]?

    enum CodingKeys: String, CodingKey {
        case info = "BagIt-Profile-Info"
        case bagInfo = "Bag-Info"
        case manifestsRequired = "Manifests-Required"
        case manifestsAllowed = "Manifests-Allowed"
        case tagManifestsRequired = "Tag-Manifests-Required"
        case tagManifestsAllowed = "Tag-Manifests-Allowed"
        case allowFetch = "Allow-Fetch.txt"
        case fetchRequired = "Fetch.txt-Required"
        case dataEmpty = "Data-Empty"
        case serialization = "Serialization"
        case acceptSerialization = "Accept-Serialization"
        case acceptBagItVersion = "Accept-BagIt-Version"
        case tagFilesRequired = "Tag-Files-Required"
        case tagFilesAllowed = "Tag-Files-Allowed"
        case payloadFilesRequired = "Payload-Files-Required"
        case payloadFilesAllowed = "Payload-Files-Allowed"
    }

    public init(info: Info) { self.info = info }
}

extension BagItProfile {
    /// The profile's identifier: a URI, not an address to fetch it from
    /// (every bag carries the profile as a tag file, and docs/ has it).
    public static let mcpackBundleIdentifier = "urn:mcpack:bagit-profile:bundle:1"

    /// The tag file every mcpack bag carries it in, beside bagit.txt.
    public static let tagFileName = "bagit-profile.json"

    /// The profile of the bags `mcpack build` writes.
    public static var mcpackBundle: BagItProfile {
        var profile = BagItProfile(info: Info(
            identifier: mcpackBundleIdentifier, profileVersion: "1.4.0", sourceOrganization: "mcpack",
            externalDescription: "A kiosk bundle mcpack builds: a deep-zoom document, the app's icons, launch screens, categories and clauses, with bundle.json saying what was built from which inputs. Serialized as one top folder in a zip, tar, tar.gz or tar.zst.",
            version: "1"))
        profile.bagInfo = [
            "BagIt-Profile-Identifier": Field(required: true, values: [mcpackBundleIdentifier], repeatable: false, description: "This profile."),
            "Bag-Software-Agent": Field(required: true, repeatable: false, description: "mcpack and its version."),
            "Bagging-Date": Field(required: true, repeatable: false, description: "The source date, YYYY-MM-DD."),
            "Bundle-Name": Field(required: true, repeatable: false, description: "The bundle's name; the archive and its top folder are NAME-VERSION."),
            "Bundle-Version": Field(required: true, repeatable: false, description: "The bundle's semantic version."),
            "External-Description": Field(required: true, repeatable: false, description: "The bundle's title."),
            "Source-Date": Field(required: true, repeatable: false, description: "The time stamped on every entry (ISO 8601)."),
            "Payload-Oxum": Field(required: true, repeatable: false, description: "Payload bytes and file count."),
        ]
        profile.manifestsRequired = ["sha256"]
        profile.manifestsAllowed = ["sha256"]
        profile.tagManifestsRequired = ["sha256"]
        profile.tagManifestsAllowed = ["sha256"]
        profile.allowFetch = false
        profile.fetchRequired = false
        profile.dataEmpty = false
        profile.serialization = .optional
        profile.acceptSerialization = ArchiveFormat.allCases.map(\.mediaType)
        profile.acceptBagItVersion = ["1.0"]
        profile.tagFilesRequired = [tagFileName]
        profile.tagFilesAllowed = [tagFileName]
        profile.payloadFilesRequired = ["data/bundle.json", "data/HANDOVER.md"]
        profile.payloadFilesAllowed = ["data/*"]
        return profile
    }
}
