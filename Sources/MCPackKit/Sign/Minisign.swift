import FileIO
import Foundation
import Hashing
import MCPackSchema
import Signing

/// minisign's files (https://jedisct1.github.io/minisign/): a secret key
/// (encrypted with scrypt or not, as `minisign -G` and `-G -W` write it),
/// a public key, and a signature with its trusted comment: prehashed
/// ("ED", what mcpack writes) or legacy ("Ed", read as `minisign -V` reads
/// it). The layouts are minisign's; every primitive is OpenSSL's, through
/// Signing.
enum Minisign {
    /// Ed25519 signatures of the file's BLAKE2b-512 ("ED").
    static let prehashed = MinisignText.prehashed
    /// The legacy signature of the whole file (`minisign -S -l`, and every
    /// release before 0.8), whose name is the key algorithm's.
    static let legacy = MinisignText.ed25519
    static let keyAlgorithm = MinisignText.ed25519

    struct SecretKey {
        var keyID: [UInt8]  // 8 bytes, little-endian as minisign stores it
        var key: Ed25519PrivateKey
    }

    /// The files' layouts are the schema's, which the app reads too.
    typealias PublicKey = MinisignText.PublicKey
    typealias Signature = MinisignText.Signature

    static func keyIDText(_ id: [UInt8]) -> String { MinisignText.keyIDText(id) }

    /// True when the file's text looks like a minisign secret key (its
    /// second line is base64 of "Ed" then a KDF name).
    static func isSecretKey(_ text: String) -> Bool {
        let lines = text.split(whereSeparator: \.isNewline)
        return lines.count >= 2 && lines[0].hasPrefix("untrusted comment:") && lines[1].hasPrefix("RW")
    }

    /// Reads a secret key; `password` is asked only when the key is
    /// encrypted. A wrong password is told apart from a damaged key by the
    /// public key a secret key holds beside its seed: the seed the password
    /// gives must derive it.
    static func readSecretKey(_ text: String, file: String, password: () throws -> String) throws -> SecretKey {
        let lines = text.split(whereSeparator: \.isNewline)
        guard lines.count >= 2, lines[0].hasPrefix("untrusted comment:"), let blob = Data(base64Encoded: String(lines[1]).trimmingCharacters(in: .whitespaces)) else {
            throw FileError(path: file, message: "not a minisign secret key (an untrusted comment line, then one line of base64)")
        }
        let bytes = [UInt8](blob)
        // sig_alg 2, kdf_alg 2, chk_alg 2, salt 32, opslimit 8, memlimit 8,
        // then keynum 8, secret key 64 (seed and public key), checksum 32.
        if bytes.count == 42 { throw FileError(path: file, message: "a minisign public key: sign with the secret key (minisign -G wrote both)") }
        guard bytes.count == 158 else { throw FileError(path: file, message: "a minisign secret key is 158 bytes; this one is \(bytes.count) (cut short or damaged)") }
        guard Array(bytes[0..<2]) == keyAlgorithm else { throw FileError(path: file, message: "not an Ed25519 minisign key") }
        let kdf = Array(bytes[2..<4])
        var secret = Array(bytes[54..<158])
        if kdf == Array("Sc".utf8) {
            let salt = Array(bytes[6..<38])
            let ops = littleEndian(bytes[38..<46])
            let mem = littleEndian(bytes[46..<54])
            let typed = try password()
            let stream: [UInt8]
            do {
                stream = try Scrypt.derive(password: Array(typed.utf8), salt: salt, opsLimit: ops, memLimit: mem, length: secret.count)
            } catch {
                throw FileError(path: file, message: error.message)
            }
            for index in secret.indices { secret[index] ^= stream[index] }
        } else if kdf != [0, 0] {
            throw FileError(path: file, message: "the key is protected with a method mcpack does not know (\(String(decoding: kdf, as: UTF8.self)))")
        }
        let keyID = Array(secret[0..<8])
        let seed = Array(secret[8..<40])
        let storedPublic = Array(secret[40..<72])
        let checksum = Array(secret[72..<104])
        let key = try Ed25519PrivateKey(seed: seed)
        if key.publicKey != storedPublic {
            throw FileError(path: file, message: kdf == [0, 0] ? "the key is damaged (its seed does not give the public key stored with it)"
                                                      : "wrong password (the key it opens does not match the public key stored in it)")
        }
        // minisign's own check, where this OpenSSL can compute it: BLAKE2b
        // with a 32-byte output over the algorithm, key ID and secret key.
        // An unencrypted key from `minisign -G -W` leaves it zero.
        if checksum != [UInt8](repeating: 0, count: 32),
           let computed = Digest.blake2b256(keyAlgorithm + keyID + Array(secret[8..<72])), computed != checksum {
            throw FileError(path: file, message: "the key's checksum does not match: the key is damaged")
        }
        return SecretKey(keyID: keyID, key: key)
    }

    /// A public key file, or its base64 line alone.
    static func readPublicKey(_ text: String, file: String) throws -> PublicKey {
        do { return try MinisignText.publicKey(text) } catch { throw FileError(path: file, message: error.description) }
    }

    static func publicKeyText(_ key: PublicKey) -> String { MinisignText.publicKeyText(key) }

    /// The .minisig file: an untrusted comment, the signature of the
    /// BLAKE2b-512 digest, the trusted comment, and the global signature
    /// over the signature and the trusted comment (which binds the comment).
    static func signature(digest: [UInt8], key: SecretKey, trustedComment: String, untrustedComment: String) throws -> String {
        String(decoding: try signature(of: digest, algorithm: prehashed, key: key, trustedComment: trustedComment, untrustedComment: untrustedComment),
               as: UTF8.self)
    }

    /// A .minisig of `message`: a BLAKE2b-512 digest for `prehashed`, the
    /// file's own bytes for `legacy`.
    static func signature(of message: [UInt8], algorithm: [UInt8], key: SecretKey, trustedComment: String, untrustedComment: String) throws -> Data {
        let signature = try key.key.sign(message)
        let parts = Signature(algorithm: algorithm, keyID: key.keyID, signature: signature, trustedComment: trustedComment, globalSignature: [])
        let global = try key.key.sign(parts.globalMessage)
        return MinisignText.signatureText(Signature(algorithm: algorithm, keyID: key.keyID, signature: signature, trustedComment: trustedComment,
                                                    globalSignature: global), untrustedComment: untrustedComment)
    }

    /// Parses a .minisig; each way it can be wrong says which line.
    static func readSignature(_ data: Data, file: String) throws -> Signature {
        do { return try MinisignText.signature(data) } catch { throw FileError(path: file, message: error.description) }
    }

    /// Checks the signature of the file itself: of its BLAKE2b-512, or for
    /// a legacy signature of its bytes, mapped rather than read into
    /// memory. Nil when it checks, else the archive's SHA-256, to say
    /// what differs.
    static func checkFile(_ archive: String, signature: Signature, key: PublicKey) -> Result<String?, Error> {
        do {
            if signature.algorithm == legacy {
                let data = try Data(contentsOf: URL(fileURLWithPath: archive), options: .alwaysMapped)
                let good = data.withUnsafeBytes { Ed25519.verify(signature: signature.signature, ofBytes: $0, publicKey: key.key) }
                return .success(good ? nil : Digest.hex(data))
            }
            let digests = try ArchiveDigests(archive, .blake2b512)
            return .success(Ed25519.verify(signature: signature.signature, of: digests.other, publicKey: key.key) ? nil : digests.sha256)
        } catch {
            return .failure(error)
        }
    }

    private static func littleEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}
