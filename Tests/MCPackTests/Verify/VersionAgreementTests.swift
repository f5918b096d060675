import Foundation
@testable import MCPackKit
import Testing

/// Rule `version`: a signature covers the bytes, not what the file is
/// called, so a renamed archive with its signature and a remade .sha256
/// passes every other check. What the file name, bag-info.txt,
/// bundle.json, the top folder and the signed trusted comment state must agree.
@Suite(.serialized)
struct VersionAgreementTests {
    typealias Built = SignatureTests.Built

    /// verify's verdict, as text and as JSON: the version problems' messages.
    static func verdict(_ built: Built, _ arguments: [String]) throws -> (RunResult, [String], [String: Any]) {
        let text = try built.run(["verify"] + arguments)
        let json = try built.run(["verify"] + arguments + ["--json"])
        #expect(json.status == text.status)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let problems = (object["problems"] as! [[String: Any]]).filter { $0["rule"] as? String == "version" }
        return (text, problems.map { $0["message"] as! String }, object)
    }

    /// Moves an archive to `name` in dist/, with the signatures beside it,
    /// and writes the .sha256 a forger would remake for the new name.
    static func rename(_ built: Built, _ archive: String, to name: String) throws {
        let target = "dist/" + name
        for suffix in ["", ".minisig", ".sig"] where FileManager.default.fileExists(atPath: built.url(archive + suffix).path) {
            try? FileManager.default.removeItem(at: built.url(target + suffix))
            try FileManager.default.moveItem(at: built.url(archive + suffix), to: built.url(target + suffix))
        }
        try? FileManager.default.removeItem(at: built.url(archive + ".sha256"))
        let remade = try built.shell("cd dist && sha256sum '\(name)' > '\(name).sha256'")
        try #require(remade.status == 0, "\(remade.stderr)")
    }

    @Test func aRenamedOlderVersionIsRefusedNamingEveryPlace() throws {
        let built = try SignatureTests.build()
        defer { built.project.destroy() }
        try SignatureTests.minisignKey(built, "k")
        #expect(try built.run(["sign", built.archive, "--key", "k.key"]).status == 0)
        let renamed = "dist/test-bundle-1.1.0.zip"
        try Self.rename(built, built.archive, to: "test-bundle-1.1.0.zip")

        // What minisign and sha256sum say: good, which is the gap.
        #expect(try built.shell("minisign -Vm \(renamed) -p k.pub").status == 0)
        #expect(try built.shell("cd dist && sha256sum -c test-bundle-1.1.0.zip.sha256").status == 0)

        let (result, messages, object) = try Self.verdict(built, [renamed, "--public-key", "k.pub"])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("signature good"), "\(result.stdout)")
        #expect(object["ok"] as? Bool == false)
        #expect(messages.count == 1, "\(messages)")
        let message = messages.first ?? ""
        for said in ["the file name says 1.1.0", "bag-info.txt says 1.0.0", "data/bundle.json says 1.0.0",
                     "the top folder test-bundle-1.0.0/ says 1.0.0", "the signed trusted comment says 1.0.0", "inside, it is test-bundle 1.0.0"] {
            #expect(message.contains(said), "\(message)")
        }
        #expect(result.stdout.contains("error: test-bundle-1.1.0.zip: version: the bundle's version is not the same everywhere it is stated"), "\(result.stdout)")
        // The signature itself is good: the problem is the version's, not its.
        #expect((object["problems"] as! [[String: Any]]).allSatisfy { $0["rule"] as? String != "signature" })

