import Foundation
import Hashing
@testable import MCPackKit
import Signing

/// What the signature targets and their seeds share: the bytes every seed
/// signature covers, the minisign key that signs them, and the OpenSSH keys
/// ssh-keygen made for this run (scripts/fuzz.sh, in MCPACK_FUZZ_KEYS), so
/// that a mutated good signature reaches the checks after the parsing.
enum FuzzKeys {
    /// The "archive" the seed signatures are of: small, so each run hashes
    /// it in no time; the signature targets check their input against it.
    static let signed = Data("mcpack fuzz: the bytes every seed signature covers\n".utf8)

    static let minisignKeyID: [UInt8] = [0x6d, 0x63, 0x70, 0x61, 0x63, 0x6b, 0x46, 0x5a]

    /// A fixed seed: the seeds and the targets must agree on the key, and
    /// nothing here protects anything.
    static var minisign: Minisign.SecretKey {
        Minisign.SecretKey(keyID: minisignKeyID, key: try! Ed25519PrivateKey(seed: [UInt8](repeating: 0x5a, count: 32)))
    }

    static var minisignPublic: Minisign.PublicKey {
        Minisign.PublicKey(keyID: minisignKeyID, key: minisign.key.publicKey)
    }

    static var folder: URL {
        URL(fileURLWithPath: ProcessInfo.processInfo.environment["MCPACK_FUZZ_KEYS"] ?? ".build-fuzz/keys")
    }

    /// The public keys ssh-keygen made (`*.pub`, certificates too), as read.
    static func sshKeys() -> [SSHKey] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().filter { $0.hasSuffix(".pub") }.compactMap { name in
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else { return nil }
            let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
            guard fields.count >= 2 else { return nil }
            return try? SSHKey.read(type: fields[0], base64: fields[1])
        }
    }

    /// The trusted comment mcpack writes, for the signed bytes.
    static var trustedComment: String {
        "bundle:magna-carta version:1.0.0 sha256:\(Digest.hex(signed)) file:signed.zip"
    }
}

extension FuzzTarget {
    /// The signed bytes as an archive in memory-backed storage, and where
    /// each input goes beside it as its signature.
    static let signedArchive = "/dev/shm/mcpack-fuzz-\(getpid())-signed.zip"

    nonisolated(unsafe) static var trusted: TrustedKeys?
    nonisolated(unsafe) static var sshPublicKeys: [SSHPublicKey] = []

    static func setUpSignatures() {
        unsetenv("SSH_AUTH_SOCK")  // a key mcpack cannot open must not reach a real agent
        guard FileManager.default.createFile(atPath: signedArchive, contents: FuzzKeys.signed) else { fatalError("cannot write \(signedArchive)") }
        let allowed = FuzzKeys.folder.appendingPathComponent("allowed_signers").path
        let minisign = Minisign.publicKeyText(FuzzKeys.minisignPublic)
        var keys = [minisign.split(separator: "\n")[1].description]
        if FileManager.default.fileExists(atPath: allowed) { keys.append(allowed) }
        // At a fixed time inside every seed certificate's validity, so a
        // run does not change what it reaches as the days pass.
        trusted = try? TrustedKeys(keys, options: SignatureOptions(verifyTime: "20300101Z"))
        sshPublicKeys = FuzzKeys.sshKeys().map(\.publicKey)
        let vectors = URL(fileURLWithPath: "Tests/SSHSigVectors")
        for name in ["ed25519_sk.pub", "ecdsa_sk.pub"] {
            let fields = String(decoding: FileManager.default.contents(atPath: vectors.appendingPathComponent(name).path) ?? Data(), as: UTF8.self)
                .split(whereSeparator: \.isWhitespace).map(String.init)
            if fields.count >= 2, let key = try? SSHKey.read(type: fields[0], base64: fields[1]) { sshPublicKeys.append(key.publicKey) }
        }
        if trusted == nil || sshPublicKeys.isEmpty {
            fatalError("no keys in \(FuzzKeys.folder.path): run scripts/fuzz.sh, which makes them with ssh-keygen (set MCPACK_FUZZ_KEYS)")
        }
    }

    static func besideSignedArchive(_ suffix: String, _ data: Data) {
        guard FileManager.default.createFile(atPath: signedArchive + suffix, contents: data) else { fatalError("cannot write the signature") }
    }

    // MARK: minisign

    /// A .minisig checked as `verify --public-key` checks it: parsed, its
    /// key ID, the signature of the file, the trusted comment's.
    static let minisignSignature = FuzzTarget(name: "minisign-signature", setUp: setUpSignatures) { data in
        besideSignedArchive(".minisig", data)
        defer { unlink(signedArchive + ".minisig") }
        for requirePrehashed in [false, true] {
            let report = SignatureCheck.checkMinisign(archive: signedArchive, keys: trusted!.minisign, requirePrehashed: requirePrehashed)
            if report.valid, report.trustedComment == nil { fatalError("a good signature without its trusted comment") }
            _ = VersionRules.commentFields(report.trustedComment ?? "")
        }
    }

