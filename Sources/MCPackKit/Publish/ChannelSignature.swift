import Foundation
import MCPackSchema
import Signing

/// `index.json.minisig`: minisign's legacy signature ("Ed": Ed25519 over
/// the file's own bytes, not over its BLAKE2b-512), because the app checks
/// it with CryptoKit or swift-crypto, which have Ed25519 and SHA-256 but no
/// BLAKE2b. Otherwise minisign's format to the byte, so `minisign -V`
/// checks it; the key is the one `mcpack sign` takes.
enum ChannelSignature {
    /// The key a channel is signed with, and the public half a reader holds.
    struct Key {
        var secret: Minisign.SecretKey
        var publicKey: Minisign.PublicKey { Minisign.PublicKey(keyID: secret.keyID, key: secret.key.publicKey) }
        var idText: String { Minisign.keyIDText(secret.keyID) }
    }

    /// The .minisig text for `index`, its trusted comment the index's.
    static func sign(_ index: Data, comment: ChannelTrustedComment, key: Key) throws -> Data {
        try Minisign.signature(of: [UInt8](index), algorithm: Minisign.legacy, key: key.secret, trustedComment: comment.description,
                               untrustedComment: "mcpack channel index of \(comment.channel), key \(key.idText)")
    }

    /// Why a signature does not admit an index, in the order a reader
    /// checks: its form, its key, the index's bytes, then its comment.
    enum Failure: Error, Equatable {
        case damaged(String)
        case prehashed
        case otherKey(String)
        case mismatch
        case commentAltered
    }

    /// Checks `signature` over `index` with `key`; returns the trusted
    /// comment, which only then may be believed.
    static func check(_ index: Data, signature: Data, key: Minisign.PublicKey, file: String) -> Result<String, Failure> {
        guard signature.count <= ChannelLimits.maxSignatureBytes else { return .failure(.damaged("\(signature.count) bytes: not a minisign signature")) }
        let parsed: Minisign.Signature
        do { parsed = try Minisign.readSignature(signature, file: file) } catch {
            return .failure(.damaged((error as? FileError)?.message ?? "\(error)"))
        }
        if parsed.algorithm == Minisign.prehashed { return .failure(.prehashed) }
        guard parsed.algorithm == Minisign.legacy else { return .failure(.damaged("not an Ed25519 signature")) }
        guard parsed.keyID == key.keyID else { return .failure(.otherKey(Minisign.keyIDText(parsed.keyID))) }
        guard Ed25519.verify(signature: parsed.signature, of: [UInt8](index), publicKey: key.key) else { return .failure(.mismatch) }
        guard Ed25519.verify(signature: parsed.globalSignature, of: parsed.globalMessage, publicKey: key.key) else {
            return .failure(.commentAltered)
        }
        return .success(parsed.trustedComment)
    }
}
