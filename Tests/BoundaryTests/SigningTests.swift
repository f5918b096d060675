import Foundation
import Hashing
import Signing
import Testing

/// Signing, the Swift face of OpenSSL's Ed25519, BLAKE2b and scrypt, on
/// published test vectors.
struct SigningTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return out
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// RFC 8032 §7.1, test 2: one-byte message.
    @Test func ed25519MatchesRFC8032() throws {
        let key = try Ed25519PrivateKey(seed: Self.bytes("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb"))
        #expect(Self.hex(key.publicKey) == "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c")
        let signature = try key.sign([0x72])
        #expect(Self.hex(signature) == "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00")
        #expect(Ed25519.verify(signature: signature, of: [0x72], publicKey: key.publicKey))
        #expect(!Ed25519.verify(signature: signature, of: [0x73], publicKey: key.publicKey))
        var damaged = signature
        damaged[10] ^= 1
        #expect(!Ed25519.verify(signature: damaged, of: [0x72], publicKey: key.publicKey))
        #expect(!Ed25519.verify(signature: Array(signature.prefix(63)), of: [0x72], publicKey: key.publicKey))
        #expect(throws: SigningError.self) { try Ed25519PrivateKey(seed: [1, 2, 3]) }
    }

    /// RFC 7693 Appendix A: BLAKE2b-512 of "abc".
    @Test func blake2bMatchesRFC7693() throws {
        #expect(Self.hex(try Digest.bytes(of: Array("abc".utf8), .blake2b512))
                == "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923")
        // BLAKE2b-256 is its own function (the length is hashed in): either
        // this OpenSSL gives it right, or it says it cannot (3.0 and 3.1).
        if let short = Digest.blake2b256(Array("abc".utf8)) {
            #expect(Self.hex(short) == "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319")
        }
    }

    /// libsodium's choice of scrypt parameters for minisign's defaults
    /// (OPSLIMIT_SENSITIVE, MEMLIMIT_SENSITIVE: N = 2^20, r = 8, p = 1), and
    /// for limits where the operations bound p.
    @Test func scryptParametersAreLibsodiums() throws {
        let sensitive = Scrypt.parameters(opsLimit: 33_554_432, memLimit: 1_073_741_824)
        #expect(sensitive.logN == 20 && sensitive.r == 8 && sensitive.p == 1)
        let interactive = Scrypt.parameters(opsLimit: 524_288, memLimit: 16_777_216)
        #expect(interactive.logN == 14 && interactive.r == 8 && interactive.p == 1)
        let opsBound = Scrypt.parameters(opsLimit: 1 << 30, memLimit: 1 << 20)
        #expect(opsBound.logN == 10 && opsBound.r == 8 && opsBound.p == (1 << 28) / (1 << 10) / 8)
        // RFC 7914 §12's second vector has N = 1024, r = 8, p = 16: the
        // limits libsodium maps there.
        let derived = try Scrypt.derive(password: Array("password".utf8), salt: Array("NaCl".utf8),
                                        opsLimit: 4 * 1024 * 8 * 16, memLimit: 1024 * 8 * 128, length: 64)
        #expect(Self.hex(derived) == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640")
    }
}
