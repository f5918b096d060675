import Foundation
import Hashing
import Signing
import Testing

/// Signing, the Swift face of OpenSSL's Ed25519, RSA, ECDSA, BLAKE2b and
/// scrypt, on published test vectors (and, for RSA, on the openssl
/// command's signature with a key it made).
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

    /// RFC 6979 A.2.5 (P-256, SHA-256) and A.2.6 (P-384, SHA-384), message
    /// "sample": the published (r, s) checks; another message, a changed
    /// or swapped number, or the other curve's digest does not.
    @Test(arguments: [
        (ECCurve.p256,
         "60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6" + "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299",
         "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716",
         "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"),
        (ECCurve.p384,
         "EC3A4E415B4E19A4568618029F427FA5DA9A8BC4AE92E02E06AAE5286B300C64DEF8F0EA9055866064A254515480BC13"
            + "8015D9B72D7D57244EA8EF9AC0C621896708A59367F9DFB9F54CA84B3F1C9DB1288B231C3AE0D4FE7344FD2533264720",
         "94EDBB92A5ECB8AAD4736E56C691916B3F88140666CE9FA73D64C4EA95AD133C81A648152E44ACF96E36DD1E80FABE46",
         "99EF4AEB15F178CEA1FE40DB2603138F130E740A19624526203B6351D0A3A94FA329C145786E679E7B82C71A38628AC8"),
    ])
    func ecdsaMatchesRFC6979(_ curve: ECCurve, _ point: String, _ r: String, _ s: String) throws {
        let key = try VerifyingKey.ecdsa(curve, point: [4] + Self.bytes(point))
        let sample = Array("sample".utf8)
        let (rBytes, sBytes) = (Self.bytes(r), Self.bytes(s))
        #expect(key.verify(.ecdsa(r: rBytes, s: sBytes, curve.digest), of: sample))
        #expect(!key.verify(.ecdsa(r: rBytes, s: sBytes, curve.digest), of: Array("test".utf8)))
        #expect(!key.verify(.ecdsa(r: sBytes, s: rBytes, curve.digest), of: sample))
        var changed = sBytes
        changed[changed.count - 1] ^= 1
        #expect(!key.verify(.ecdsa(r: rBytes, s: changed, curve.digest), of: sample))
        #expect(!key.verify(.ecdsa(r: rBytes, s: sBytes, curve == .p256 ? .sha384 : .sha256), of: sample))
        #expect(!key.verify(.ecdsa(r: [], s: sBytes, curve.digest), of: sample))
        #expect(!key.verify(.ed25519(rBytes + sBytes), of: sample))
        #expect(!key.verify(.rsa(rBytes + sBytes, .sha256), of: sample))

        // A point off the curve, or not uncompressed, is refused.
        var off = [4] + Self.bytes(point)
        off[off.count - 1] ^= 1
        #expect(throws: SigningError.self) { try VerifyingKey.ecdsa(curve, point: off) }
        #expect(throws: SigningError.self) { try VerifyingKey.ecdsa(curve, point: [2] + Self.bytes(point).prefix(curve.coordinateBytes)) }
        #expect(throws: SigningError.self) { try VerifyingKey.ecdsa(curve == .p256 ? .p384 : .p256, point: [4] + Self.bytes(point)) }
    }

    /// RFC 6979's P-256 private key signs (randomly: each signature differs)
    /// and its public key checks each.
    @Test func ecdsaSignsWithAKeyFromItsNumbers() throws {
        let point = [4] + Self.bytes("60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6" + "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299")
        let key = try PrivateKey.ecdsa(.p256, scalar: Self.bytes("C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721"), point: point)
        let message = Array("mcpack".utf8)
        let first = try key.sign(message, digest: .sha256)
        let second = try key.sign(message, digest: .sha256)
        #expect(first != second)
        let verifier = try VerifyingKey.ecdsa(.p256, point: point)
        #expect(verifier.verify(first, of: message) && verifier.verify(second, of: message))
        #expect(!verifier.verify(first, of: Array("mcpack!".utf8)))
    }

    /// RFC 8032 §7.1 test 2 through PrivateKey and VerifyingKey.
    @Test func ed25519KeysMatchRFC8032() throws {
        let key = try PrivateKey.ed25519(seed: Self.bytes("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb"))
        let signature = try key.sign([0x72], digest: .sha512)
        #expect(signature == .ed25519(Self.bytes("92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00")))
        let verifier = try VerifyingKey.ed25519(Self.bytes("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"))
        #expect(verifier.verify(signature, of: [0x72]) && !verifier.verify(signature, of: [0x73]))
        #expect(throws: SigningError.self) { try VerifyingKey.ed25519([1, 2, 3]) }
    }

    /// An RSA key the openssl command makes, rebuilt from its numbers as an
    /// OpenSSH file holds them (n, e, d, p, q, iqmp: the CRT exponents
    /// derived here): PKCS#1 v1.5 is deterministic, so the signature must be
    /// the openssl command's, byte for byte; and it checks, and no other does.
    @Test func rsaFromItsNumbersSignsAsTheOpenSSLCommandDoes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let message = Array("a delivery".utf8)
        try Data(message).write(to: URL(fileURLWithPath: folder.path("message")))
        let script = "openssl genrsa -out key.pem 2048 2>/dev/null && openssl rsa -in key.pem -text -noout && openssl dgst -sha512 -sign key.pem -out signature message"
        let text = try Self.shell(script, in: folder)
        let numbers = Self.rsaNumbers(text)
        let exponent = try #require(numbers["publicExponent"])
        let key = try PrivateKey.rsa(modulus: numbers["modulus"]!, publicExponent: exponent, privateExponent: numbers["privateExponent"]!,
                                     prime1: numbers["prime1"]!, prime2: numbers["prime2"]!, coefficient: numbers["coefficient"]!)
        let signature = try key.sign(message, digest: .sha512)
        let theirs = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.path("signature"))))
        #expect(signature == .rsa(theirs, .sha512))
        let verifier = try VerifyingKey.rsa(modulus: numbers["modulus"]!, exponent: exponent)
        #expect(verifier.bits == 2048)
        #expect(verifier.verify(.rsa(theirs, .sha512), of: message))
        #expect(!verifier.verify(.rsa(theirs, .sha256), of: message))
        #expect(!verifier.verify(.rsa(theirs, .sha512), of: message + [0]))
        var changed = theirs
        changed[100] ^= 1
        #expect(!verifier.verify(.rsa(changed, .sha512), of: message))
        #expect(!verifier.verify(.rsa(Array(theirs.dropFirst()), .sha512), of: message))
        #expect(!verifier.verify(.ed25519(Array(theirs.prefix(64))), of: message))
    }

    /// The numbers `openssl rsa -text` prints, each as unsigned big-endian bytes.
    static func rsaNumbers(_ text: String) -> [String: [UInt8]] {
        var numbers: [String: [UInt8]] = [:]
        var name: String?
        var hex = ""
        func finish() {
            if let name, !hex.isEmpty { numbers[name] = Array(bytes(hex).drop { $0 == 0 }) }
            hex = ""
        }
        for line in text.split(separator: "\n") {
            if line.hasPrefix("    ") {
                hex += line.filter(\.isHexDigit)
            } else if line.hasPrefix("publicExponent:"), let open = line.range(of: "(0x"), let close = line.lastIndex(of: ")") {
                finish()
                var value = String(line[open.upperBound..<close])
                if value.count % 2 == 1 { value = "0" + value }
                numbers["publicExponent"] = bytes(value)
                name = nil
            } else {
                finish()
                name = line.hasSuffix(":") ? String(line.dropLast()) : nil
            }
        }
        finish()
        return numbers
    }

    static func shell(_ command: String, in folder: TemporaryFolder) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = folder.url
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(command)")
        return String(decoding: data, as: UTF8.self)
    }
}
