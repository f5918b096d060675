import MCPackInputs
import MCPackBag
import FileIO
import Foundation
import MCPackSchema

/// `mcpack verify --profile FILE`: any bag against any BagIt profile
/// (BagIt Profiles 1.4.0): bag-info.txt's fields and values, the manifest
/// and tag manifest algorithms, fetch.txt, serialization, the BagIt
/// version, and which tag and payload files are required and allowed.
/// Every rule is `profile-...`, naming the file it is about.
package enum ProfileRules {
    /// Reads a profile; a file that is not one throws (exit 2), naming the
    /// key that is wrong.
    package static func load(_ path: String) throws -> BagItProfile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileError(path: path, message: "cannot read the profile")
        }
        return try read(data, path: path)
    }

    /// A profile's bytes, as `load` reads them from `path`.
    static func read(_ data: Data, path: String) throws -> BagItProfile {
        do {
            return try JSONDecoder().decode(BagItProfile.self, from: data)
        } catch {
            throw FileError(path: path, message: "not a BagIt profile: \(JSON.describe(error))")
        }
    }

    /// The MIME types a serialized bag's name gives, whatever its case.
    static func mediaTypes(_ path: String) -> [String] {
        ArchiveFormat.named(path.lowercased())?.format.mediaTypes ?? []
    }

    static func check(_ bag: BagContents, profile: BagItProfile, path: String, serialized: Bool) -> [Problem] {
        var check = ProfileCheck(bag: bag, profile: profile, path: path, serialized: serialized)
        check.bagInfo()
        check.manifests()
        check.fetchAndSerialization()
        check.bagItVersion()
        check.tagFiles()
        check.payloadFiles()
        return check.problems
    }

    /// A glob as the profile writes it, matched as Python's fnmatch does
    /// (`*` crosses `/`).
    static func matches(_ path: String, _ pattern: String) -> Bool {
        Wildcard.matches(path, pattern: pattern)
    }
}

/// One bag against one profile, rule by rule, each problem `profile-...`.
private struct ProfileCheck {
    let bag: BagContents
    let profile: BagItProfile
    let path: String
    let serialized: Bool
    let profileName: String
    /// bagit.txt's labels.
    let declaration: [(String, String)]
    let decoded: TagText
    private(set) var problems: [Problem] = []

    init(bag: BagContents, profile: BagItProfile, path: String, serialized: Bool) {
        self.bag = bag
        self.profile = profile
        self.path = path
        self.serialized = serialized
        profileName = "profile \(profile.info.identifier)"
        let bagitText = bag.files["bagit.txt"]?.data.map { String(decoding: $0, as: UTF8.self) } ?? ""
        declaration = BagInfo.labels(bagitText)
        decoded = TagText(encoding: declaration.first { $0.0 == "Tag-File-Character-Encoding" }?.1)
    }

    private mutating func problem(_ file: String, _ rule: String, _ message: String) {
        problems.append(Problem(file, "profile-" + rule, message))
    }

    private func matches(_ path: String, _ pattern: String) -> Bool { ProfileRules.matches(path, pattern) }

    /// bag-info.txt: the profile's own identifier, then each field's rule.
    mutating func bagInfo() {
        if let data = bag.files["bag-info.txt"]?.data {
            let labels = BagInfo.labels(String(decoding: decoded.utf8(data) ?? data, as: UTF8.self))
            var values: [String: [String]] = [:]
            for (label, value) in labels { values[label, default: []].append(value) }
            if let identifier = values["BagIt-Profile-Identifier"] {
                if !identifier.contains(profile.info.identifier) {
                    problem("bag-info.txt", "bag-info", "BagIt-Profile-Identifier is \(identifier.joined(separator: ", ")), not this profile's \(profile.info.identifier)")
                }
            } else {
                problem("bag-info.txt", "bag-info", "no BagIt-Profile-Identifier: a bag names the profile it follows")
            }
            for (label, field) in (profile.bagInfo ?? [:]).sorted(by: { $0.key < $1.key }) {
                let found = values[label] ?? []
                if field.required == true && found.isEmpty { problem("bag-info.txt", "bag-info", "\(label) is required by the \(profileName)") }
                if let allowed = field.values {
                    for value in found where !allowed.contains(value) {
                        problem("bag-info.txt", "bag-info", "\(label): \(value.debugDescription) is not one of the values the profile allows (\(allowed.joined(separator: ", ")))")
                    }
                }
                if field.repeatable == false && found.count > 1 {
                    problem("bag-info.txt", "bag-info", "\(label) appears \(found.count) times; the profile allows it once")
                }
            }
        } else {
            problem("bag-info.txt", "bag-info", "missing; the profile's fields are in bag-info.txt")
        }
    }

