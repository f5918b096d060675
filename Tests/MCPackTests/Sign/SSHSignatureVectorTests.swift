import Foundation
import Hashing
@testable import MCPackKit
import Signing
import Testing

/// FIDO signatures, which need a token to make: OpenSSH's own test
/// vectors (Tests/SSHSigVectors, see its README), and signatures made here
/// in the token's place to show what ssh-keygen and mcpack do with the
/// user-presence flag.
@Suite struct SSHSignatureVectorTests {
    static let vectors = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SSHSigVectors")

    static func vector(_ name: String) throws -> Data { try Data(contentsOf: vectors.appendingPathComponent(name)) }

    static func publicKey(_ name: String) throws -> SSHKey {
        let fields = String(decoding: try vector(name), as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
        return try SSHKey.read(type: fields[0], base64: fields[1])
    }

    @Test(arguments: ["ed25519_sk", "ecdsa_sk", "ecdsa_sk_webauthn"])
    func openSSHsFIDOVectorsCheckAsSSHKeygenChecksThem(_ name: String) throws {
        let message = [UInt8](try Self.vector("signed-data"))
        let namespace = String(decoding: try Self.vector("namespace"), as: UTF8.self)
        let signature = try SSHSignature.read(try Self.vector("\(name).sig"), file: "\(name).sig")
        #expect(signature.namespace == namespace)
        #expect(signature.signer.same(as: try Self.publicKey("\(name).pub")))
        let digest = try Digest.bytes(of: message, signature.hashAlgorithm)
        #expect(signature.check(digest: digest) == .good)

        // The same verdict from ssh-keygen, and from the allowed_signers path.
        let scratch = try SSHScratch()
        defer { scratch.destroy() }
        try Self.vector("signed-data").write(to: URL(fileURLWithPath: scratch.path("signed-data")))
        try Self.vector("\(name).sig").write(to: URL(fileURLWithPath: scratch.path("signed-data.sig")))
        try scratch.write("tester \(String(decoding: try Self.vector("\(name).pub"), as: UTF8.self))", to: "allowed")
        #expect(try scratch.sshKeygenAccepts("allowed", identity: "tester", file: "signed-data", namespace: namespace))
        var signers = AllowedSigners()
        try signers.read(try scratch.text("allowed"), file: "allowed")
        #expect(signers.admit(signature.signer, identity: "tester", namespace: namespace, at: SSHTime.now) == .admitted(line: "allowed line 1", name: "tester"))

        // Another message, and each byte of the signature changed in turn:
        // never good, never a crash.
        var other = message
        other[0] ^= 1
        // A WebAuthn signature names its message in the client data, so
        // another message is refused before the arithmetic.
        #expect(signature.check(digest: try Digest.bytes(of: other, signature.hashAlgorithm))
                == (name.hasSuffix("webauthn") ? .refused("the WebAuthn signature's client data is not of this message") : .mismatch))
        for index in signature.signatureBlob.indices {
            var changed = signature
            changed.signatureBlob[index] ^= 0x04
            #expect(changed.check(digest: digest) != .good, "byte \(index)")
        }
    }

    /// Every byte of a whole vector's SSHSIG blob changed in turn: each
    /// change is refused as damaged or fails the check, and none passes.
    @Test(arguments: ["ed25519_sk", "ecdsa_sk", "ecdsa_sk_webauthn"])
    func noChangedByteOfAVectorPasses(_ name: String) throws {
        let message = [UInt8](try Self.vector("signed-data"))
        let text = String(decoding: try Self.vector("\(name).sig"), as: UTF8.self)
        let blob = try #require(SSHWire.dearmor(text, "SSH SIGNATURE"))
        let original = try Self.publicKey("\(name).pub")
        for index in blob.indices {
            for flip: UInt8 in [0x01, 0x80] {
                var changed = blob
                changed[index] ^= flip
                guard let signature = try? SSHSignature.read(Data(SSHWire.armor(changed, "SSH SIGNATURE").utf8), file: "x") else { continue }
                let digest = try Digest.bytes(of: message, signature.hashAlgorithm)
                // A changed key, namespace or hash name may still parse: then the
                // key is not the one allowed, or the signature fails.
                let passes = signature.check(digest: digest) == .good && signature.signer.same(as: original) && signature.namespace == "unittest"
                #expect(!passes, "byte \(index) ^ \(flip)")
            }
        }
    }

