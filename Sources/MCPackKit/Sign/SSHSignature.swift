import FileIO
import Foundation
import Hashing
import Signing

/// An SSHSIG signature (PROTOCOL.sshsig), armoured as `ssh-keygen -Y sign`
/// writes it: the signer's key (or certificate), the namespace, the hash
/// the file was digested with, and the key's signature blob.
struct SSHSignature {
    /// What mcpack signs and checks deliveries under, as `-n file`.
    static let fileNamespace = "file"
    static let label = "SSH SIGNATURE"

    var signer: SSHKey
    var namespace: String
    var hashAlgorithm: PrehashAlgorithm
    var hashName: String
    var signatureBlob: [UInt8]

    /// The message the key signs: the preamble, namespace, reserved field,
    /// hash name and the file's digest.
    static func signedData(namespace: String, hashName: String, digest: [UInt8]) -> [UInt8] {
        Array("SSHSIG".utf8) + SSHWire.string(namespace) + SSHWire.string([]) + SSHWire.string(hashName) + SSHWire.string(digest)
    }

    /// The armoured file for a signature by `signer` over a SHA-512 digest.
    static func armored(signer: [UInt8], namespace: String, signatureBlob: [UInt8]) -> String {
        let blob = Array("SSHSIG".utf8) + SSHWire.uint32(1) + SSHWire.string(signer) + SSHWire.string(namespace)
            + SSHWire.string([]) + SSHWire.string("sha512") + SSHWire.string(signatureBlob)
        return SSHWire.armor(blob, label)
    }

    /// Checks the signature over a file with `digest` (by `hashAlgorithm`):
    /// the key's signature of the SSHSIG message the signature itself names.
    func check(digest: [UInt8]) -> SSHVerdict {
        signer.publicKey.check(signature: signatureBlob, over: Self.signedData(namespace: namespace, hashName: hashName, digest: digest),
                               requireUserPresence: true)
    }

    /// Parses a signature file as sshsig_dearmor and sshsig_verifyb do;
    /// each way it can be wrong is a FileError naming the file.
    static func read(_ data: Data, file: String) throws -> SSHSignature {
        let text = String(decoding: data, as: UTF8.self)
        guard text.hasPrefix("-----BEGIN SSH SIGNATURE-----") else {
            throw FileError(path: file, message: "not an SSH signature (it does not begin with a BEGIN SSH SIGNATURE line)")
        }
        guard text.contains("-----END SSH SIGNATURE-----") else { throw FileError(path: file, message: "the signature is cut short (no END SSH SIGNATURE line)") }
        guard let body = SSHWire.dearmor(text, label, atStart: true) else { throw FileError(path: file, message: "the signature's base64 is damaged") }
        var reader = SSHWire.Reader(body)
        guard reader.take(6) == Array("SSHSIG".utf8) else { throw FileError(path: file, message: "not an SSHSIG signature") }
        guard let version = reader.uint32(), let signerBlob = reader.bytes(), let namespace = reader.text(),
              reader.bytes() != nil, let hashName = reader.text(), let signatureBlob = reader.bytes() else {
            throw FileError(path: file, message: "the signature is cut short or damaged")
        }
        guard version == 1 else { throw FileError(path: file, message: "SSHSIG version \(version); mcpack reads version 1") }
        guard reader.atEnd else { throw FileError(path: file, message: "the signature has bytes after its end") }
        let hash: PrehashAlgorithm
        switch hashName {
        case "sha512": hash = .sha512
        case "sha256": hash = .sha256
        default: throw FileError(path: file, message: "the file was hashed with \(hashName); SSHSIG allows sha256 and sha512")
        }
        let signer: SSHKey
        do {
            signer = try SSHKey.read(blob: signerBlob)
        } catch {
            throw FileError(path: file, message: "the signer's key: \(error.message)")
        }
        return SSHSignature(signer: signer, namespace: namespace, hashAlgorithm: hash, hashName: hashName, signatureBlob: signatureBlob)
    }
}
