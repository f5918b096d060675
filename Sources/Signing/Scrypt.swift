import COpenSSL
import Foundation
import Hashing

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
