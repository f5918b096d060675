import Foundation
import Hashing
@testable import MCPackKit
import Signing

/// Seeds for the signature targets: minisign files made here with the
/// fixed key (prehashed, legacy, encrypted and plain secret keys), and from
/// the keys ssh-keygen made for the run (every type it signs with, a
/// certificate, a passphrase), signatures of FuzzKeys.signed made with
/// mcpack's own signer, and OpenSSH's FIDO test vectors (Tests/SSHSigVectors).
enum SignatureSeeds {
    static func write(root: URL, keys: URL?) throws {
        unsetenv("SSH_AUTH_SOCK")  // the passphrase key is a seed, not a key to look up in the user's agent
        let fm = FileManager.default
        func put(_ target: String, _ name: String, _ data: Data) throws {
            let folder = root.appendingPathComponent(target)
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
            try data.write(to: folder.appendingPathComponent(name))
        }
        func put(_ target: String, _ name: String, _ text: String) throws { try put(target, name, Data(text.utf8)) }

        // minisign: signatures, then keys.
        let key = FuzzKeys.minisign
        let signed = [UInt8](FuzzKeys.signed)
        let blake = try Digest.bytes(of: signed, .blake2b512)
        try put("minisign-signature", "prehashed.minisig", try Minisign.signature(digest: blake, key: key, trustedComment: FuzzKeys.trustedComment,
                                                                                    untrustedComment: "signature from mcpack-fuzz"))
        try put("minisign-signature", "other-comment.minisig", try Minisign.signature(digest: blake, key: key, trustedComment: "timestamp:1700000000\tfile:signed.zip\thashed",
                                                                                        untrustedComment: "signature from minisign secret key"))
        // Legacy (minisign -l): the whole file signed, under the name "Ed".
        let legacy = try key.key.sign(signed)
        let comment = "timestamp:1700000000\tfile:signed.zip"
        try put("minisign-signature", "legacy.minisig", "untrusted comment: signature from minisign secret key\n"
            + Data(Minisign.legacy + key.keyID + legacy).base64EncodedString() + "\ntrusted comment: \(comment)\n"
            + Data(try key.key.sign(legacy + Array(comment.utf8))).base64EncodedString() + "\n")

        try put("minisign-key", "public.pub", Minisign.publicKeyText(FuzzKeys.minisignPublic))
        try put("minisign-key", "public-line.pub", String(Minisign.publicKeyText(FuzzKeys.minisignPublic).split(separator: "\n")[1]))
        // sig_alg, kdf_alg, chk_alg, salt, opslimit, memlimit, then the key
        // number, seed, public key and checksum (minisign's layout).
        let salt = [UInt8](repeating: 0x11, count: 32)
        let ops: UInt64 = 32768, mem: UInt64 = 1 << 20  // scrypt N=2^10: quick
        let little = { (value: UInt64) in (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let secret = key.keyID + [UInt8](repeating: 0x5a, count: 32) + key.key.publicKey
        let checksum = Digest.blake2b256(Minisign.keyAlgorithm + secret) ?? [UInt8](repeating: 0, count: 32)
        func secretKey(kdf: String, _ body: [UInt8]) -> String {
            "untrusted comment: minisign secret key\n"
                + Data(Minisign.keyAlgorithm + (kdf.isEmpty ? [0, 0] : Array(kdf.utf8)) + Array("B2".utf8) + salt + little(ops) + little(mem) + body).base64EncodedString() + "\n"
        }
        try put("minisign-key", "plain.key", secretKey(kdf: "", secret + checksum))
        let stream = try Scrypt.derive(password: Array("fuzz".utf8), salt: salt, opsLimit: ops, memLimit: mem, length: 104)
        try put("minisign-key", "encrypted.key", secretKey(kdf: "Sc", zip(secret + checksum, stream).map { $0 ^ $1 }))

        // OpenSSH: FIDO vectors, whatever ssh-keygen made.
        let vectors = URL(fileURLWithPath: "Tests/SSHSigVectors")
        for name in ["ed25519_sk", "ecdsa_sk", "ecdsa_sk_webauthn"] {
            guard let sig = fm.contents(atPath: vectors.appendingPathComponent("\(name).sig").path),
                  let pub = fm.contents(atPath: vectors.appendingPathComponent("\(name).pub").path) else { continue }
            try seedSSH(name, signature: sig, publicKey: pub, put: put)
            if let file = fm.contents(atPath: vectors.appendingPathComponent(name).path) { try put("ssh-private-key", name, file) }
        }
        guard let keys else { return }
        var lines: [String] = ["# allowed_signers for mcpack-fuzz: every option ssh-keygen reads", ""]
        let names = ((try? fm.contentsOfDirectory(atPath: keys.path)) ?? []).filter { $0.hasSuffix(".pub") }.sorted()
        for pubName in names {
            let name = String(pubName.dropLast(4))
            let pubPath = keys.appendingPathComponent(pubName).path
            guard let pub = fm.contents(atPath: pubPath) else { continue }
            let pubLine = String(decoding: pub, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if name == "ca" {
                lines.append("builds@example.org cert-authority,namespaces=\"file\" \(pubLine)")
                try seedSSH(name, signature: nil, publicKey: pub, put: put)
                continue
            }
            let signer: SSHPrivateKey
            do {
                signer = name.hasSuffix("-cert")
                    ? try SSHPrivateKey.read(certificate: pubLine, file: pubPath, contents: fm.contents(atPath:))
                    : try SSHPrivateKey.read(String(decoding: fm.contents(atPath: keys.appendingPathComponent(name).path) ?? Data(), as: UTF8.self),
                                             file: name)
            } catch {
                // A key with a passphrase needs ssh-agent: its files are seeds still.
                try seedSSH(name, signature: nil, publicKey: pub, put: put)
                if let file = fm.contents(atPath: keys.appendingPathComponent(name).path) { try put("ssh-private-key", name, file) }
                continue
            }
            let digest = try Digest.bytes(of: signed, .sha512)
            let blob = try signer.sign(SSHSignature.signedData(namespace: SSHSignature.fileNamespace, hashName: "sha512", digest: digest))
            let sig = SSHSignature.armored(signer: signer.signerKey.blob, namespace: SSHSignature.fileNamespace, signatureBlob: blob)
            try seedSSH(name, signature: Data(sig.utf8), publicKey: pub, put: put)
            if !name.hasSuffix("-cert"), let file = fm.contents(atPath: keys.appendingPathComponent(name).path) {
                try put("ssh-private-key", name, file)
                // Each option form once, on lines that admit a real key.
                switch name {
                case "ed25519": lines.append("builds@example.org \(pubLine)")
                case "rsa": lines.append("\"alice@example.org,builds@*\" namespaces=\"file,git\" \(pubLine)")
                case "ecdsa-256": lines.append("* valid-after=\"20240101\",valid-before=\"20991231Z\" \(pubLine)")
                case "ecdsa-384": lines.append("builds@example.org,!mallory@example.org valid-after=\"202401011200\" \(pubLine)")
                default: lines.append("builds@example.org unknown-option \(pubLine)")
                }
            }
        }
        lines.append("\(names.first.flatMap { try? String(contentsOfFile: keys.appendingPathComponent($0).path, encoding: .utf8) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")")
        let allowed = lines.joined(separator: "\n") + "\n"
        try allowed.write(to: keys.appendingPathComponent("allowed_signers"), atomically: true, encoding: .utf8)
        try put("allowed-signers", "allowed_signers", allowed)
        let revoked = names.compactMap { try? String(contentsOfFile: keys.appendingPathComponent($0).path, encoding: .utf8) }.joined()
        try put("allowed-signers", "revoked", "# revoked keys\n" + revoked)
    }

    /// A signature (armoured and as its blob) and a key (as its blob) as
    /// seeds of the targets that read them.
    static func seedSSH(_ name: String, signature: Data?, publicKey: Data, put: (String, String, Data) throws -> Void) throws {
        if let signature {
            try put("sshsig", "\(name).sig", signature)
            if let blob = SSHWire.dearmor(String(decoding: signature, as: UTF8.self), SSHSignature.label) {
                try put("sshsig-blob", "\(name).bin", Data(blob))
                // Its signature blob, as the ssh-key target also checks one.
                if let parsed = try? SSHSignature.read(signature, file: name) { try put("ssh-key", "\(name)-signature.bin", Data(parsed.signatureBlob)) }
            }
        }
        let fields = String(decoding: publicKey, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        if fields.count >= 2, let blob = Data(base64Encoded: String(fields[1])) { try put("ssh-key", "\(name).bin", blob) }
    }
}