    /// Manifests and tag manifests: required present, present allowed.
    mutating func manifests() {
        let topNames = bag.files.keys.filter(PathBytes.isTopLevel)
        func algorithms(_ prefix: String) -> [String] {
            topNames.compactMap { BagNames.manifestName($0, prefix: prefix) }.sorted()
        }
        for (prefix, required, allowed, rule) in [("manifest-", profile.manifestsRequired, profile.manifestsAllowed, "manifests"),
                                                  ("tagmanifest-", profile.tagManifestsRequired, profile.tagManifestsAllowed, "tag-manifests")] {
            let present = algorithms(prefix)
            for algorithm in required ?? [] where !present.contains(algorithm) {
                problem("\(prefix)\(algorithm).txt", rule, "missing; the profile requires a \(algorithm) \(rule == "manifests" ? "payload" : "tag") manifest")
            }
            if let allowed {
                for algorithm in required ?? [] where !allowed.contains(algorithm) {
                    problem(profileName, rule, "the profile requires \(algorithm) but does not allow it")
                }
                for algorithm in present where !allowed.contains(algorithm) {
                    problem("\(prefix)\(algorithm).txt", rule, "\(algorithm) is not among the algorithms the profile allows (\(allowed.joined(separator: ", ")))")
                }
            }
        }
    }

    /// fetch.txt, and whether and how the bag may be serialized.
    mutating func fetchAndSerialization() {
        let hasFetch = bag.files["fetch.txt"] != nil
        if profile.allowFetch == false && hasFetch { problem("fetch.txt", "fetch", "the profile does not allow fetch.txt") }
        if profile.fetchRequired == true && !hasFetch { problem("fetch.txt", "fetch", "missing; the profile requires fetch.txt") }

        // Serialization.
        switch profile.serialization {
        case .required? where !serialized: problem(path, "serialization", "an unpacked bag; the profile requires it serialized (\((profile.acceptSerialization ?? []).joined(separator: ", ")))")
        case .forbidden? where serialized: problem(path, "serialization", "a serialized bag; the profile requires it unpacked")
        default: break
        }
        if serialized, profile.serialization != .forbidden, let accepted = profile.acceptSerialization {
            let types = ProfileRules.mediaTypes(path)
            if !types.contains(where: accepted.contains) {
                problem(path, "serialization", "\(types.first ?? "an archive of unknown type") is not a serialization the profile accepts (\(accepted.joined(separator: ", ")))")
            }
        }
    }

    /// The BagIt version bagit.txt declares.
    mutating func bagItVersion() {
        if let accepted = profile.acceptBagItVersion {
            let version = declaration.first { $0.0 == "BagIt-Version" }?.1 ?? "none"
            if !accepted.contains(version) {
                problem("bagit.txt", "bagit-version", "BagIt-Version \(version) is not one the profile accepts (\(accepted.joined(separator: ", ")))")
            }
        }
    }

    /// Tag files other than the ones BagIt itself defines.
    mutating func tagFiles() {
        let standard = ["bagit.txt", "bag-info.txt", "fetch.txt"]
        let tagFiles = bag.files.keys.filter {
            BagNames.isTagFile($0) && !standard.contains($0)
                && !(PathBytes.isTopLevel($0) && (BagNames.manifestName($0, prefix: "manifest-") ?? BagNames.manifestName($0, prefix: "tagmanifest-")) != nil)
        }.sorted()
        for required in profile.tagFilesRequired ?? [] where !tagFiles.contains(where: { matches($0, required) }) && bag.files[required] == nil {
            problem(required, "tag-files", "missing; the profile requires this tag file")
        }
        if let allowed = profile.tagFilesAllowed {
            for required in profile.tagFilesRequired ?? [] where !allowed.contains(where: { matches(required, $0) }) {
                problem(profileName, "tag-files", "the profile requires the tag file \(required) but does not allow it")
            }
            for file in tagFiles where !allowed.contains(where: { matches(file, $0) }) {
                problem(file, "tag-files", "a tag file the profile does not allow (\(allowed.joined(separator: ", ")))")
            }
        }
    }

    /// Payload files: required, allowed, or none at all.
    mutating func payloadFiles() {
        let payload = bag.files.keys.filter { PathBytes.hasPrefix($0, "data/") }.sorted()
        for required in profile.payloadFilesRequired ?? [] where !payload.contains(where: { matches($0, required) }) {
            problem(required, "payload-files", "missing; the profile requires this payload file")
        }
        if let allowed = profile.payloadFilesAllowed {
            for required in profile.payloadFilesRequired ?? [] where !allowed.contains(where: { matches(required, $0) }) {
                problem(profileName, "payload-files", "the profile requires the payload file \(required) but does not allow it")
            }
            for file in payload where !allowed.contains(where: { matches(file, $0) }) {
                problem(file, "payload-files", "a payload file the profile does not allow (\(allowed.joined(separator: ", ")))")
            }
        }
        if profile.dataEmpty == true {
            let files = payload.compactMap { bag.files[$0] }
            if files.count > 1 || files.contains(where: { $0.size > 0 }) {
                problem("data/", "data-empty", "the profile requires an empty payload (no file, or one of zero bytes); it has \(files.count) file\(files.count == 1 ? "" : "s")")
            }
        }
    }
}
