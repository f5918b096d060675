import Foundation
import Hashing
@testable import MCPackKit
import Signing
import Testing

/// Every input in Fuzz/regressions/ once crashed mcpack or tripped a
/// sanitizer under `make fuzz`, or is a seed of a target kept as a sample
/// of what it reads. Each is fed to the real binary the way a user would
/// meet it, and must give a clean answer: no signal, no trap, the exit
/// status of bad input (2) or of a damaged bag (1 or 2).
struct FuzzRegression: CustomTestStringConvertible, Sendable {
    var target: String
    var file: URL
    var testDescription: String { "\(target)/\(file.lastPathComponent)" }

    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/regressions")

    static var all: [FuzzRegression] {
        let fm = FileManager.default
        let targets = (try? fm.contentsOfDirectory(atPath: folder.path)) ?? []
        return targets.sorted().flatMap { target in
            let files = (try? fm.contentsOfDirectory(atPath: folder.appendingPathComponent(target).path)) ?? []
            return files.sorted().filter { !$0.hasPrefix(".") }.map {
                FuzzRegression(target: target, file: folder.appendingPathComponent("\(target)/\($0)"))
            }
        }
    }
}

@Suite struct FuzzRegressionTests {
    @Test func regressionsArePresent() {
        #expect(!FuzzRegression.all.isEmpty, "no inputs under \(FuzzRegression.folder.path)")
    }

    @Test(arguments: FuzzRegression.all)
    func answersCleanly(_ regression: FuzzRegression) throws {
        let input = try Data(contentsOf: regression.file)
        let project = try TestProject.make()
        defer { project.destroy() }
        let result: RunResult
        switch regression.target {
        case "bundle-toml", "clauses-toml":
            let file = regression.target == "bundle-toml" ? "bundle.toml" : "assets/clauses.toml"
            try project.write(file, input)
            result = try MCPackBinary.run(["build"], in: project.root)
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains(file), "the message must name \(file):\n\(result.stderr)")
            #expect(project.outputFiles().isEmpty, "something was written")
        case "archive":
            try project.write("input.zip", input)
            result = try MCPackBinary.run(["verify", "input.zip"], in: project.root)
            #expect(result.status == 1 || result.status == 2, "\(result.stdout)\(result.stderr)")
        case "minisign-signature", "sshsig", "sshsig-blob", "ssh-key", "allowed-signers", "minisign-key":
            result = try Self.checkSignature(regression.target, input, in: project)
        case "ssh-private-key":
            // What `mcpack sign --key` reads; no agent, so a key mcpack
            // cannot open is refused, saying why.
            try project.write("input.zip", Self.signed)
            try project.write("id", input)
            result = try MCPackBinary.run(["sign", "input.zip", "--key", "id"], in: project.root, environment: ["SSH_AUTH_SOCK": ""])
            #expect(result.status == 0 || result.status == 2, "\(result.stdout)\(result.stderr)")
        case "bagit-profile":
            try Self.writeSmallBag(in: project)
            try project.write("profile.json", input)
            result = try MCPackBinary.run(["verify", "bag", "--profile", "profile.json"], in: project.root)
            #expect((0...2).contains(result.status), "\(result.stdout)\(result.stderr)")
        case "icon-json":
            // As the project's Icon Composer document, built, and its bag verified.
            let images = try TestProject.make(images: true)
            defer { images.destroy() }
            try IconsBuildTests.writeComposer(images)
            try images.write("assets/icon/AppIcon.icon/icon.json", input)
            result = try MCPackBinary.run(["build"], in: images.root)
            #expect(result.status == 0 || result.status == 2, "\(result.stderr)")
            if result.status == 0 {
                let verified = try MCPackBinary.run(["verify", "dist/test-bundle-1.0.0.zip"], in: images.root)
                #expect(!verified.signalled && verified.status == 0, "\(verified.stdout)\(verified.stderr)")
            }
        default:
            Issue.record("no replay for fuzz target \(regression.target); add one here")
            return
        }
        #expect(!result.signalled, "killed by signal \(result.status):\n\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
    }

    /// The bytes the signature targets' seeds sign, and their minisign key
    /// (Fuzz/mcpack-fuzz/SignatureTargets.swift, FuzzKeys): a saved good
    /// signature then checks here as it did under the fuzzer.
    static let signed = Data("mcpack fuzz: the bytes every seed signature covers\n".utf8)
    static var minisignKey: Minisign.PublicKey {
        Minisign.PublicKey(keyID: [0x6d, 0x63, 0x70, 0x61, 0x63, 0x6b, 0x46, 0x5a],
                           key: try! Ed25519PrivateKey(seed: [UInt8](repeating: 0x5a, count: 32)).publicKey)
    }

    /// A signature target's input where `mcpack verify --public-key` meets
    /// it: a signature beside the archive, a key or allowed_signers file
    /// (also given as --revoked-keys), or a minisign key file, which
    /// `mcpack sign --key` also reads. The "archive" is the signed bytes,
    /// not a bag: 2 once the signature is checked, or at the key.
    static func checkSignature(_ target: String, _ input: Data, in project: TestProject) throws -> RunResult {
        try project.write("input.zip", signed)
        try project.write("minisign.pub", Minisign.publicKeyText(minisignKey))
        var keys = ["--public-key", "minisign.pub"]
        func allowedSigners(_ key: [UInt8]) throws {
            var reader = SSHWire.Reader(key)
            let type = reader.text().flatMap { SSHKeyType.named($0) != nil ? $0 : nil } ?? "ssh-ed25519"
            try project.write("allowed", "builds@example.org \(type) \(Data(key).base64EncodedString())\n")
            keys = ["--public-key", "allowed", "--revoked-keys", "allowed"]
        }
        switch target {
        case "minisign-signature":
            try project.write("input.zip.minisig", input)
        case "minisign-key":
            try project.write("k.key", input)
            let signed = try MCPackBinary.run(["sign", "input.zip", "--key", "k.key"], in: project.root, environment: ["MCPACK_KEY_PASSWORD": "fuzz"])
            #expect(!signed.signalled && signed.status == 2, "\(signed.status): \(signed.stdout)\(signed.stderr)")
            try project.write("minisign.pub", input)
        case "sshsig", "sshsig-blob":
            let file = target == "sshsig" ? input : Data(SSHWire.armor([UInt8](input), SSHSignature.label).utf8)
            try project.write("input.zip.sig", file)
            // Its own signer allowed, so a good signature gets past admission.
            try allowedSigners((try? SSHSignature.read(file, file: "sig"))?.signer.blob
                ?? SSHWire.string("ssh-ed25519") + SSHWire.string(minisignKey.key))
        case "ssh-key":
            try allowedSigners([UInt8](input))
        default:
            try project.write("allowed", input)
            keys = ["--public-key", "allowed", "--revoked-keys", "allowed"]
        }
        let result = try MCPackBinary.run(["verify", "input.zip"] + keys, in: project.root)
        #expect(result.status == 1 || result.status == 2, "\(result.stdout)\(result.stderr)")
        return result
    }

    /// A valid bag of one file, unpacked, for a profile to judge.
    static func writeSmallBag(in project: TestProject) throws {
        let payload = Data("one file\n".utf8)
        try project.write("bag/data/a.txt", payload)
        try project.write("bag/bagit.txt", "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n")
        try project.write("bag/bag-info.txt", "Source-Organization: Example\nPayload-Oxum: \(payload.count).1\n")
        try project.write("bag/manifest-sha256.txt", "\(Digest.hex(payload))  data/a.txt\n")
    }
}
