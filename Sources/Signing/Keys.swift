import COpenSSL
import Foundation
import Hashing

/// The NIST curves OpenSSH signs with, by OpenSSL's group names.
public enum ECCurve: String, Sendable, CaseIterable {
    case p256 = "P-256", p384 = "P-384", p521 = "P-521"

    /// Bytes of one coordinate: an uncompressed point is 04, x, y.
    public var coordinateBytes: Int {
        switch self {
        case .p256: return 32
        case .p384: return 48
        case .p521: return 66
        }
    }

    /// The digest ECDSA on this curve is paired with in SSH (RFC 5656 §6.2.1).
    public var digest: SignatureDigest {
        switch self {
        case .p256: return .sha256
        case .p384: return .sha384
        case .p521: return .sha512
        }
    }
}

/// The digests RSA and ECDSA signatures are made over, by OpenSSL's names.
/// No SHA-1: OpenSSH refuses SHA-1 signatures, and so does mcpack.
public enum SignatureDigest: String, Sendable {
    case sha256 = "SHA256", sha384 = "SHA384", sha512 = "SHA512"
}

/// A signature in the parts SSH carries it in; OpenSSL's own encodings
/// (DER for ECDSA) stay inside this module.
public enum RawSignature: Sendable, Equatable {
    /// RSASSA-PKCS1-v1_5: as many bytes as the modulus.
    case rsa([UInt8], SignatureDigest)
    /// ECDSA's two integers, unsigned big-endian.
    case ecdsa(r: [UInt8], s: [UInt8], SignatureDigest)
    /// Pure Ed25519 (RFC 8032): 64 bytes, over the message itself.
    case ed25519([UInt8])
}

/// A public key OpenSSL built from the numbers an SSH key blob carries.
/// A class, so the EVP_PKEY is freed with it.
public final class VerifyingKey: @unchecked Sendable {
    private let key: OpaquePointer

    private init(_ key: OpaquePointer) { self.key = key }
    deinit { EVP_PKEY_free(key) }

    /// `modulus` and `exponent`: unsigned big-endian, as an SSH mpint's bytes.
    public static func rsa(modulus: [UInt8], exponent: [UInt8]) throws(SigningError) -> VerifyingKey {
        let parameters = try KeyParameters()
        try parameters.number(OSSL_PKEY_PARAM_RSA_N, modulus)
        try parameters.number(OSSL_PKEY_PARAM_RSA_E, exponent)
        return VerifyingKey(try parameters.build("RSA", selection: mcpack_selection_public_key()))
    }

    /// `point`: uncompressed (04, x, y), as SSH carries it. OpenSSL checks
    /// that it lies on the curve, as OpenSSH does before trusting one.
    public static func ecdsa(_ curve: ECCurve, point: [UInt8]) throws(SigningError) -> VerifyingKey {
        guard point.count == 1 + 2 * curve.coordinateBytes, point.first == 4 else {
            throw SigningError("an uncompressed \(curve.rawValue) point is \(1 + 2 * curve.coordinateBytes) bytes beginning 04")
        }
        let parameters = try KeyParameters()
        try parameters.text(OSSL_PKEY_PARAM_GROUP_NAME, curve.rawValue)
        try parameters.bytes(OSSL_PKEY_PARAM_PUB_KEY, point)
        let key = VerifyingKey(try parameters.build("EC", selection: mcpack_selection_public_key()))
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key.key, nil) else { throw SigningError("out of memory") }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_public_check(context) == 1 else {
            throw SigningError("not a point of \(curve.rawValue): \(openSSLErrorText())")
        }
        return key
    }

    public static func ed25519(_ raw: [UInt8]) throws(SigningError) -> VerifyingKey {
        guard raw.count == 32, let key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, raw, raw.count) else {
            ERR_clear_error()
            throw SigningError("an Ed25519 public key is 32 bytes, not \(raw.count)")
        }
        return VerifyingKey(key)
    }

    /// The modulus's bits for RSA, the field's for ECDSA.
    public var bits: Int { Int(EVP_PKEY_get_bits(key)) }

    /// True when `signature` is this key's over `message`. A signature of
    /// another algorithm than the key's is false, never an error.
    public func verify(_ signature: RawSignature, of message: [UInt8]) -> Bool {
        message.withUnsafeBytes { verify(signature, ofBytes: $0) }
    }

    public func verify(_ signature: RawSignature, ofBytes message: UnsafeRawBufferPointer) -> Bool {
        defer { ERR_clear_error() }
        let encoded: [UInt8]
        let digest: SignatureDigest?
        switch signature {
        case .rsa(let bytes, let algorithm):
            guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else { return false }
            (encoded, digest) = (bytes, algorithm)
        case .ecdsa(let r, let s, let algorithm):
            guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, let der = ECDSASignature.der(r: r, s: s) else { return false }
            (encoded, digest) = (der, algorithm)
        case .ed25519(let bytes):
            guard EVP_PKEY_get_base_id(key) == EVP_PKEY_ED25519, bytes.count == 64 else { return false }
            (encoded, digest) = (bytes, nil)
        }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit_ex(context, nil, digest?.rawValue, nil, nil, key, nil) == 1 else { return false }
        return EVP_DigestVerify(context, encoded, encoded.count, message.baseAddress, message.count) == 1
    }
}

