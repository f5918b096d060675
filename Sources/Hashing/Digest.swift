import COpenSSL
import Foundation

/// The digest algorithms BagIt manifests use, by their manifest names.
public enum DigestAlgorithm: String, CaseIterable, Sendable, Comparable {
    case md5, sha1, sha256, sha512

    fileprivate var evp: OpaquePointer? { FetchedDigests.shared.table[self] }

    fileprivate var legacy: OpaquePointer? {
        switch self {
        case .md5: return EVP_md5()
        case .sha1: return EVP_sha1()
        case .sha256: return EVP_sha256()
        case .sha512: return EVP_sha512()
        }
    }

    fileprivate var openSSLName: String {
        switch self {
        case .md5: return "MD5"
        case .sha1: return "SHA1"
        case .sha256: return "SHA256"
        case .sha512: return "SHA512"
        }
    }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// Each algorithm fetched from OpenSSL once per process: given the legacy
/// EVP_sha256() handle, OpenSSL 3 looks the implementation up again on every
/// init, 17,000 times over a large bag. Kept for the life of the process.
private struct FetchedDigests: @unchecked Sendable {
    static let shared = FetchedDigests()
    let table: [DigestAlgorithm: OpaquePointer]

    private init() {
        var table: [DigestAlgorithm: OpaquePointer] = [:]
        for algorithm in DigestAlgorithm.allCases {
            table[algorithm] = EVP_MD_fetch(nil, algorithm.openSSLName, nil) ?? algorithm.legacy
        }
        self.table = table
    }
}

/// SHA-256 through OpenSSL's EVP interface (SHA extensions where the CPU
/// has them); other BagIt algorithms on request. A class, so the OpenSSL
/// context is freed even when a read stops before `finish()` (a damaged
/// entry): the fuzzer found that leak.
public final class Digest {
    private let context: OpaquePointer

    /// A hasher for `algorithm`; throws when this OpenSSL cannot provide it
    /// (MD5 and SHA-1 under a FIPS-only configuration, say).
    public init(_ algorithm: DigestAlgorithm) throws(DigestError) {
        guard let context = EVP_MD_CTX_new() else { throw DigestError(algorithm: algorithm, message: "out of memory") }
        guard EVP_DigestInit_ex(context, algorithm.evp, nil) == 1 else {
            EVP_MD_CTX_free(context)
            throw DigestError(algorithm: algorithm, message: openSSLErrorText())
        }
        self.context = context
    }

    /// A SHA-256 hasher. Every bag mcpack writes or reads rests on SHA-256,
    /// so an OpenSSL without it is a broken installation: that stops here.
    public convenience init() {
        try! self.init(.sha256)
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        if let base = bytes.baseAddress, bytes.count > 0 {
            EVP_DigestUpdate(context, base, bytes.count)
        }
    }

    public func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// The digest as lower-case hex; the hasher is spent afterwards.
    public func finish() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return Self.hexString(digest.prefix(Int(length)))
    }

    /// Lower-case hex. (String(format:) per byte cost a third of a rebuild's
    /// time over 17,000 tiles.)
    public static func hexString<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func hex(_ data: Data) -> String {
        let hasher = Digest()
        hasher.update(data)
        return hasher.finish()
    }
}

/// OpenSSL could not start a digest.
public struct DigestError: Error, Sendable, CustomStringConvertible {
    public let algorithm: DigestAlgorithm
    public let message: String

    public var description: String { "OpenSSL cannot compute \(algorithm.rawValue): \(message)" }
}

/// The oldest error on this thread's OpenSSL error queue, as text; the
/// queue is emptied, so the next failure is not blamed on this one.
private func openSSLErrorText() -> String {
    let code = ERR_get_error()
    ERR_clear_error()
    guard code != 0 else { return "unknown OpenSSL error" }
    var text = [CChar](repeating: 0, count: 256)
    ERR_error_string_n(code, &text, text.count)
    return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
