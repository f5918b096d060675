import Foundation
import Signing

/// The key types ssh-keygen signs with, by the names their blobs and .pub
/// lines carry (PROTOCOL.key, PROTOCOL.u2f, RFC 5656, RFC 8709).
enum SSHKeyType: String, CaseIterable, Sendable {
    case ed25519 = "ssh-ed25519"
    case rsa = "ssh-rsa"
    case ecdsaP256 = "ecdsa-sha2-nistp256"
    case ecdsaP384 = "ecdsa-sha2-nistp384"
    case ecdsaP521 = "ecdsa-sha2-nistp521"
    case skEd25519 = "sk-ssh-ed25519@openssh.com"
    case skECDSA = "sk-ecdsa-sha2-nistp256@openssh.com"

    /// The name of a certificate of this type (PROTOCOL.certkeys).
    var certificateName: String {
        rawValue.hasSuffix("@openssh.com")
            ? rawValue.replacingOccurrences(of: "@openssh.com", with: "-cert-v01@openssh.com")
            : rawValue + "-cert-v01@openssh.com"
    }

    var curve: ECCurve? {
        switch self {
        case .ecdsaP256, .skECDSA: return .p256
        case .ecdsaP384: return .p384
        case .ecdsaP521: return .p521
        case .ed25519, .rsa, .skEd25519: return nil
        }
    }

    /// The curve's name inside an ECDSA blob.
    var curveName: String? {
        switch curve {
        case .p256?: return "nistp256"
        case .p384?: return "nistp384"
        case .p521?: return "nistp521"
        case nil: return nil
        }
    }

    /// Key types OpenSSH knows and mcpack does not check (DSA, which
    /// OpenSSH itself has since dropped): a line holding one is skipped.
    static let unsupported: Set<String> = ["ssh-dss", "ssh-dss-cert-v01@openssh.com"]

    /// The type a name stands for, plain or certificate.
    static func named(_ name: String) -> (type: SSHKeyType, certificate: Bool)? {
        for type in allCases {
            if name == type.rawValue { return (type, false) }
            if name == type.certificateName { return (type, true) }
        }
        return nil
    }
}

/// Why a key blob or line is not one mcpack can use.
struct SSHKeyError: Error, Sendable, CustomStringConvertible {
    let message: String
    /// OpenSSH knows the type, mcpack does not check it: skipped, not damaged.
    var unsupported = false
    init(_ message: String, unsupported: Bool = false) {
        self.message = message
        self.unsupported = unsupported
    }
    var description: String { message }
}

/// A plain OpenSSH public key, by the numbers its blob carries. Equal when
/// the numbers are (as OpenSSH's sshkey_equal_public compares them), so
/// two encodings of one key are one key.
struct SSHPublicKey: Equatable, Sendable {
    enum Material: Equatable, Sendable {
        case ed25519([UInt8])
        /// Unsigned big-endian, leading zeros dropped.
        case rsa(exponent: [UInt8], modulus: [UInt8])
        case ecdsa(ECCurve, point: [UInt8])
        /// FIDO keys carry the application (`ssh:` by default) their
        /// signatures name by its SHA-256.
        case skEd25519([UInt8], application: String)
        case skECDSA(point: [UInt8], application: String)
    }

    let material: Material

    var type: SSHKeyType {
        switch material {
        case .ed25519: return .ed25519
        case .rsa: return .rsa
        case .ecdsa(let curve, _): return [.p256: .ecdsaP256, .p384: .ecdsaP384, .p521: .ecdsaP521][curve]!
        case .skEd25519: return .skEd25519
        case .skECDSA: return .skECDSA
        }
    }

    /// The fields after the type name, as a blob and a certificate carry them.
    var fields: [UInt8] {
        switch material {
        case .ed25519(let key): return SSHWire.string(key)
        case .rsa(let e, let n): return SSHWire.mpint(e) + SSHWire.mpint(n)
        case .ecdsa(_, let point): return SSHWire.string(type.curveName!) + SSHWire.string(point)
        case .skEd25519(let key, let application): return SSHWire.string(key) + SSHWire.string(application)
        case .skECDSA(let point, let application):
            return SSHWire.string(type.curveName!) + SSHWire.string(point) + SSHWire.string(application)
        }
    }

    var blob: [UInt8] { SSHWire.string(type.rawValue) + fields }
    var fingerprint: String { SSHWire.fingerprint(blob) }

