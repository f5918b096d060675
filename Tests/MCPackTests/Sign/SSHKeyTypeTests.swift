import Foundation
import Hashing
@testable import MCPackKit
import Testing

/// Each key type ssh-keygen makes here, both ways: mcpack signs and
/// ssh-keygen checks, ssh-keygen signs and mcpack checks; Ed25519 and RSA
/// (PKCS#1 v1.5) signatures are deterministic, so the bytes are the same.
@Suite struct SSHKeyTypeTests {
    /// ssh-keygen -t (and -b) spellings, and the key type each makes.
    static let types: [(keygen: String, name: String)] = [
        ("ed25519", "ssh-ed25519"), ("rsa", "ssh-rsa"),
        ("ecdsa-256", "ecdsa-sha2-nistp256"), ("ecdsa-384", "ecdsa-sha2-nistp384"), ("ecdsa-521", "ecdsa-sha2-nistp521"),
    ]

    @Test(arguments: types.map(\.keygen))
    func mcpackAndSSHKeygenCheckEachOthersSignatures(_ type: String) throws {
        let name = Self.types.first { $0.keygen == type }!.name
        let scratch = try SSHScratch()
        defer { scratch.destroy() }
        try scratch.keygen(type, "signer")
        try scratch.keygen(type, "other")
        try scratch.payload()
        try scratch.write("signer@test \(try scratch.text("signer.pub"))", to: "allowed")
        try scratch.write("other@test \(try scratch.text("other.pub"))", to: "allowed_other")
        let fingerprint = String(try scratch.shell("ssh-keygen -l -f signer.pub").stdout.split(separator: " ")[1])

        let signed = try ArchiveSigner.sign(archive: scratch.path("delivery.zip"), keyFile: scratch.path("signer"), password: { "" })
        #expect(signed.signer == "\(name) \(fingerprint) (signer@test)")
        #expect(try scratch.sshKeygenAccepts("allowed", identity: "signer@test"))
        let ours = try scratch.data("delivery.zip.sig")

        try FileManager.default.removeItem(atPath: scratch.path("delivery.zip.sig"))
        #expect(try scratch.shell("ssh-keygen -q -Y sign -n file -f signer delivery.zip").status == 0)
        if !type.hasPrefix("ecdsa") {
            #expect(try scratch.data("delivery.zip.sig") == ours, "\(type): not ssh-keygen's bytes")
        }
        // The principal of the allowed_signers line, or the .pub line's comment.
        for keys in [["allowed"], ["signer.pub"]] {
            let report = try scratch.mcpackReport(keys)
            #expect(report.valid, "\(report.problems)")
            #expect(report.signer == "signer@test \(name) \(fingerprint)")
        }

        // Another key of the same type: both refuse.
        #expect(try !scratch.sshKeygenAccepts("allowed_other", identity: "other@test"))
        let wrong = try scratch.mcpackReport(["allowed_other"])
        #expect(!wrong.valid && wrong.problem?.hasPrefix("signed with another key: \(name) \(fingerprint), not one allowed") == true, "\(wrong.problems)")

        // Each byte of the signature blob changed in turn: never good.
        let signature = try SSHSignature.read(try scratch.data("delivery.zip.sig"), file: "sig")
        let digest = try Digest.bytes(of: [UInt8](try scratch.data("delivery.zip")), .sha512)
        #expect(signature.check(digest: digest) == .good)
        for index in signature.signatureBlob.indices {
            var changed = signature
            changed.signatureBlob[index] ^= 0x10
            #expect(changed.check(digest: digest) != .good, "\(type) byte \(index)")
        }

        // A changed byte of the file: both refuse, mcpack saying why.
        var file = try scratch.data("delivery.zip")
        file[file.count / 2] ^= 1
        try file.write(to: URL(fileURLWithPath: scratch.path("delivery.zip")))
        #expect(try !scratch.sshKeygenAccepts("allowed", identity: "signer@test"))
        let changed = try scratch.mcpackReport(["allowed"])
        #expect(changed.problems == ["the signature does not match the archive: it was changed after signing, or the signature is of another file"])
    }