    /// A FIDO signature whose flags say the token was not touched (a key
    /// made with -O no-touch-required): ssh-keygen -Y verify accepts it,
    /// mcpack refuses it, as sshd does by default. Made here with
    /// OpenSSL in the token's place, over what PROTOCOL.u2f says a token
    /// signs; with the flag set, both accept the same construction.
    @Test(arguments: [SSHKeyType.skECDSA, .skEd25519])
    func aFIDOSignatureWithoutUserPresenceIsRefused(_ type: SSHKeyType) throws {
        let scratch = try SSHScratch()
        defer { scratch.destroy() }
        try scratch.payload()
        let file = [UInt8](try scratch.data("delivery.zip"))
        let (key, publicKey) = try Self.tokenKey(type)
        try scratch.write("signer@test \(type.rawValue) \(Data(publicKey.blob).base64EncodedString())\n", to: "allowed")
        for flags: UInt8 in [0x01, 0x05, 0x00, 0x04] {
            let signed = SSHSignature.signedData(namespace: "file", hashName: "sha512", digest: try Digest.bytes(of: file, .sha512))
            let tokenSigned = try Digest.bytes(of: Array("ssh:".utf8), .sha256) + [flags] + SSHWire.uint32(7) + (try Digest.bytes(of: signed, .sha256))
            let raw = try key.sign(tokenSigned, digest: .sha256)
            let inner: [UInt8]
            switch raw {
            case .ecdsa(let r, let s, _): inner = SSHWire.string(SSHWire.mpint(r) + SSHWire.mpint(s))
            case .ed25519(let bytes): inner = SSHWire.string(bytes)
            case .rsa: Issue.record("not a FIDO key"); return
            }
            let blob = SSHWire.string(type.rawValue) + inner + [flags] + SSHWire.uint32(7)
            try scratch.write(SSHSignature.armored(signer: publicKey.blob, namespace: "file", signatureBlob: blob), to: "delivery.zip.sig")
            #expect(try scratch.sshKeygenAccepts("allowed", identity: "signer@test"), "flags \(flags)")
            let report = try scratch.mcpackReport(["allowed"], options: SignatureOptions(identity: "signer@test"))
            if flags & FIDOFlags.userPresence != 0 {
                #expect(report.valid, "\(report.problems)")
                #expect(report.signer == "signer@test \(type.rawValue) \(publicKey.fingerprint)")
            } else {
                #expect(!report.valid)
                #expect(report.problem == "damaged signature: the FIDO signature was made without user presence (the token was not touched)")
            }
        }
    }

    /// A key standing in for a token's: RFC 6979's P-256 key, or RFC 8032's
    /// first Ed25519 key; application "ssh:", ssh-keygen's default.
    static func tokenKey(_ type: SSHKeyType) throws -> (PrivateKey, SSHPublicKey) {
        if type == .skECDSA {
            let point = [4] + bytes(hex: "60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6")
                + bytes(hex: "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299")
            let key = try PrivateKey.ecdsa(.p256, scalar: bytes(hex: "C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721"), point: point)
            return (key, SSHPublicKey(material: .skECDSA(point: point, application: "ssh:")))
        }
        let seed = bytes(hex: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
        let publicKey = bytes(hex: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        return (try PrivateKey.ed25519(seed: seed), SSHPublicKey(material: .skEd25519(publicKey, application: "ssh:")))
    }

    /// A FIDO private key file holds a handle, not the key: mcpack signs
    /// with it through ssh-agent only, and says so.
    @Test func aFIDOPrivateKeyFileSignsOnlyThroughTheAgent() throws {
        let scratch = try SSHScratch()
        defer { scratch.destroy() }
        try scratch.payload()
        for name in ["ed25519_sk", "ecdsa_sk"] {
            try Self.vector(name).write(to: URL(fileURLWithPath: scratch.path(name)))
            let result = try MCPackBinary.run(["sign", "delivery.zip", "--key", name], in: scratch.folder, environment: ["SSH_AUTH_SOCK": ""])
            #expect(result.status == 2 && !result.signalled)
            #expect(result.stderr.contains("\(name): the key is a FIDO key: its private half is on the token, which ssh-agent asks to sign"), "\(result.stderr)")
            #expect(result.stderr.contains("no agent is running"), "\(result.stderr)")
        }
    }
}
