import MCPackBag
import FileIO
import Foundation
import Hashing
import Signing

/// What `mcpack sign` wrote.
package struct SignResult: Sendable, Encodable {
    package var archive: String
    package var signature: String
    /// `minisign` or `sshsig`.
    package var format: String
    /// The minisign key ID, or the SSH key's fingerprint.
    package var signer: String
    /// minisign's trusted comment (signed with the archive); nil for SSHSIG,
    /// which has none.
    package var trustedComment: String?
    package var sha256: String
}

/// `mcpack sign`, and `build --sign-key`: a detached signature beside the
/// archive, `ARCHIVE.minisig` for a minisign secret key, `ARCHIVE.sig`
/// (SSHSIG, namespace `file`) for an OpenSSH key (Ed25519, RSA, ECDSA; FIDO
/// and passphrase-protected keys through ssh-agent). The archive is
/// read once for every digest either format needs.
package enum ArchiveSigner {
    /// `password` is asked only for an encrypted minisign key.
    package static func sign(archive: String, keyFile: String, password: () throws -> String) throws -> SignResult {
        try sign(archive: archive, with: loadKey(keyFile, password: password))
    }

    /// Reads (and for minisign, decrypts) a key once, so a build asks for
    /// the password and refuses a bad key before minutes of tiling.
    package static func loadKey(_ keyFile: String, password: () throws -> String) throws -> SigningKey {
        guard let keyData = FileManager.default.contents(atPath: keyFile) else {
            throw FileError(path: keyFile, message: "cannot read the key file")
        }
        let keyText = String(decoding: keyData, as: UTF8.self)
        if Minisign.isSecretKey(keyText) {
            return SigningKey(kind: .minisign(try Minisign.readSecretKey(keyText, file: keyFile, password: password)))
        }
        if SSHPrivateKey.isPrivateKey(keyText) {
            return SigningKey(kind: .ssh(try SSHPrivateKey.read(keyText, file: keyFile)))
        }
        if AllowedSigners.isKeyText(keyText) {
            return SigningKey(kind: .ssh(try SSHPrivateKey.read(certificate: keyText, file: keyFile, contents: FileManager.default.contents(atPath:))))
        }
        throw FileError(path: keyFile, message: "neither a minisign secret key (minisign -G) nor an OpenSSH private key (ssh-keygen -t ed25519, rsa or ecdsa)")
    }

    package static func sign(archive: String, with key: SigningKey) throws -> SignResult {
        guard FileManager.default.fileExists(atPath: archive) else { throw FileError(path: archive, message: "no such file") }
        let name = (archive as NSString).lastPathComponent
        switch key.kind {
        case .minisign(let key):
            let label = try bundleLabel(archive)
            let digests = try ArchiveDigests(archive, .blake2b512)
            let trusted = "\(label) sha256:\(digests.sha256) file:\(name)"
            let text = try Minisign.signature(digest: digests.other, key: key, trustedComment: trusted,
                                              untrustedComment: "mcpack signature of \(name), key \(Minisign.keyIDText(key.keyID))")
            let path = archive + ".minisig"
            try write(text, to: path)
            return SignResult(archive: archive, signature: path, format: "minisign", signer: "minisign key \(Minisign.keyIDText(key.keyID))",
                              trustedComment: trusted, sha256: digests.sha256)
        case .ssh(let key):
            // SHA-512, ssh-keygen's default, so its signature and mcpack's
            // are the same bytes where the key type is deterministic.
            let digests = try ArchiveDigests(archive, .sha512)
            let namespace = SSHSignature.fileNamespace
            let signature = try key.sign(SSHSignature.signedData(namespace: namespace, hashName: "sha512", digest: digests.other))
            let path = archive + ".sig"
            try write(SSHSignature.armored(signer: key.signerKey.blob, namespace: namespace, signatureBlob: signature), to: path)
            let comment = key.comment.isEmpty ? "" : " (\(key.comment))"
            let certificate = key.certificate.map { " (certificate \"\($0.keyID)\" by \($0.authority.fingerprint))" } ?? ""
            return SignResult(archive: archive, signature: path, format: "sshsig",
                              signer: "\(key.signerKey.label)\(comment)\(certificate)", trustedComment: nil, sha256: digests.sha256)
        }
    }

    /// `bundle:NAME version:VERSION`, from the bag's bag-info.txt; an
    /// archive that is not a bag mcpack made is named by its file.
    static func bundleLabel(_ archive: String) throws -> String {
        var info: [String: String] = [:]
        if let data = BagReader.zipFiles(archive, ["bag-info.txt"])?.files["bag-info.txt"]
            ?? (try? BagReader(archive, only: ["bag-info.txt"], keep: { _ in BagReader.Keep(.whole) }))
            .flatMap({ try? $0.next() })?.data {
            for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2 { info[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces) }
            }
        }
        guard let name = info["Bundle-Name"] else {
            throw FileError(path: archive, message: "not a bundle mcpack built (its bag-info.txt has no Bundle-Name): mcpack signs its own archives")
        }
        return "bundle:\(name) version:\(info["Bundle-Version"] ?? "none")"
    }

    private static func write(_ text: String, to path: String) throws {
        let output = OutputFile(final: URL(fileURLWithPath: path))
        do {
            try Data(text.utf8).write(to: output.temporary)
        } catch {
            throw FileError(path: path, message: "cannot write the signature: \(error.localizedDescription)")
        }
        try output.commit()
    }
}

/// A key read and ready to sign with.
package struct SigningKey {
    enum Kind {
        case minisign(Minisign.SecretKey)
        case ssh(SSHPrivateKey)
    }

    let kind: Kind
}

/// The archive's SHA-256 (named in the trusted comment and the report)
/// and the digest its signature format prehashes with, from one read.
struct ArchiveDigests {
    var sha256: String
    var other: [UInt8]

    init(_ path: String, _ algorithm: PrehashAlgorithm) throws {
        let sha = Digest()
        let other = try Digest(algorithm)
        do {
            _ = try FileChunks.read(path) { chunk in
                sha.update(chunk)
                other.update(chunk)
            }
        } catch {
            throw FileError(path: path, message: "cannot read the archive: \(error)")
        }
        sha256 = sha.finish()
        self.other = other.finishBytes()
    }
}