    /// A minisign public key (file or base64 line) and secret key. An
    /// encrypted key's password is given only when its scrypt limits ask
    /// for little: the limits' arithmetic is fuzzed on every input, the
    /// derivation itself where it is quick.
    static let minisignKey = FuzzTarget(name: "minisign-key") { data in
        let text = String(decoding: data, as: UTF8.self)
        _ = try? Minisign.readPublicKey(text, file: "fuzz.pub")
        _ = Minisign.isSecretKey(text)
        _ = AllowedSigners.isKeyText(text)
        var cheap = false
        let lines = text.split(whereSeparator: \.isNewline)
        if lines.count >= 2, let blob = Data(base64Encoded: String(lines[1]).trimmingCharacters(in: .whitespaces)), blob.count == 158 {
            let bytes = [UInt8](blob)
            let ops = bytes[38..<46].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let mem = bytes[46..<54].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let (logN, r, p) = Scrypt.parameters(opsLimit: ops, memLimit: mem)
            cheap = logN <= 12 && UInt64(r) * UInt64(p) <= 64
        }
        _ = try? Minisign.readSecretKey(text, file: "fuzz.key") {
            guard cheap else { throw FileError(path: "fuzz.key", message: "no password for a costly key") }
            return "fuzz"
        }
    }

    // MARK: OpenSSH

    /// An SSH signature file checked as `verify --public-key
    /// allowed_signers` checks it: armour, SSHSIG blob, signer key or
    /// certificate, signature, revocation, allowed_signers.
    static let sshsig = FuzzTarget(name: "sshsig", setUp: setUpSignatures) { data in
        checkSSHSignature(data)
    }

    /// The SSHSIG blob itself, armoured here: mutations land on its fields,
    /// not on base64 that no longer decodes.
    static let sshsigBlob = FuzzTarget(name: "sshsig-blob", setUp: setUpSignatures) { data in
        checkSSHSignature(Data(SSHWire.armor([UInt8](data), SSHSignature.label).utf8))
    }

    static func checkSSHSignature(_ file: Data) {
        besideSignedArchive(".sig", file)
        defer { unlink(signedArchive + ".sig") }
        let report = SignatureCheck.checkSSH(archive: signedArchive, keys: trusted!)
        if report.valid, report.signer == nil { fatalError("a good SSH signature without its signer") }
        if let signature = try? SSHSignature.read(file, file: "fuzz.sig") {
            _ = signature.signer.certificate?.refusal(at: 1_900_000_000, principal: "builds@example.org")
            _ = signature.signer.label
        }
    }

    /// A public key or certificate blob, as a .pub line, an allowed_signers
    /// line, a signature and a certificate's authority carry one; then the
    /// key OpenSSL builds from its numbers checks a signature.
    static let sshKey = FuzzTarget(name: "ssh-key", setUp: setUpSignatures) { data in
        guard let key = try? SSHKey.read(blob: [UInt8](data)) else { return }
        // A key is its numbers (an mpint may carry leading zeros, as
        // OpenSSH allows): written back, it must read as the same key.
        guard let again = try? SSHKey.read(blob: key.blob), again.same(as: key) else { fatalError("a key written back does not read as itself") }
        _ = key.label
        _ = key.certificate?.refusal(at: 1_900_000_000, principal: nil)
        _ = key.publicKey.check(signature: [UInt8](data), over: [UInt8](FuzzKeys.signed), requireUserPresence: true)
        // The same bytes as a signature by each real key: the blob parsers
        // of every signature type.
        for publicKey in sshPublicKeys { _ = publicKey.check(signature: [UInt8](data), over: [UInt8](FuzzKeys.signed), requireUserPresence: true) }
    }

    /// An OpenSSH private key file, as `mcpack sign --key` reads it (no
    /// agent: a key it cannot open is refused with the reason).
    static let sshPrivateKey = FuzzTarget(name: "ssh-private-key", setUp: { unsetenv("SSH_AUTH_SOCK") }) { data in
        let text = String(decoding: data, as: UTF8.self)
        _ = SSHPrivateKey.isPrivateKey(text)
        guard let key = try? SSHPrivateKey.read(text, file: "fuzz_key") else { return }
        // Signing checks the signature with the public half, which refuses
        // a key whose private numbers do not belong to it: that refusal is
        // an answer, only a crash is a finding.
        _ = try? key.sign(Array("fuzz".utf8))
    }

    /// allowed_signers lines, and the same text as a revocation list, then
    /// asked about a key as verify asks: by identity, namespace and time.
    static let allowedSigners = FuzzTarget(name: "allowed-signers", setUp: setUpSignatures) { data in
        let text = String(decoding: data, as: UTF8.self)
        var signers = AllowedSigners()
        if (try? signers.read(text, file: "allowed_signers")) != nil {
            for key in sshPublicKeys.prefix(3).map(SSHKey.plain) + signers.signers.prefix(2).map(\.key) {
                for identity in [nil, "builds@example.org"] as [String?] {
                    _ = signers.admit(key, identity: identity, namespace: SSHSignature.fileNamespace, at: 1_900_000_000)
                }
            }
            _ = signers.candidates(for: "builds@example.org")
        }
        if let revoked = try? RevokedKeys(data, file: "revoked") {
            for key in sshPublicKeys.prefix(3) { _ = revoked.revocation(of: .plain(key)) }
        }
    }
}