        // Without a key the signature is not read, and the rest still disagree.
        let (unsigned, plain, _) = try Self.verdict(built, [renamed])
        #expect(unsigned.status == 1)
        #expect(plain.first?.contains("the file name says 1.1.0") == true && plain.first?.contains("trusted comment") == false, "\(plain)")
    }

    @Test func aRenamedArchiveSignedWithSSHIsRefusedToo() throws {
        let built = try SignatureTests.build()
        defer { built.project.destroy() }
        #expect(try built.shell("ssh-keygen -q -t ed25519 -N '' -C builds@example.org -f id").status == 0)
        #expect(try built.run(["sign", built.archive, "--key", "id"]).status == 0)
        try Self.rename(built, built.archive, to: "test-bundle-2.0.0.zip")
        let renamed = "dist/test-bundle-2.0.0.zip"
        #expect(try built.shell("ssh-keygen -Y check-novalidate -n file -s \(renamed).sig < \(renamed)").status == 0)
        let (result, messages, _) = try Self.verdict(built, [renamed, "--public-key", "id.pub"])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("signature good"), "\(result.stdout)")
        #expect(messages.first?.contains("the file name says 2.0.0; bag-info.txt says 1.0.0") == true, "\(messages)")
    }

    @Test func anotherBundlesArchiveRenamedToThisOnesNameIsRefused() throws {
        let built = try SignatureTests.build()
        defer { built.project.destroy() }
        try SignatureTests.minisignKey(built, "k")
        try built.project.edit("bundle.toml", "name = \"test-bundle\"", "name = \"other-bundle\"")
        let other = try built.run(["build"])
        try #require(other.status == 0, "\(other.stderr)")
        #expect(try built.run(["sign", "dist/other-bundle-1.0.0.zip", "--key", "k.key"]).status == 0)
        try Self.rename(built, "dist/other-bundle-1.0.0.zip", to: "test-bundle-1.0.0.zip")

        let (result, messages, _) = try Self.verdict(built, [built.archive, "--public-key", "k.pub"])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(messages.count == 1, "\(messages)")
        for said in ["the bundle's name is not the same everywhere", "the file name says test-bundle", "bag-info.txt says other-bundle",
                     "data/bundle.json says other-bundle", "the signed trusted comment says other-bundle"] {
            #expect(messages.first?.contains(said) == true, "\(messages)")
        }
    }

    @Test func aNameThatStatesNothingPassesWithANote() throws {
        let built = try SignatureTests.build()
        defer { built.project.destroy() }
        try SignatureTests.minisignKey(built, "k")
        #expect(try built.run(["sign", built.archive, "--key", "k.key"]).status == 0)
        try Self.rename(built, built.archive, to: "delivery (1).zip")
        let (result, messages, object) = try Self.verdict(built, ["dist/delivery (1).zip", "--public-key", "k.pub", "--strict"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(messages.isEmpty)
        let note = "delivery (1).zip: the file name states neither the bundle's name nor its version (NAME-VERSION.zip), so it was not compared; inside, it is test-bundle 1.0.0"
        #expect(result.stdout.contains("note: " + note), "\(result.stdout)")
        #expect(object["notes"] as? [String] == [note])
        // Without the old top-folder warning, which --strict would fail on.
        #expect(!result.stderr.contains("top-folder"), "\(result.stderr)")

        // A browser's second copy of a well-named archive still states them.
        try Self.rename(built, "dist/delivery (1).zip", to: "test-bundle-1.2.0 (1).zip")
        let (copy, copied, _) = try Self.verdict(built, ["dist/test-bundle-1.2.0 (1).zip"])
        #expect(copy.status == 1)
        #expect(copied.first?.contains("the file name says 1.2.0") == true, "\(copied)")
    }

    @Test func theVersionAskedForMustBeTheOneStated() throws {
        let built = try SignatureTests.build()
        defer { built.project.destroy() }
        let (asked, messages, _) = try Self.verdict(built, [built.archive, "--expect-version", "1.1.0"])
        #expect(asked.status == 1, "\(asked.stdout)")
        #expect(messages == ["version 1.1.0 was asked for (--expect-version): the file name says 1.0.0; bag-info.txt says 1.0.0; data/bundle.json says 1.0.0; the top folder test-bundle-1.0.0/ says 1.0.0 (inside, it is test-bundle 1.0.0)"], "\(messages)")
        #expect(try built.run(["verify", built.archive, "--expect-version", "1.0.0", "--expect-name", "test-bundle"]).status == 0)
        #expect(try built.run(["verify", built.archive, "--expect-version", "v1.0.0"]).status == 0)
        let (named, byName, _) = try Self.verdict(built, [built.archive, "--expect-name", "magna-carta"])
        #expect(named.status == 1)
        #expect(byName.first?.hasPrefix("name magna-carta was asked for (--expect-name): the file name says test-bundle; bag-info.txt says test-bundle") == true, "\(byName)")

        let bad = try built.run(["verify", built.archive, "--expect-version", "latest"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("expected a version such as 1.1.0, not latest"), "\(bad.stderr)")
        let noArchive = try built.run(["verify", "--expect-version", "1.0.0"])
        #expect(noArchive.status == 2)
    }

    @Test func aStemIsSplitIntoNameAndVersion() {
        #expect(VersionRules.split("magna-carta-1.0.0") == ("magna-carta", "1.0.0"))
        #expect(VersionRules.split("magna-carta-2-1.0.0-rc.1") == ("magna-carta-2", "1.0.0-rc.1"))
        #expect(VersionRules.split("bundle-1.0.0+build.5") == ("bundle", "1.0.0+build.5"))
        #expect(VersionRules.split("Delivery-1.1.0") == (nil, "1.1.0"))
        #expect(VersionRules.split("delivery (1)") == (nil, nil))
        #expect(VersionRules.split("magna-carta") == (nil, nil))
        #expect(VersionRules.split("magna-carta-1.0") == (nil, nil))
        #expect(VersionRules.commentFields("bundle:a version:1.0.0 sha256:ab file:a-1.0.0.zip")["version"] == "1.0.0")
        #expect(VersionRules.commentFields("signed by minisign")["version"] == nil)
    }
}
