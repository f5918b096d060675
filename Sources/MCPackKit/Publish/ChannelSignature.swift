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

    /// Checks `signature` over `index` with `key`; returns the trusted
    /// comment, which only then may be believed.
    static func check(_ index: Data, signature: Data, key: Minisign.PublicKey) -> Result<String, ChannelSignatureCheck.Failure> {
        ChannelSignatureCheck.check(index, signature: signature, trusted: [key.keyID]) { _, signature, message in
            Ed25519.verify(signature: signature, of: message, publicKey: key.key)
        }.map(\.trustedComment)
    }
}