    /// RSA signatures ssh-keygen 9.2 does not make but accepts (rsa-sha2-256)
    /// and refuses (ssh-rsa, SHA-1), made here with the openssl command
    /// from the same key: mcpack agrees with ssh-keygen on each.
    @Test func rsaSHA256IsAcceptedAndSHA1Refused() throws {
        let scratch = try SSHScratch()
        defer { scratch.destroy() }
        try scratch.keygen("rsa", "signer")
        try scratch.payload()
        try scratch.write("signer@test \(try scratch.text("signer.pub"))", to: "allowed")
        #expect(try scratch.shell("cp signer signer.pem && ssh-keygen -q -p -N '' -P '' -m PEM -f signer.pem").status == 0)
        let key = try SSHScratchKey.publicKey(scratch.text("signer.pub"))
        let signed = SSHSignature.signedData(namespace: "file", hashName: "sha512",
                                             digest: try Digest.bytes(of: [UInt8](try scratch.data("delivery.zip")), .sha512))
        try Data(signed).write(to: URL(fileURLWithPath: scratch.path("signed")))
        for (name, digest, accepted) in [("rsa-sha2-512", "sha512", true), ("rsa-sha2-256", "sha256", true), ("ssh-rsa", "sha1", false)] {
            let made = try scratch.shell("openssl dgst -\(digest) -sign signer.pem -out raw signed")
            try #require(made.status == 0, "\(made.stdout)")
            let blob = SSHWire.string(name) + SSHWire.string([UInt8](try scratch.data("raw")))
            try scratch.write(SSHSignature.armored(signer: key.blob, namespace: "file", signatureBlob: blob), to: "delivery.zip.sig")
            #expect(try scratch.sshKeygenAccepts("allowed", identity: "signer@test") == accepted, "\(name)")
            let report = try scratch.mcpackReport(["allowed"])
            #expect(report.valid == accepted, "\(name): \(report.problems)")
            if !accepted {
                #expect(report.problem?.contains("an ssh-rsa signature, made with SHA-1, which OpenSSH refuses too") == true, "\(report.problems)")
            }
        }
    }

    /// `mcpack sign --key KEY-cert.pub`, as `ssh-keygen -Y sign -f
    /// KEY-cert.pub`: the certificate named in the signature, the bytes
    /// ssh-keygen's; checked through a cert-authority line by both.
    @Test func signingWithACertificateWritesSSHKeygensBytes() throws {
        let scratch = try SSHScratch()
        defer { scratch.destroy() }
        try scratch.keygen("ed25519", "ca")
        try scratch.keygen("rsa", "signer")
        try scratch.payload()
        #expect(try scratch.shell("ssh-keygen -q -s ca -I signer-id -n signer@test -V -1d:+1d signer.pub").status == 0)
        try scratch.write("*@test cert-authority \(try scratch.text("ca.pub"))", to: "allowed")
        let signed = try ArchiveSigner.sign(archive: scratch.path("delivery.zip"), keyFile: scratch.path("signer-cert.pub"), password: { "" })
        #expect(signed.signer.hasPrefix("ssh-rsa-cert-v01@openssh.com SHA256:"), "\(signed.signer)")
        let ours = try scratch.data("delivery.zip.sig")
        #expect(try scratch.sshKeygenAccepts("allowed", identity: "signer@test"))
        #expect(try scratch.shell("rm delivery.zip.sig && ssh-keygen -q -Y sign -n file -f signer-cert.pub delivery.zip").status == 0)
        #expect(try scratch.data("delivery.zip.sig") == ours)
        let report = try scratch.mcpackReport(["allowed"], options: SignatureOptions(identity: "signer@test"))
        #expect(report.valid, "\(report.problems)")
        #expect(report.signer?.hasPrefix("signer@test ssh-rsa-cert-v01@openssh.com SHA256:") == true, "\(report.signer ?? "")")

        // A public key, or a certificate with no private key beside it: refused, named.
        #expect(throws: FileError.self) { try ArchiveSigner.loadKey(scratch.path("signer.pub"), password: { "" }) }
        try FileManager.default.moveItem(atPath: scratch.path("signer-cert.pub"), toPath: scratch.path("lonely-cert.pub"))
        let lonely = #expect(throws: FileError.self) { try ArchiveSigner.loadKey(scratch.path("lonely-cert.pub"), password: { "" }) }
        #expect(lonely?.message.contains("lonely is not there") == true, "\(lonely?.message ?? "")")
    }
}

enum SSHScratchKey {
    /// The key of a .pub line.
    static func publicKey(_ line: String) throws -> SSHPublicKey {
        let fields = line.split(whereSeparator: \.isWhitespace).map(String.init)
        return try SSHKey.read(type: fields[0], base64: fields[1]).publicKey
    }
}