    /// OpenSSL's key for these numbers.
    func verifyingKey() throws(SSHKeyError) -> VerifyingKey {
        do {
            switch material {
            case .ed25519(let key), .skEd25519(let key, _): return try .ed25519(key)
            case .rsa(let e, let n): return try .rsa(modulus: n, exponent: e)
            case .ecdsa(let curve, let point): return try .ecdsa(curve, point: point)
            case .skECDSA(let point, _): return try .ecdsa(.p256, point: point)
            }
        } catch {
            throw SSHKeyError("the \(type.rawValue) key is damaged: \(error.message)")
        }
    }

    /// Reads the fields of a `type` key, after its name (and, in a
    /// certificate, its nonce); checks them as OpenSSH does on loading.
    static func read(_ type: SSHKeyType, from reader: inout SSHWire.Reader) throws(SSHKeyError) -> SSHPublicKey {
        let damaged = SSHKeyError("the \(type.rawValue) key is cut short or damaged")
        let material: Material
        switch type {
        case .ed25519, .skEd25519:
            guard let key = reader.bytes(), key.count == 32 else { throw damaged }
            if type == .ed25519 {
                material = .ed25519(key)
            } else {
                guard let application = reader.text() else { throw damaged }
                material = .skEd25519(key, application: application)
            }
        case .rsa:
            guard let e = reader.mpint(), let n = reader.mpint() else { throw damaged }
            material = .rsa(exponent: e, modulus: n)
        case .ecdsaP256, .ecdsaP384, .ecdsaP521, .skECDSA:
            guard let curveName = reader.text(), let point = reader.bytes() else { throw damaged }
            guard curveName == type.curveName else { throw SSHKeyError("a \(type.rawValue) key on curve \(curveName)") }
            if type == .skECDSA {
                guard let application = reader.text() else { throw damaged }
                material = .skECDSA(point: point, application: application)
            } else {
                material = .ecdsa(type.curve!, point: point)
            }
        }
        let key = SSHPublicKey(material: material)
        let openSSL = try key.verifyingKey()
        if type == .rsa, !(1024...16384).contains(openSSL.bits) {
            throw SSHKeyError("a \(openSSL.bits)-bit RSA key: OpenSSH accepts 1024 to 16384 bits")
        }
        return key
    }
}

/// An OpenSSH certificate (PROTOCOL.certkeys): a key, whom and when it is
/// good for, signed by a certificate authority's key. Only read once its
/// authority's signature checks, as OpenSSH reads one.
struct SSHCertificate: Sendable {
    static let userType: UInt32 = 1

    let key: SSHPublicKey
    let serial: UInt64
    let kind: UInt32
    let keyID: String
    let principals: [String]
    /// Seconds since 1970, UTC; valid from `validAfter` until before `validBefore`.
    let validAfter: UInt64
    let validBefore: UInt64
    let authority: SSHPublicKey
    let blob: [UInt8]

    /// Why the certificate does not vouch for its key at `time` (as
    /// sshkey_cert_check_authority says it), nil when it does; with a
    /// `principal`, it must be one the certificate names, exactly.
    func refusal(at time: UInt64, principal: String?) -> String? {
        if kind != Self.userType { return "a host certificate, not a user certificate" }
        if time < validAfter { return "the certificate is not yet valid (from \(SSHTime.text(validAfter)))" }
        if time >= validBefore { return "the certificate expired (\(SSHTime.text(validBefore)))" }
        if principals.isEmpty { return "the certificate names no principal" }
        if let principal, !principals.contains(principal) {
            return "the certificate is for \(principals.joined(separator: ",")), not \(principal)"
        }
        return nil
    }

