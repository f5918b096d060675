import COpenSSL
import Foundation

/// The digests signature formats prehash with, as raw bytes: BLAKE2b-512
/// (minisign), SHA-512 and SHA-256 (SSHSIG), streamed, so a large archive
/// is read once in chunks.
public final class SignatureDigest {
    public enum Algorithm: Sendable {
        case blake2b512, sha512, sha256

        var name: String {
            switch self {
            case .blake2b512: return "BLAKE2B-512"
            case .sha512: return "SHA512"
            case .sha256: return "SHA256"
            }
        }
    }

    private let context: OpaquePointer

    public init(_ algorithm: Algorithm) throws(SigningError) {
        guard let context = EVP_MD_CTX_new() else { throw SigningError("out of memory") }
        let md = EVP_MD_fetch(nil, algorithm.name, nil)
        defer { EVP_MD_free(md) }
        guard let md, EVP_DigestInit_ex(context, md, nil) == 1 else {
            EVP_MD_CTX_free(context)
            throw SigningError("OpenSSL cannot compute \(algorithm.name): \(openSSLErrorText())")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        if let base = bytes.baseAddress, bytes.count > 0 { EVP_DigestUpdate(context, base, bytes.count) }
    }

    public func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    /// The digest; the hasher is spent afterwards.
    public func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return Array(digest.prefix(Int(length)))
    }

    public static func of(_ bytes: [UInt8], _ algorithm: Algorithm) throws(SigningError) -> [UInt8] {
        let hasher = try SignatureDigest(algorithm)
        hasher.update(bytes)
        return hasher.finish()
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
        let md = EVP_MD_fetch(nil, "BLAKE2B-512", nil)
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
}

/// scrypt (RFC 7914) through OpenSSL's EVP_PBE_scrypt, with the parameters
/// libsodium derives from an operations and a memory limit, as minisign
/// stores them in an encrypted secret key.
public enum Scrypt {
    public static func derive(password: [UInt8], salt: [UInt8], opsLimit: UInt64, memLimit: UInt64, length: Int) throws(SigningError) -> [UInt8] {
        let (logN, r, p) = parameters(opsLimit: opsLimit, memLimit: memLimit)
        let n = UInt64(1) << UInt64(logN)
        // What scrypt needs (128·r·N for V, 128·r·p for B), with room over it.
        let needed = 128 * UInt64(r) * (n + UInt64(p) + 2)
        // minisign's own keys ask for 1 GiB; a key file asking for far more
        // (or for days of work) is damaged or hostile, not to be obeyed.
        guard needed <= 8 << 30, UInt64(p) * n <= 1 << 26 else {
            throw SigningError("the key asks scrypt for N=2^\(logN), r=\(r), p=\(p) (\(needed >> 20) MiB): far beyond what minisign writes; refused")
        }
        var out = [UInt8](repeating: 0, count: length)
        let ok = password.withUnsafeBufferPointer { pw in
            pw.withMemoryRebound(to: CChar.self) { pwc in
                EVP_PBE_scrypt(pwc.baseAddress, pw.count, salt, salt.count, n, UInt64(r), UInt64(p), needed + (1 << 20), &out, length)
            }
        }
        guard ok == 1 else {
            throw SigningError("OpenSSL cannot run scrypt (N=2^\(logN), r=\(r), p=\(p)): \(openSSLErrorText())")
        }
        return out
    }

    /// libsodium's crypto_pwhash_scryptsalsa208sha256 choice of N, r and p
    /// (its `pickparams`): the key file stores limits, not parameters.
    public static func parameters(opsLimit: UInt64, memLimit: UInt64) -> (logN: UInt32, r: UInt32, p: UInt32) {
        let ops = max(opsLimit, 32768)
        let r: UInt64 = 8
        var logN: UInt32 = 1
        if ops < memLimit / 32 {
            let maxN = ops / (r * 4)
            while logN < 63, (UInt64(1) << UInt64(logN)) <= maxN / 2 { logN += 1 }
            return (logN, UInt32(r), 1)
        }
        let maxN = memLimit / (r * 128)
        while logN < 63, (UInt64(1) << UInt64(logN)) <= maxN / 2 { logN += 1 }
        let maxrp = min((ops / 4) / (UInt64(1) << UInt64(logN)), 0x3fffffff)
        return (logN, UInt32(r), UInt32(maxrp) / UInt32(r))
    }
}
