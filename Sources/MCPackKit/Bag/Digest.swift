import COpenSSL
import Foundation

/// The digest algorithms BagIt manifests use, by their manifest names.
enum DigestAlgorithm: String, CaseIterable, Sendable, Comparable {
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

    static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
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
final class Digest {
    private let context: OpaquePointer

    init(_ algorithm: DigestAlgorithm = .sha256) {
        context = EVP_MD_CTX_new()!
        EVP_DigestInit_ex(context, algorithm.evp, nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    func update(_ bytes: UnsafeRawBufferPointer) {
        if let base = bytes.baseAddress, bytes.count > 0 {
            EVP_DigestUpdate(context, base, bytes.count)
        }
    }

    func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// The digest as lower-case hex; the hasher is spent afterwards.
    func finish() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return Self.hexString(digest.prefix(Int(length)))
    }

    /// Lower-case hex. (String(format:) per byte cost a third of a rebuild's
    /// time over 17,000 tiles.)
    static func hexString<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func hex(_ data: Data) -> String {
        let hasher = Digest()
        hasher.update(data)
        return hasher.finish()
    }

    /// Hashes a file in 1 MiB reads; returns the digest and the byte count.
    static func hexOfFile(_ path: String) throws -> (sha256: String, bytes: Int) {
        let hasher = Digest()
        let total = try FileChunks.read(path) { hasher.update($0) }
        return (hasher.finish(), total)
    }

    static func hexOfFile(_ url: URL) throws -> (sha256: String, bytes: Int) {
        try hexOfFile(url.path)
    }
}

/// A file that could not be read or written, by path.
public struct FileError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