/// A private key OpenSSL built from the numbers an openssh-key-v1 file
/// holds, to sign as ssh-keygen signs with it.
public final class PrivateKey: @unchecked Sendable {
    private let key: OpaquePointer

    private init(_ key: OpaquePointer) { self.key = key }
    deinit { EVP_PKEY_free(key) }

    /// OpenSSH stores n, e, d, iqmp, p and q; OpenSSL wants the CRT
    /// exponents too, which OpenSSL's own arithmetic derives here, as
    /// OpenSSH does when it loads the key.
    public static func rsa(modulus: [UInt8], publicExponent: [UInt8], privateExponent: [UInt8],
                           prime1: [UInt8], prime2: [UInt8], coefficient: [UInt8]) throws(SigningError) -> PrivateKey {
        let (exponent1, exponent2) = try BigNumber.crtExponents(privateExponent: privateExponent, prime1: prime1, prime2: prime2)
        let parameters = try KeyParameters()
        // The CRT names are concatenated macros in core_names.h, which
        // Swift does not import: spelled out as OpenSSL 3 defines them.
        try parameters.number(OSSL_PKEY_PARAM_RSA_N, modulus)
        try parameters.number(OSSL_PKEY_PARAM_RSA_E, publicExponent)
        try parameters.number(OSSL_PKEY_PARAM_RSA_D, privateExponent)
        try parameters.number("rsa-factor1", prime1)
        try parameters.number("rsa-factor2", prime2)
        try parameters.number("rsa-exponent1", exponent1)
        try parameters.number("rsa-exponent2", exponent2)
        try parameters.number("rsa-coefficient1", coefficient)
        return PrivateKey(try parameters.build("RSA", selection: mcpack_selection_keypair()))
    }

    public static func ecdsa(_ curve: ECCurve, scalar: [UInt8], point: [UInt8]) throws(SigningError) -> PrivateKey {
        let parameters = try KeyParameters()
        try parameters.text(OSSL_PKEY_PARAM_GROUP_NAME, curve.rawValue)
        try parameters.number(OSSL_PKEY_PARAM_PRIV_KEY, scalar)
        try parameters.bytes(OSSL_PKEY_PARAM_PUB_KEY, point)
        return PrivateKey(try parameters.build("EC", selection: mcpack_selection_keypair()))
    }

    public static func ed25519(seed: [UInt8]) throws(SigningError) -> PrivateKey {
        guard seed.count == 32, let key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, seed, seed.count) else {
            ERR_clear_error()
            throw SigningError("an Ed25519 seed is 32 bytes, not \(seed.count)")
        }
        return PrivateKey(key)
    }

    /// `digest` is ignored for Ed25519, which hashes for itself. RSA
    /// (PKCS#1 v1.5) and Ed25519 are deterministic; ECDSA is not.
    public func sign(_ message: [UInt8], digest: SignatureDigest) throws(SigningError) -> RawSignature {
        let type = EVP_PKEY_get_base_id(key)
        guard let context = EVP_MD_CTX_new() else { throw SigningError("out of memory") }
        defer { EVP_MD_CTX_free(context) }
        let digestName = type == EVP_PKEY_ED25519 ? nil : digest.rawValue
        guard EVP_DigestSignInit_ex(context, nil, digestName, nil, nil, key, nil) == 1 else {
            throw SigningError("OpenSSL cannot start a signature: \(openSSLErrorText())")
        }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw SigningError("OpenSSL cannot sign: \(openSSLErrorText())")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            throw SigningError("OpenSSL cannot sign: \(openSSLErrorText())")
        }
        signature.removeSubrange(length...)
        switch type {
        case EVP_PKEY_RSA: return .rsa(signature, digest)
        case EVP_PKEY_ED25519: return .ed25519(signature)
        default:
            guard let (r, s) = ECDSASignature.parts(der: signature) else { throw SigningError("OpenSSL's ECDSA signature does not decode") }
            return .ecdsa(r: r, s: s, digest)
        }
    }
}

/// ECDSA's (r, s) to and from the DER OpenSSL reads and writes.
enum ECDSASignature {
    static func der(r: [UInt8], s: [UInt8]) -> [UInt8]? {
        guard let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        guard let rNumber = BN_bin2bn(r, Int32(r.count), nil) else { return nil }
        guard let sNumber = BN_bin2bn(s, Int32(s.count), nil) else { BN_free(rNumber); return nil }
        guard ECDSA_SIG_set0(signature, rNumber, sNumber) == 1 else {
            BN_free(rNumber)
            BN_free(sNumber)
            return nil
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: Int(length))
        let written = out.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? out : nil
    }

