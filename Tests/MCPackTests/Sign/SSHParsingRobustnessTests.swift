import Foundation
@testable import MCPackKit
import Testing

/// The OpenSSH parsers a receiver or sender feeds untrusted text through,
/// given damaged copies of good input: each answers (a value or an error
/// naming the file), and none traps. Seeded, so a failure repeats.
@Suite struct SSHParsingRobustnessTests {
    /// A small deterministic generator (SplitMix64), for repeatable damage.
    struct Damage: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        /// Flips, drops, repeats or cuts bytes, one to four times.
        mutating func damage(_ bytes: [UInt8]) -> [UInt8] {
            var out = bytes
            for _ in 0..<Int.random(in: 1...4, using: &self) where !out.isEmpty {
                let at = Int.random(in: 0..<out.count, using: &self)
                switch Int.random(in: 0..<4, using: &self) {
                case 0: out[at] ^= UInt8.random(in: 1...255, using: &self)
                case 1: out.remove(at: at)
                case 2: out.insert(contentsOf: out[at..<min(out.count, at + 8)], at: at)
                default: out = Array(out.prefix(at))
                }
            }
            return out
        }
    }

    @Test func damagedKeysCertificatesAndSignaturesNeverTrap() throws {
        let scratch = try SSHScratch()
        defer { scratch.destroy() }
        try scratch.keygen("ed25519", "ca")
        try scratch.payload()
        var blobs: [[UInt8]] = []
        var privateKeys: [[UInt8]] = []
        for type in ["rsa", "ecdsa-521", "ed25519"] {
            try scratch.keygen(type, type)
            #expect(try scratch.shell("ssh-keygen -q -s ca -I id -n \(type)@test \(type).pub && ssh-keygen -q -Y sign -n file -f \(type)-cert.pub delivery.zip && mv delivery.zip.sig \(type).sig").status == 0)
            for file in ["\(type).pub", "\(type)-cert.pub"] {
                let fields = try scratch.text(file).split(separator: " ")
                blobs.append([UInt8](Data(base64Encoded: String(fields[1]))!))
            }
            blobs.append(try #require(SSHWire.dearmor(try scratch.text("\(type).sig"), "SSH SIGNATURE")))
            privateKeys.append(try #require(SSHWire.dearmor(try scratch.text(type), "OPENSSH PRIVATE KEY")))
        }
        var damage = Damage(state: 40)
        for round in 0..<3000 {
            let blob = damage.damage(blobs[round % blobs.count])
            _ = try? SSHKey.read(blob: blob)
            _ = try? SSHSignature.read(Data(SSHWire.armor(blob, "SSH SIGNATURE").utf8), file: "sig")
            if let key = try? SSHKey.read(blob: blobs[round % 2]) {
                _ = key.publicKey.check(signature: blob, over: [1, 2, 3], requireUserPresence: true)
            }
            let privateKey = damage.damage(privateKeys[round % privateKeys.count])
            _ = try? SSHPrivateKey.read(SSHWire.armor(privateKey, "OPENSSH PRIVATE KEY"), file: "key")
        }
    }

    /// A certificate whose authority is a certificate, whose authority is
    /// one too, 20,000 deep (a 2.9 MB signature file): mcpack read each
    /// authority whole before refusing it for being a certificate, and
    /// overflowed the stack (SIGSEGV). OpenSSH refuses a certificate there
    /// from its type name (cert_parse reads the authority with certificates
    /// disallowed); so does mcpack now, at the first level.
    @Test func aCertificateNestedAsItsOwnAuthorityIsRefusedNotRecursedInto() throws {
        func string(_ bytes: [UInt8]) -> [UInt8] { SSHWire.string(bytes) }
        let certificateType = SSHKeyType.ed25519.certificateName
        var blob = SSHWire.string("ssh-ed25519") + string([UInt8](repeating: 1, count: 32))
        for _ in 0..<20_000 {
            blob = SSHWire.string(certificateType) + string([]) + string([UInt8](repeating: 2, count: 32))
                + [0, 0, 0, 0, 0, 0, 0, 1] + SSHWire.uint32(1) + SSHWire.string("id") + string(SSHWire.string("p"))
                + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xff, count: 8) + string([]) + string([]) + string([])
                + string(blob) + string([UInt8](repeating: 0, count: 8))
        }
        let error = #expect(throws: SSHKeyError.self) { try SSHKey.read(blob: blob) }
        #expect(error?.message == "the certificate's authority key is damaged, or itself a certificate")

        // As a receiver meets it: the signer of a signature file.
        let scratch = try SSHScratch()
        defer { scratch.destroy() }
        try scratch.keygen("ed25519", "k")
        try scratch.payload()
        let signature = Array("SSHSIG".utf8) + SSHWire.uint32(1) + string(blob) + SSHWire.string("file") + string([])
            + SSHWire.string("sha512") + string(SSHWire.string("ssh-ed25519") + string([UInt8](repeating: 0, count: 64)))
        try scratch.write(SSHWire.armor(signature, "SSH SIGNATURE"), to: "delivery.zip.sig")
        let result = try MCPackBinary.run(["verify", "delivery.zip", "--public-key", "k.pub"], in: scratch.folder)
        #expect(!result.signalled && result.status == 2, "\(result.status) \(result.stderr)")
        #expect(result.stdout.contains("the signer's key: the certificate's authority key is damaged, or itself a certificate"), "\(result.stdout)")
    }

    @Test func damagedAllowedSignersAndRevocationListsNeverTrap() throws {
        let scratch = try SSHScratch()
        defer { scratch.destroy() }
        try scratch.keygen("ecdsa-256", "signer")
        let key = try scratch.text("signer.pub")
        let text = """
            # the team
            "signer@test",*@example.org,!mallory@example.org namespaces="file,git",valid-after="20200101",valid-before="20991231235959Z" \(key)\
            *@test cert-authority,NAMESPACES="f\\"i*" \(key)\
            \(key)
            """
        var damage = Damage(state: 7)
        for _ in 0..<5000 {
            let damaged = String(decoding: damage.damage(Array(text.utf8)), as: UTF8.self)
            var signers = AllowedSigners()
            do {
                try signers.read(damaged, file: "allowed")
                for signer in signers.signers {
                    _ = signer.verdict(for: signer.key, identity: "signer@test", namespace: "file", at: SSHTime.now)
                }
            } catch let error as FileError {
                #expect(error.path.hasPrefix("allowed"))
            }
            _ = try? RevokedKeys(Data(damaged.utf8), file: "revoked")
            _ = SignerOptions.parse(String(damaged.prefix(80)))
            _ = SSHTime.parse(String(damaged.prefix(Int.random(in: 0...16, using: &damage))))
        }
    }
}
