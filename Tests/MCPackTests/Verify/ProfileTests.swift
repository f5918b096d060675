import Foundation
import MCPackSchema
import Testing

/// `verify --profile` against PyPI's bagit-profile (1.3.1), the validator
/// archives run: mcpack's bags follow mcpack's profile by both, and on
/// small bags each breaking one kind of rule, both say no, or docs/reference/bagit-profile.md
/// says why they differ.
@Suite struct ProfileTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let shipped = repository.appendingPathComponent("docs/mcpack-bagit-profile.json")

    struct Verdicts {
        /// mcpack's `profile-*` findings (rule and path), and its exit status.
        var rules: [String]
        var status: Int32
        /// bagit-profile's.
        var ok: Bool
        var errors: [String]
    }

    /// mcpack's and bagit-profile's verdicts on `folder` (or the archive
    /// made of it) against `profile`.
    static func verdicts(profile: URL, folder: URL, delivered: URL? = nil) throws -> Verdicts {
        let target = delivered ?? folder
        let result = try MCPackBinary.run(["verify", target.path, "--profile", profile.path, "--json"], in: folder.deletingLastPathComponent())
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
        let rules = (json["problems"] as? [[String: Any]] ?? []).compactMap { problem -> String? in
            guard let rule = problem["rule"] as? String, rule.hasPrefix("profile-") else { return nil }
            return rule
        }
        let python = try TestPython.run([TestPython.script("bagit_profile_check.py"), profile.path, folder.path] + (delivered.map { [$0.path] } ?? []),
                                        in: folder.deletingLastPathComponent())
        let verdict = try #require(try JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as? [String: Any], "\(python.stdout)\(python.stderr)")
        return Verdicts(rules: rules, status: result.status, ok: verdict["ok"] as? Bool ?? false, errors: verdict["errors"] as? [String] ?? [])
    }

    @Test func theShippedProfileIsTheOneEveryBagCarries() throws {
        #expect(try Data(contentsOf: Self.shipped) == JSON.encode(BagItProfile.mcpackBundle))
        let decoded = try JSONDecoder().decode(BagItProfile.self, from: Data(contentsOf: Self.shipped))
        #expect(decoded == BagItProfile.mcpackBundle)
        #expect(decoded.info.profileVersion == "1.4.0")
    }

    @Test(arguments: ["zip", "tar.gz"])
    func mcpackBagsFollowMcpackProfileByBothValidators(format: String) throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.edit("bundle.toml", "format = \"zip\"", "format = \"\(format)\"")
        let built = try MCPackBinary.run(["build"], in: project.root)
        try #require(built.status == 0, "\(built.stderr)")
        let archive = project.url("dist/test-bundle-1.0.0.\(format)")
        let unpacked = try MCPackBinary.tool(format == "zip" ? "unzip" : "tar", format == "zip" ? ["-q", archive.path] : ["-xzf", archive.path], in: project.root)
        #expect(unpacked.status == 0)
        let folder = project.url("test-bundle-1.0.0")
        #expect(try Data(contentsOf: folder.appendingPathComponent("bagit-profile.json")) == Data(contentsOf: Self.shipped))
        let info = try String(contentsOf: folder.appendingPathComponent("bag-info.txt"), encoding: .utf8)
        #expect(info.hasPrefix("BagIt-Profile-Identifier: urn:mcpack:bagit-profile:bundle:1\n"))

        // The profile the bag carries, as a receiver would use it.
        let carried = folder.appendingPathComponent("bagit-profile.json")
        let asDelivered = try Self.verdicts(profile: carried, folder: folder, delivered: archive)
        #expect(asDelivered.status == 0 && asDelivered.rules.isEmpty, "\(asDelivered.rules)")
        #expect(asDelivered.ok, "\(asDelivered.errors)")
        let asUnpacked = try Self.verdicts(profile: carried, folder: folder)
        #expect(asUnpacked.status == 0 && asUnpacked.rules.isEmpty, "\(asUnpacked.rules)")
        #expect(asUnpacked.ok, "\(asUnpacked.errors)")
    }

    /// A profile an institution might have, and a bag that follows it.
    static let institutionProfile = """
        {
          "BagIt-Profile-Info": {
            "BagIt-Profile-Identifier": "https://archive.example.org/profiles/kiosk.json",
            "BagIt-Profile-Version": "1.4.0",
            "Source-Organization": "Example Archive",
            "Version": "2"
          },
          "Bag-Info": {
            "Source-Organization": {"required": true, "values": ["Salisbury Cathedral", "British Library"], "repeatable": false},
            "Contact-Name": {"required": false, "repeatable": false}
          },
          "Manifests-Required": ["sha256"],
          "Manifests-Allowed": ["sha256", "sha512"],
          "Tag-Manifests-Required": ["sha256"],
          "Tag-Manifests-Allowed": ["sha256"],
          "Allow-Fetch.txt": false,
          "Serialization": "optional",
          "Accept-Serialization": ["application/zip"],
          "Accept-BagIt-Version": ["1.0"],
          "Tag-Files-Required": ["notes/receipt.txt"],
          "Tag-Files-Allowed": ["notes/*"],
          "Payload-Files-Required": ["data/a.txt"],
          "Payload-Files-Allowed": ["data/*.txt"]
        }
        """

    static func followingBag() -> SmallBag {
        var bag = SmallBag()
        bag.info = "BagIt-Profile-Identifier: https://archive.example.org/profiles/kiosk.json\nSource-Organization: Salisbury Cathedral\nPayload-Oxum: 3.1"
        bag.unlistedTags = ["notes/receipt.txt": Data("received\n".utf8)]
        return bag
    }

    /// Writes `bag` as a folder (and a zip or tar.gz of it) and takes both verdicts.
    static func judge(_ bag: SmallBag, serialize: String? = nil, profile profileText: String = institutionProfile) throws -> Verdicts {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-profile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("bag")
        for (path, data) in bag.files() {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        let profile = root.appendingPathComponent("profile.json")
        try Data(profileText.utf8).write(to: profile)
        var delivered: URL?
        if let serialize {
            let made = serialize == "zip" ? try MCPackBinary.tool("sh", ["-c", "cd '\(root.path)' && python3 -c 'import sys, zipfile, os\nwith zipfile.ZipFile(\"bag.zip\", \"w\") as z:\n    [z.write(os.path.join(d, f)) for d, _, fs in os.walk(\"bag\") for f in fs]'"], in: root)
                : try MCPackBinary.tool("tar", ["-czf", "bag.tar.gz", "bag"], in: root)
            #expect(made.status == 0, "\(made.stdout)")
            delivered = root.appendingPathComponent("bag.\(serialize)")
        }
        return try verdicts(profile: profile, folder: folder, delivered: delivered)
    }

    @Test func bothAcceptABagThatFollowsTheProfile() throws {
        for serialize in [nil, "zip"] {
            let verdict = try Self.judge(Self.followingBag(), serialize: serialize)
            #expect(verdict.status == 0 && verdict.rules.isEmpty, "\(serialize ?? "folder"): \(verdict.rules)")
            #expect(verdict.ok, "\(serialize ?? "folder"): \(verdict.errors)")
        }
    }

    /// Each bag breaks one rule bagit-profile checks: both refuse it, mcpack
    /// with the rule named.
    @Test(arguments: [
        ("a required field missing", "profile-bag-info"),
        ("a value not allowed", "profile-bag-info"),
        ("a field repeated", "profile-bag-info"),
        ("no profile identifier", "profile-bag-info"),
        ("another profile's identifier", "profile-bag-info"),
        ("no sha256 manifest", "profile-manifests"),
        ("an md5 manifest", "profile-manifests"),
        ("no tag manifest", "profile-tag-manifests"),
        ("a fetch.txt", "profile-fetch"),
        ("BagIt 0.97", "profile-bagit-version"),
        ("the required tag file missing", "profile-tag-files"),
        ("a tag file not allowed", "profile-tag-files"),
        ("a tar.gz", "profile-serialization"),
    ])
    func bothRefuseABagBreakingOneRule(breaking: String, rule: String) throws {
        var bag = Self.followingBag()
        let info = bag.info!
        var serialize: String?
        switch breaking {
        case "a required field missing": bag.info = info.replacingOccurrences(of: "Source-Organization: Salisbury Cathedral\n", with: "")
        case "a value not allowed": bag.info = info.replacingOccurrences(of: "Salisbury Cathedral", with: "A Museum")
        case "a field repeated": bag.info = info + "\nContact-Name: A\nContact-Name: B"
        case "no profile identifier": bag.info = info.replacingOccurrences(of: "BagIt-Profile-Identifier: https://archive.example.org/profiles/kiosk.json\n", with: "")
        case "another profile's identifier": bag.info = info.replacingOccurrences(of: "kiosk.json", with: "other.json")
        case "no sha256 manifest": bag.algorithms = [.sha512]
        case "an md5 manifest": bag.algorithms = [.sha256, .md5]
        case "no tag manifest": bag.tagManifest = false
        case "a fetch.txt":
            bag.absent = ["data/b.txt": Data("b\n".utf8)]
            bag.fetch = "https://archive.example.org/b.txt 2 data/b.txt\n"
        case "BagIt 0.97": bag.bagit = "BagIt-Version: 0.97\nTag-File-Character-Encoding: UTF-8\n"
        case "the required tag file missing": bag.unlistedTags = [:]
        case "a tag file not allowed": bag.unlistedTags["extra.txt"] = Data("x\n".utf8)
        case "a tar.gz": serialize = "tar.gz"
        default: Issue.record("no such case \(breaking)")
        }
        let verdict = try Self.judge(bag, serialize: serialize)
        #expect(verdict.status == 1, "\(breaking): exit \(verdict.status)")
        #expect(verdict.rules.contains(rule), "\(breaking): \(verdict.rules)")
        #expect(!verdict.ok, "\(breaking): bagit-profile accepted it")
    }

    /// Rules of BagIt Profiles 1.4.0 that bagit-profile 1.3.1 does not
    /// check (docs/reference/bagit-profile.md says so): mcpack refuses, bagit-profile accepts.
    @Test(arguments: [
        ("a payload file not allowed", "profile-payload-files"),
        ("the required payload file missing", "profile-payload-files"),
        ("a payload where it must be empty", "profile-data-empty"),
        ("no fetch.txt where it is required", "profile-fetch"),
    ])
    func rulesOnlyMcpackChecks(breaking: String, rule: String) throws {
        var bag = Self.followingBag()
        var profile = Self.institutionProfile
        switch breaking {
        case "a payload file not allowed": bag.payload["data/b.png"] = Data("png".utf8)
        case "the required payload file missing": bag.payload = ["data/c.txt": Data("hi\n".utf8)]
        case "a payload where it must be empty":
            profile = profile.replacingOccurrences(of: "\"Allow-Fetch.txt\": false,", with: "\"Allow-Fetch.txt\": false,\n  \"Data-Empty\": true,")
        default:
            profile = profile.replacingOccurrences(of: "\"Allow-Fetch.txt\": false,", with: "\"Allow-Fetch.txt\": true,\n  \"Fetch.txt-Required\": true,")
        }
        #expect(profile != Self.institutionProfile || breaking.hasPrefix("a payload file") || breaking.hasPrefix("the required"))
        let verdict = try Self.judge(bag, profile: profile)
        #expect(verdict.status == 1, "\(breaking): exit \(verdict.status)")
        #expect(verdict.rules == [rule], "\(breaking): \(verdict.rules)")
        #expect(verdict.ok, "\(breaking): bagit-profile now checks it (\(verdict.errors)): say so in docs/reference/bagit-profile.md")
    }

    @Test func aFileThatIsNoProfileIsRefusedByName() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("{\"BagIt-Profile-Info\": {\"Version\": \"1\"}}".utf8).write(to: root.appendingPathComponent("p.json"))
        let result = try MCPackBinary.run(["verify", Self.shipped.path, "--profile", "p.json"], in: root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("p.json: not a BagIt profile: BagIt-Profile-Info.BagIt-Profile-Identifier is missing"), "\(result.stderr)")
    }
}
