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

/// The digests signature formats prehash with, by OpenSSL's names:
/// BLAKE2b-512 (minisign), SHA-512 and SHA-256 (SSHSIG).
public enum PrehashAlgorithm: String, Sendable {
    case blake2b512 = "BLAKE2B-512", sha512 = "SHA512", sha256 = "SHA256"
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
    public convenience init(_ algorithm: DigestAlgorithm) throws(DigestError) {
        try self.init(algorithm.evp, name: algorithm.rawValue)
    }

    /// A hasher for a digest a signature format prehashes with.
    public convenience init(_ algorithm: PrehashAlgorithm) throws(DigestError) {
        let md = EVP_MD_fetch(nil, algorithm.rawValue, nil)
        defer { EVP_MD_free(md) }
        try self.init(md, name: algorithm.rawValue)
    }

    private init(_ md: OpaquePointer?, name: String) throws(DigestError) {
        guard let context = EVP_MD_CTX_new() else { throw DigestError(algorithm: name, message: "out of memory") }
        guard let md, EVP_DigestInit_ex(context, md, nil) == 1 else {
            EVP_MD_CTX_free(context)
            throw DigestError(algorithm: name, message: openSSLErrorText())
        }
        self.context = context
    }

    /// A SHA-256 hasher. Every bag mcpack writes or reads rests on SHA-256,
    /// so an OpenSSL without it is a broken installation: that stops here.
    public convenience init() {
        try! self.init(DigestAlgorithm.sha256)
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

    /// The digest as lower-case hex; the hasher is spent afterwards. Asked
    /// once for every file of a bag: written from a buffer on the stack,
    /// with no array between.
    public func finish() -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(EVP_MAX_MD_SIZE)) { digest in
            Self.hexString(UnsafeBufferPointer(rebasing: digest[..<finish(into: digest)]))
        }
    }

    /// The digest's bytes; the hasher is spent afterwards.
    public func finishBytes() -> [UInt8] {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(EVP_MAX_MD_SIZE)) { digest in
            Array(digest[..<finish(into: digest)])
        }
    }

    /// Each hasher's digest as hex, by algorithm; the hashers are spent.
    /// Made for every file of a bag, so the table is sized once.
    public static func finish(_ hashers: [(DigestAlgorithm, Digest)]) -> [DigestAlgorithm: String] {
        var digests: [DigestAlgorithm: String] = [:]
        digests.reserveCapacity(hashers.count)
        for (algorithm, hasher) in hashers { digests[algorithm] = hasher.finish() }
        return digests
    }

    /// Writes the digest to `digest` (EVP_MAX_MD_SIZE bytes); its length.
    fileprivate func finish(into digest: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, digest.baseAddress, &length)
        return Int(length)
    }

    public func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    /// The bytes of `algorithm`'s digest of `bytes`.
    public static func bytes(of bytes: [UInt8], _ algorithm: PrehashAlgorithm) throws(DigestError) -> [UInt8] {
        let hasher = try Digest(algorithm)
        hasher.update(bytes)
        return hasher.finishBytes()
    }

    /// BLAKE2b with a 32-byte output (a different function from BLAKE2b-512
    /// cut short: the length is in its parameter block), what minisign
    /// checksums a secret key with. OpenSSL offers it from 3.2 on, as the
    /// BLAKE2B-512 digest's "size" parameter; nil on an OpenSSL that
    /// ignores or refuses the parameter (3.0 and 3.1), which the caller
    /// must then do without.
    public static func blake2b256(_ bytes: [UInt8]) -> [UInt8]? {
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        let md = EVP_MD_fetch(nil, PrehashAlgorithm.blake2b512.rawValue, nil)
        defer { EVP_MD_free(md) }
        guard let md else { ERR_clear_error(); return nil }
        var size = 32
        let ok: Bool = withUnsafeMutablePointer(to: &size) { pointer in
            var params = [
                OSSL_PARAM_construct_size_t(OSSL_DIGEST_PARAM_SIZE, pointer),
                OSSL_PARAM_construct_end(),
            ]
            return EVP_DigestInit_ex2(context, md, &params) == 1
        }
        guard ok else { ERR_clear_error(); return nil }
        EVP_DigestUpdate(context, bytes, bytes.count)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1, length == 32 else { ERR_clear_error(); return nil }
        return Array(digest.prefix(32))
    }

    /// Lower-case hex. (String(format:) per byte cost a third of a rebuild's
    /// time over 17,000 tiles.)
    public static func hexString<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            var at = 0
            for byte in bytes {
                out[at] = hexDigit(byte >> 4)
                out[at + 1] = hexDigit(byte & 0x0F)
                at += 2
            }
            return at
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 + nibble : 0x57 + nibble  // "0"..."9", "a"..."f"
    }

    public static func hex(_ data: Data) -> String {
        let hasher = Digest()
        hasher.update(data)
        return hasher.finish()
    }
}

/// The SHA-256 digests of a run of files, numbered in their order, kept as
/// their 32 bytes in one table until their hex is asked for. A build holds
/// one for the tiles while libvips makes them, at its peak of memory: hex
/// strings cost 112 bytes a tile on the heap, this 32.
public final class DigestTable: @unchecked Sendable {
    private var bytes: [UInt8]
    private let lock = NSLock()
    private static let width = 32

    public init(count: Int) {
        bytes = Array(repeating: 0, count: count * Self.width)
    }

    /// Finishes `digest`, a SHA-256 hasher, as the `index`th; the hasher is
    /// spent. Any other algorithm is a mistake of the caller's.
    public func finish(_ digest: Digest, at index: Int) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(EVP_MAX_MD_SIZE)) { out in
            let length = digest.finish(into: out)
            precondition(length == Self.width, "DigestTable holds SHA-256 digests, not \(length)-byte ones")
            lock.withLock {
                bytes.withUnsafeMutableBufferPointer { table in
                    _ = UnsafeMutableBufferPointer(rebasing: table[index * Self.width ..< (index + 1) * Self.width])
                        .initialize(from: out[..<length])
                }
            }
        }
    }

    /// The `index`th digest as lower-case hex.
    public func hex(at index: Int) -> String {
        lock.withLock { Digest.hexString(bytes[index * Self.width ..< (index + 1) * Self.width]) }
    }
}

/// OpenSSL could not start a digest.
public struct DigestError: Error, Sendable, CustomStringConvertible {
    /// As its manifests or OpenSSL name it: `sha256`, `BLAKE2B-512`.
    public let algorithm: String
    public let message: String

    public var description: String { "OpenSSL cannot compute \(algorithm): \(message)" }
}

/// The oldest error on this thread's OpenSSL error queue, as text; the
/// queue is emptied, so the next failure is not blamed on this one. For
/// Signing too, the other face of OpenSSL.
package func openSSLErrorText() -> String {
    let code = ERR_get_error()
    ERR_clear_error()
    guard code != 0 else { return "unknown OpenSSL error" }
    var text = [CChar](repeating: 0, count: 256)
    ERR_error_string_n(code, &text, text.count)
    return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