    static func parts(der: [UInt8]) -> (r: [UInt8], s: [UInt8])? {
        let decoded: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let decoded else { return nil }
        defer { ECDSA_SIG_free(decoded) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(decoded, &r, &s)
        guard let r, let s else { return nil }
        return (BigNumber.bytes(r), BigNumber.bytes(s))
    }
}

enum BigNumber {
    /// Unsigned big-endian, no leading zeros (empty for zero).
    static func bytes(_ number: OpaquePointer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: (Int(BN_num_bits(number)) + 7) / 8)
        _ = BN_bn2bin(number, &out)
        return out
    }

    /// d mod (p - 1) and d mod (q - 1).
    static func crtExponents(privateExponent: [UInt8], prime1: [UInt8], prime2: [UInt8]) throws(SigningError) -> ([UInt8], [UInt8]) {
        guard let context = BN_CTX_new() else { throw SigningError("out of memory") }
        defer { BN_CTX_free(context) }
        let inputs: [[UInt8]] = [privateExponent, prime1, prime2]
        let numbers = inputs.map { value -> OpaquePointer? in BN_bin2bn(value, Int32(value.count), nil) }
        let scratch = (0..<2).map { _ in BN_new() }
        defer { (numbers + scratch).forEach { BN_clear_free($0) } }
        guard let d = numbers[0], let p = numbers[1], let q = numbers[2], let reduced = scratch[0], let result = scratch[1] else {
            throw SigningError("out of memory")
        }
        var exponents: [[UInt8]] = []
        for prime in [p, q] {
            guard BN_sub(reduced, prime, BN_value_one()) == 1, BN_div(nil, result, d, reduced, context) == 1 else {
                throw SigningError("the RSA key's numbers are damaged: \(openSSLErrorText())")
            }
            exponents.append(bytes(result))
        }
        return (exponents[0], exponents[1])
    }
}

/// OSSL_PARAM_BLD keeps the pointers it is given (names included) until it
/// builds, so each name, string and number pushed is a copy owned here
/// until then; secret numbers are cleared as they are freed.
private final class KeyParameters {
    private let builder: OpaquePointer
    private var copies: [UnsafeMutableRawPointer] = []
    private var numbers: [OpaquePointer] = []

    init() throws(SigningError) {
        guard let builder = OSSL_PARAM_BLD_new() else { throw SigningError("out of memory") }
        self.builder = builder
    }

    deinit {
        OSSL_PARAM_BLD_free(builder)
        numbers.forEach { BN_clear_free($0) }
        copies.forEach { free($0) }
    }

    private func copy(_ bytes: [UInt8]) -> UnsafeMutableRawPointer {
        let memory = malloc(max(bytes.count, 1))!
        bytes.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        copies.append(memory)
        return memory
    }

    private func name(_ text: String) -> UnsafeMutablePointer<CChar> {
        copy(Array(text.utf8) + [0]).assumingMemoryBound(to: CChar.self)
    }

    func number(_ key: String, _ bigEndian: [UInt8]) throws(SigningError) {
        guard let number = BN_bin2bn(bigEndian, Int32(bigEndian.count), nil) else { throw SigningError("out of memory") }
        numbers.append(number)
        guard OSSL_PARAM_BLD_push_BN(builder, name(key), number) == 1 else { throw SigningError("OpenSSL refuses \(key): \(openSSLErrorText())") }
    }

    func text(_ key: String, _ value: String) throws(SigningError) {
        guard OSSL_PARAM_BLD_push_utf8_string(builder, name(key), name(value), 0) == 1 else {
            throw SigningError("OpenSSL refuses \(key): \(openSSLErrorText())")
        }
    }

    func bytes(_ key: String, _ value: [UInt8]) throws(SigningError) {
        guard OSSL_PARAM_BLD_push_octet_string(builder, name(key), copy(value), value.count) == 1 else {
            throw SigningError("OpenSSL refuses \(key): \(openSSLErrorText())")
        }
    }

    func build(_ type: String, selection: Int32) throws(SigningError) -> OpaquePointer {
        guard let parameters = OSSL_PARAM_BLD_to_param(builder) else { throw SigningError("OpenSSL cannot gather the key's numbers: \(openSSLErrorText())") }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else { throw SigningError("OpenSSL has no \(type): \(openSSLErrorText())") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1, EVP_PKEY_fromdata(context, &key, selection, parameters) == 1, let key else {
            throw SigningError("OpenSSL refuses the \(type) key: \(openSSLErrorText())")
        }
        return key
    }
}
