import Foundation

/// How an update channel's `index.json.minisig` admits `index.json`: the
/// steps `mcpack publish` (with OpenSSL, checking the channel it changes)
/// and the app's updater (with CryptoKit) both take, in the order a reader
/// checks: its form, its key, the index's bytes, then its trusted comment.
/// Only the Ed25519 check is each one's own, passed in.
public enum ChannelSignatureCheck {
    public enum Failure: Error, Equatable, Sendable {
        /// Too large, not a minisign signature, or another algorithm.
        case damaged(String)
        /// A prehashed ("ED") signature: a channel index is signed whole
        /// ("Ed"), which readers without BLAKE2b can check.
        case prehashed
        /// Signed by a key not among the trusted ones (its ID as minisign prints it).
        case untrustedKey(String)
        /// A trusted key's signature that does not cover these bytes.
        case mismatch
        /// The trusted comment was changed after signing.
        case commentAltered
    }

    /// What admitted the index: the key's ID and the trusted comment, which
    /// only now may be believed.
    public struct Admitted: Sendable, Equatable {
        public var keyID: [UInt8]
        public var trustedComment: String
    }

    /// `verify(keyID, signature, message)` checks an Ed25519 signature with
    /// the trusted key of that ID, one of `trusted`.
    public static func check(_ index: Data, signature: Data, trusted: [[UInt8]],
                             verify: ([UInt8], [UInt8], [UInt8]) -> Bool) -> Result<Admitted, Failure> {
        guard signature.count <= ChannelLimits.maxSignatureBytes else {
            return .failure(.damaged("\(signature.count) bytes, over the \(ChannelLimits.maxSignatureBytes) a signature takes"))
        }
        let parsed: MinisignText.Signature
        do { parsed = try MinisignText.signature(signature) } catch { return .failure(.damaged(error.description)) }
        if parsed.algorithm == MinisignText.prehashed { return .failure(.prehashed) }
        guard parsed.algorithm == MinisignText.ed25519 else { return .failure(.damaged("not an Ed25519 signature")) }
        guard trusted.contains(parsed.keyID) else { return .failure(.untrustedKey(MinisignText.keyIDText(parsed.keyID))) }
        guard verify(parsed.keyID, parsed.signature, [UInt8](index)) else { return .failure(.mismatch) }
        guard verify(parsed.keyID, parsed.globalSignature, parsed.globalMessage) else { return .failure(.commentAltered) }
        return .success(Admitted(keyID: parsed.keyID, trustedComment: parsed.trustedComment))
    }
}
