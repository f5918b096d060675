import COpenSSL
import Foundation
import Hashing

/// An Ed25519 key pair from its 32-byte seed, through OpenSSL's EVP_PKEY.
/// Signing is one-shot (RFC 8032 pure Ed25519 has no streaming form): the
/// callers sign a digest of the file, never the file.
public struct Ed25519PrivateKey: Sendable {
    private let seed: [UInt8]
    /// The 32-byte public key OpenSSL derives from the seed.
    public let publicKey: [UInt8]

    public init(seed: [UInt8]) throws(SigningError) {
        guard seed.count == 32 else { throw SigningError("an Ed25519 seed is 32 bytes, not \(seed.count)") }
        self.seed = seed
        let key = try Self.pkey(seed)
        defer { EVP_PKEY_free(key) }
        var length = 32
        var out = [UInt8](repeating: 0, count: 32)
        guard EVP_PKEY_get_raw_public_key(key, &out, &length) == 1, length == 32 else {
            throw SigningError("OpenSSL cannot derive the Ed25519 public key: \(openSSLErrorText())")
        }
        publicKey = out
    }

    /// The 64-byte signature of `message`. Ed25519 is deterministic: the
    /// same key and message give the same bytes, so signatures are
    /// reproducible as archives are.
    public func sign(_ message: [UInt8]) throws(SigningError) -> [UInt8] {
        let key = try Self.pkey(seed)
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { throw SigningError("out of memory") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, nil, nil, key) == 1 else {
            throw SigningError("OpenSSL cannot start an Ed25519 signature: \(openSSLErrorText())")
        }
        var signature = [UInt8](repeating: 0, count: 64)
        var length = 64
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1, length == 64 else {
            throw SigningError("OpenSSL cannot sign with Ed25519: \(openSSLErrorText())")
        }
        return signature
    }

    private static func pkey(_ seed: [UInt8]) throws(SigningError) -> OpaquePointer {
        guard let key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, seed, seed.count) else {
            throw SigningError("OpenSSL refuses the Ed25519 key: \(openSSLErrorText())")
        }
        return key
    }
}

public enum Ed25519 {
    /// True when `signature` is `publicKey`'s signature of `message`.
    public static func verify(signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        message.withUnsafeBytes { verify(signature: signature, ofBytes: $0, publicKey: publicKey) }
    }

    /// The same over bytes in place: minisign's legacy signatures cover a
    /// whole archive, which is checked where it is mapped, not copied.
    public static func verify(signature: [UInt8], ofBytes message: UnsafeRawBufferPointer, publicKey: [UInt8]) -> Bool {
        guard signature.count == 64, publicKey.count == 32,
              let key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, publicKey, publicKey.count) else {
            ERR_clear_error()
            return false
        }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1 else {
            ERR_clear_error()
            return false
        }
        let ok = EVP_DigestVerify(context, signature, signature.count, message.baseAddress, message.count) == 1
        ERR_clear_error()
        return ok
    }
}

/// OpenSSL could not do what was asked, or the input is not a key.
public struct SigningError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