    /// Reads a certificate blob whose type name has been read.
    static func read(_ type: SSHKeyType, blob: [UInt8], from reader: inout SSHWire.Reader) throws(SSHKeyError) -> SSHCertificate {
        let damaged = SSHKeyError("the \(type.certificateName) certificate is cut short or damaged")
        guard reader.bytes() != nil else { throw damaged }  // the nonce
        let key = try SSHPublicKey.read(type, from: &reader)
        guard let serial = reader.uint64(), let kind = reader.uint32(), let keyID = reader.text(),
              let packedPrincipals = reader.bytes(), let validAfter = reader.uint64(), let validBefore = reader.uint64(),
              let critical = reader.bytes(), let extensions = reader.bytes(), reader.bytes() != nil,
              let authorityBlob = reader.bytes() else { throw damaged }
        let signed = reader.offset
        guard let signature = reader.bytes(), reader.atEnd else { throw damaged }
        guard kind == userType || kind == 2 else { throw SSHKeyError("a certificate of unknown type \(kind)") }
        var principals: [String] = []
        var packed = SSHWire.Reader(packedPrincipals)
        while !packed.atEnd {
            guard principals.count < 256, let principal = packed.text() else { throw damaged }
            principals.append(principal)
        }
        for section in [critical, extensions] {
            var pairs = SSHWire.Reader(section)
            while !pairs.atEnd { guard pairs.bytes() != nil, pairs.bytes() != nil else { throw damaged } }
        }
        // The authority may not be a certificate (OpenSSH reads it with
        // certificates disallowed): said from its type name, before reading
        // it, or a certificate signed by one signed by one..., thousands
        // deep in a signature file, would be read down to a stack overflow.
        var authorityType = SSHWire.Reader(authorityBlob)
        guard let authorityName = authorityType.text(), SSHKeyType.named(authorityName)?.certificate != true,
              case .plain(let authority)? = try? SSHKey.read(blob: authorityBlob) else {
            throw SSHKeyError("the certificate's authority key is damaged, or itself a certificate")
        }
        switch authority.check(signature: signature, over: Array(blob[..<signed]), requireUserPresence: false) {
        case .good: break
        case .mismatch: throw SSHKeyError("the certificate's signature by its authority (\(authority.fingerprint)) does not check")
        case .refused(let why): throw SSHKeyError("the certificate's signature by its authority (\(authority.fingerprint)): \(why)")
        }
        return SSHCertificate(key: key, serial: serial, kind: kind, keyID: keyID, principals: principals,
                              validAfter: validAfter, validBefore: validBefore, authority: authority, blob: blob)
    }
}

/// A key as a signature or an allowed_signers line names it: a plain key
/// or a certificate.
enum SSHKey: Sendable {
    case plain(SSHPublicKey)
    case certificate(SSHCertificate)

    /// The key itself, a certificate's included.
    var publicKey: SSHPublicKey {
        switch self {
        case .plain(let key): return key
        case .certificate(let certificate): return certificate.key
        }
    }

    var certificate: SSHCertificate? {
        if case .certificate(let certificate) = self { return certificate }
        return nil
    }

    var typeName: String { certificate == nil ? publicKey.type.rawValue : publicKey.type.certificateName }

    var blob: [UInt8] { certificate?.blob ?? publicKey.blob }

    /// Of the key, a certificate's included, as ssh-keygen prints it.
    var fingerprint: String { publicKey.fingerprint }

    /// Type and fingerprint, as a report names a key.
    var label: String { "\(typeName) \(fingerprint)" }

    /// sshkey_equal: plain keys by their numbers, certificates whole.
    func same(as other: SSHKey) -> Bool {
        switch (self, other) {
        case (.plain(let a), .plain(let b)): return a == b
        case (.certificate(let a), .certificate(let b)): return a.blob == b.blob
        default: return false
        }
    }

    /// A key blob, with nothing after it.
    static func read(blob: [UInt8]) throws(SSHKeyError) -> SSHKey {
        var reader = SSHWire.Reader(blob)
        guard let name = reader.text() else { throw SSHKeyError("not an SSH key (its type name is missing)") }
        guard let (type, isCertificate) = SSHKeyType.named(name) else {
            throw SSHKeyError("a \(name) key, which mcpack does not check", unsupported: SSHKeyType.unsupported.contains(name))
        }
        let key: SSHKey
        if isCertificate {
            key = .certificate(try SSHCertificate.read(type, blob: blob, from: &reader))
        } else {
            key = .plain(try SSHPublicKey.read(type, from: &reader))
        }
        guard reader.atEnd else { throw SSHKeyError("the \(name) key has bytes after its end") }
        return key
    }

    /// `TYPE BASE64` (a comment may follow, not read here), the name and
    /// the blob's own type agreeing, as sshkey_read requires.
    static func read(type name: String, base64: String) throws(SSHKeyError) -> SSHKey {
        guard SSHKeyType.named(name) != nil else {
            throw SSHKeyError("a \(name) key, which mcpack does not check", unsupported: SSHKeyType.unsupported.contains(name))
        }
        guard let data = Data(base64Encoded: base64) else { throw SSHKeyError("the key's base64 is damaged") }
        let key = try read(blob: [UInt8](data))
        guard key.typeName == name else { throw SSHKeyError("the line says \(name), its key is \(key.typeName)") }
        return key
    }
}
