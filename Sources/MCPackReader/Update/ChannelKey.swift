import Crypto
import Foundation
import MCPackSchema

/// A key the app trusts to sign its update channel: the sender's minisign
/// public key (the `.pub` file `minisign -G` wrote, or its base64 line),
/// the one `mcpack publish --sign-key` signs the channel's index with.
public struct ChannelKey: Sendable, Hashable {
    public let minisign: MinisignText.PublicKey

    /// Throws an `UpdateError` (could not update) for text that is no
    /// minisign public key.
    public init(minisignPublicKey text: String) throws {
        do { minisign = try MinisignText.publicKey(text) } catch {
            throw UpdateError.couldNot("the trusted key: \(error.description)")
        }
    }

    /// The key ID as `minisign` prints it.
    public var id: String { minisign.idText }

    func isValid(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: minisign.key) else { return false }
        return key.isValidSignature(signature, for: message)
    }
}

/// The channel index's signature checked with CryptoKit (swift-crypto off
/// Apple platforms): minisign's legacy form, Ed25519 over the index's
/// bytes as fetched, and its global signature over the trusted comment.
/// Nothing in the index is read before this passes.
enum ChannelIndexCheck {
    enum Failure: Error, Equatable {
        /// Not a minisign signature, or another algorithm.
        case damaged(String)
        /// Signed by a key the app does not trust.
        case untrustedKey(String)
        /// A trusted key's signature that does not cover these bytes: the
        /// index and its signature of two publishes, or a tampered index.
        case mismatch
        /// The trusted comment was changed after signing.
        case commentAltered
        /// Signed, but the index breaks the format's rules or says other
        /// than its signature's comment.
        case invalid(String)

        var message: String {
            switch self {
            case .damaged(let why): return "\(ChannelNames.signature): \(why)"
            case .untrustedKey(let id): return "\(ChannelNames.signature): signed by key \(id), which is not a trusted key"
            case .mismatch: return "\(ChannelNames.signature) does not match \(ChannelNames.index): the index was changed after signing, or the two come from different publishes"
            case .commentAltered: return "\(ChannelNames.signature): its trusted comment was changed after signing"
            case .invalid(let why): return why
            }
        }
    }

    static func check(index: Data, signature: Data, keys: [ChannelKey]) -> Result<ChannelIndex, Failure> {
        let admitted: ChannelSignatureCheck.Admitted
        switch ChannelSignatureCheck.check(index, signature: signature, trusted: keys.map(\.minisign.keyID), verify: { id, signature, message in
            keys.first { $0.minisign.keyID == id }?.isValid(signature, of: message) == true
        }) {
        case .success(let found): admitted = found
        case .failure(.damaged(let why)): return .failure(.damaged(why))
        case .failure(.prehashed):
            return .failure(.damaged("a prehashed (ED) signature; a channel index is signed whole (Ed), which is what mcpack publish writes"))
        case .failure(.untrustedKey(let id)): return .failure(.untrustedKey(id))
        case .failure(.mismatch): return .failure(.mismatch)
        case .failure(.commentAltered): return .failure(.commentAltered)
        }
        let decoded: ChannelIndex
        do { decoded = try ChannelIndex.decode(index) } catch { return .failure(.invalid(error.message)) }
        guard let comment = ChannelTrustedComment.parse(admitted.trustedComment), comment.matches(decoded) else {
            return .failure(.invalid("\(ChannelNames.index) says channel:\(decoded.name) sequence:\(decoded.sequence) expires:\(decoded.expires), its signature's trusted comment \"\(admitted.trustedComment)\""))
        }
        return .success(decoded)
    }
}
