import Foundation

/// minisign's public key and signature files as text
/// (https://jedisct1.github.io/minisign/), parsed and written with
/// Foundation alone: the tool reads them here and checks them with
/// OpenSSL; the app reads the same files here and checks them with
/// CryptoKit (swift-crypto elsewhere). No cryptography in this file.
public enum MinisignText {
    /// The key algorithm, and the name of a legacy signature (Ed25519 over
    /// the file's own bytes, `minisign -S -l` and every release before 0.8).
    public static let ed25519: [UInt8] = Array("Ed".utf8)
    /// Ed25519 over the file's BLAKE2b-512 ("ED"), minisign's default.
    public static let prehashed: [UInt8] = Array("ED".utf8)

    public struct PublicKey: Sendable, Hashable {
        /// 8 bytes, little-endian as minisign stores it.
        public var keyID: [UInt8]
        /// The Ed25519 public key, 32 bytes.
        public var key: [UInt8]

        public init(keyID: [UInt8], key: [UInt8]) {
            self.keyID = keyID
            self.key = key
        }

        /// The key ID as minisign prints it.
        public var idText: String { MinisignText.keyIDText(keyID) }
    }

    public struct Signature: Sendable, Equatable {
        /// `ED` (prehashed) or `Ed` (legacy).
        public var algorithm: [UInt8]
        public var keyID: [UInt8]
        /// 64 bytes.
        public var signature: [UInt8]
        /// Covered by the global signature with the signature itself.
        public var trustedComment: String
        /// Ed25519 over `signature` followed by the trusted comment's UTF-8.
        public var globalSignature: [UInt8]

        public init(algorithm: [UInt8], keyID: [UInt8], signature: [UInt8], trustedComment: String, globalSignature: [UInt8]) {
            self.algorithm = algorithm
            self.keyID = keyID
            self.signature = signature
            self.trustedComment = trustedComment
            self.globalSignature = globalSignature
        }

        /// What the global signature signs.
        public var globalMessage: [UInt8] { signature + Array(trustedComment.utf8) }
    }

    /// minisign prints the number with PRIX64, so without leading zeros:
    /// the same here, or one key in sixteen would be named two ways.
    public static func keyIDText(_ id: [UInt8]) -> String {
        String(id.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }, radix: 16, uppercase: true)
    }

    /// A public key file (its base64 line is found wherever it is) or the
    /// base64 line alone, as `minisign -P` takes it.
    public static func publicKey(_ text: String) throws(MinisignTextError) -> PublicKey {
        let line = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty && !$0.hasPrefix("untrusted comment:") } ?? ""
        guard let blob = Data(base64Encoded: line), blob.count == 42, Array(blob.prefix(2)) == ed25519 else {
            throw MinisignTextError(line: nil, message: "not a minisign public key (one line of base64 beginning RW, 56 characters)")
        }
        let bytes = [UInt8](blob)
        return PublicKey(keyID: Array(bytes[2..<10]), key: Array(bytes[10..<42]))
    }

    public static func publicKeyText(_ key: PublicKey) -> String {
        "untrusted comment: minisign public key \(key.idText)\n" + Data(ed25519 + key.keyID + key.key).base64EncodedString() + "\n"
    }

    /// Parses a .minisig; each way it can be wrong says which line.
    public static func signature(_ data: Data) throws(MinisignTextError) -> Signature {
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        func line(_ index: Int, _ what: String) throws(MinisignTextError) -> String {
            guard index < lines.count, !lines[index].isEmpty else {
                throw MinisignTextError(line: index + 1, message: "\(what) is missing (the file is cut short)")
            }
            return lines[index]
        }
        guard try line(0, "the untrusted comment").hasPrefix("untrusted comment:") else {
            throw MinisignTextError(line: 1, message: "not a minisign signature (it should begin with 'untrusted comment:')")
        }
        guard let blob = Data(base64Encoded: try line(1, "the signature")), blob.count == 74 else {
            throw MinisignTextError(line: 2, message: "the signature is not 74 bytes of base64 (damaged)")
        }
        let comment = try line(2, "the trusted comment")
        guard comment.hasPrefix("trusted comment: ") else {
            throw MinisignTextError(line: 3, message: "should begin with 'trusted comment: '")
        }
        guard let global = Data(base64Encoded: try line(3, "the global signature")), global.count == 64 else {
            throw MinisignTextError(line: 4, message: "the global signature is not 64 bytes of base64 (damaged)")
        }
        let bytes = [UInt8](blob)
        return Signature(algorithm: Array(bytes[0..<2]), keyID: Array(bytes[2..<10]), signature: Array(bytes[10..<74]),
                         trustedComment: String(comment.dropFirst("trusted comment: ".count)), globalSignature: [UInt8](global))
    }

    /// A .minisig's text: untrusted comment, signature, trusted comment,
    /// global signature, a line each.
    public static func signatureText(_ signature: Signature, untrustedComment: String) -> Data {
        let text = "untrusted comment: \(untrustedComment)\n"
            + Data(signature.algorithm + signature.keyID + signature.signature).base64EncodedString() + "\n"
            + "trusted comment: \(signature.trustedComment)\n"
            + Data(signature.globalSignature).base64EncodedString() + "\n"
        return Data(text.utf8)
    }
}

/// A minisign file that cannot be read: the line (1-based) when one is to
/// blame.
public struct MinisignTextError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int?
    public var message: String

    public init(line: Int?, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}
