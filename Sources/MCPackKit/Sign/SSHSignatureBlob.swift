import Foundation
import Hashing
import Signing

/// What checking a signature blob found.
enum SSHVerdict: Equatable, Sendable {
    case good
    /// Well formed, and not this key's signature of these bytes.
    case mismatch
    /// Refused before the arithmetic: damaged, SHA-1, no user presence.
    case refused(String)
}

/// The FIDO flags PROTOCOL.u2f signatures carry.
enum FIDOFlags {
    static let userPresence: UInt8 = 0x01
    static let attestedData: UInt8 = 0x40
    static let extensionData: UInt8 = 0x80
}

extension SSHPublicKey {
    /// Checks an SSH signature blob (the signature's type name, then its
    /// fields) over `data` as OpenSSH's sshkey_verify does for this key's
    /// type, with OpenSSL doing the arithmetic. `requireUserPresence`: a
    /// FIDO signature must say the token was touched.
    func check(signature blob: [UInt8], over data: [UInt8], requireUserPresence: Bool) -> SSHVerdict {
        var reader = SSHWire.Reader(blob)
        guard let name = reader.text() else { return .refused("the signature is damaged (no type name)") }
        do {
            let (raw, signed) = try parts(name, &reader, data: data, requireUserPresence: requireUserPresence)
            guard reader.atEnd else { return .refused("the signature has bytes after its end") }
            return try verifyingKey().verify(raw, of: signed) ? .good : .mismatch
        } catch {
            return .refused(error.message)
        }
    }

    /// The signature OpenSSL checks and the bytes it covers: `data`
    /// itself, or for a FIDO key what the token signed around it.
    private func parts(_ name: String, _ reader: inout SSHWire.Reader, data: [UInt8],
                       requireUserPresence: Bool) throws(SSHKeyError) -> (RawSignature, [UInt8]) {
        let damaged = SSHKeyError("the \(name) signature is cut short or damaged")
        switch material {
        case .ed25519:
            try expect(name, type.rawValue)
            guard let signature = reader.bytes() else { throw damaged }
            return (.ed25519(signature), data)
        case .rsa(_, let modulus):
            let digest: SignatureDigest
            switch name {
            case "rsa-sha2-512": digest = .sha512
            case "rsa-sha2-256": digest = .sha256
            case "ssh-rsa": throw SSHKeyError("an ssh-rsa signature, made with SHA-1, which OpenSSH refuses too: sign again (ssh-keygen -Y sign and mcpack sign make rsa-sha2-512)")
            default: throw SSHKeyError("a \(name) signature from an RSA key")
            }
            guard let signature = reader.bytes() else { throw damaged }
            // OpenSSH takes a signature shorter than the modulus as one
            // whose leading zero bytes were dropped.
            guard signature.count <= modulus.count else { throw SSHKeyError("the RSA signature is longer than the key") }
            return (.rsa([UInt8](repeating: 0, count: modulus.count - signature.count) + signature, digest), data)
        case .ecdsa(let curve, _):
            try expect(name, type.rawValue)
            guard let (r, s) = Self.ecdsaNumbers(&reader) else { throw damaged }
            return (.ecdsa(r: r, s: s, curve.digest), data)
        case .skEd25519(_, let application):
            try expect(name, type.rawValue)
            guard let signature = reader.bytes(), signature.count == 64, let flags = reader.byte(), let counter = reader.uint32() else { throw damaged }
            try Self.presence(flags, required: requireUserPresence)
            return (.ed25519(signature), try Self.fidoSigned(application, flags, counter, extensions: [], messageHash: sha256(data)))
        case .skECDSA(_, let application):
            return try skECDSAParts(name, &reader, data: data, application: application, requireUserPresence: requireUserPresence)
        }
    }

    /// sk-ecdsa: a plain U2F signature, or a WebAuthn one, whose token
    /// signed a clientData that must hold this message as its challenge.
    private func skECDSAParts(_ name: String, _ reader: inout SSHWire.Reader, data: [UInt8], application: String,
                              requireUserPresence: Bool) throws(SSHKeyError) -> (RawSignature, [UInt8]) {
        // OpenSSH accepts the certificate's spelling of the WebAuthn type too.
        let webauthn = ["webauthn-sk-ecdsa-sha2-nistp256@openssh.com", "webauthn-sk-ecdsa-sha2-nistp256-cert-v01@openssh.com"].contains(name)
        if !webauthn { try expect(name, type.rawValue) }
        let damaged = SSHKeyError("the \(name) signature is cut short or damaged")
        guard let (r, s) = Self.ecdsaNumbers(&reader), let flags = reader.byte(), let counter = reader.uint32() else { throw damaged }
        try Self.presence(flags, required: requireUserPresence)
        guard webauthn else {
            return (.ecdsa(r: r, s: s, .sha256), try Self.fidoSigned(application, flags, counter, extensions: [], messageHash: sha256(data)))
        }
        guard let origin = reader.text(), let clientData = reader.bytes(), let extensions = reader.bytes() else { throw damaged }
        // webauthn_check_prepare_hash: the clientData must open with this
        // message as its challenge, and the flags agree with what follows.
        let challenge = Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let preamble = Array("{\"type\":\"webauthn.get\",\"challenge\":\"\(challenge)\",\"origin\":\"\(origin)\"".utf8)
        guard !origin.contains("\""), flags & FIDOFlags.attestedData == 0,
              (flags & FIDOFlags.extensionData == 0) == extensions.isEmpty,
              clientData.starts(with: preamble) else {
            throw SSHKeyError("the WebAuthn signature's client data is not of this message")
        }
        return (.ecdsa(r: r, s: s, .sha256),
                try Self.fidoSigned(application, flags, counter, extensions: extensions, messageHash: sha256(clientData)))
    }

    private func expect(_ name: String, _ wanted: String) throws(SSHKeyError) {
        guard name == wanted else { throw SSHKeyError("a \(name) signature from a \(type.rawValue) key") }
    }

    private func sha256(_ bytes: [UInt8]) throws(SSHKeyError) -> [UInt8] {
        do { return try Digest.bytes(of: bytes, .sha256) } catch { throw SSHKeyError("\(error)") }
    }

    /// What a FIDO token signs (PROTOCOL.u2f): SHA-256 of the application,
    /// the flags, the counter, any extensions, then the message's hash.
    private static func fidoSigned(_ application: String, _ flags: UInt8, _ counter: UInt32, extensions: [UInt8],
                                   messageHash: [UInt8]) throws(SSHKeyError) -> [UInt8] {
        let applicationHash: [UInt8]
        do { applicationHash = try Digest.bytes(of: Array(application.utf8), .sha256) } catch { throw SSHKeyError("\(error)") }
        return applicationHash + [flags] + SSHWire.uint32(counter) + extensions + messageHash
    }

    /// ssh-keygen -Y verify accepts a FIDO signature made without a touch
    /// (a key made with -O no-touch-required); sshd refuses one unless told
    /// otherwise, and so does mcpack: a signature no one confirmed at the
    /// token could be malware's on the signer's machine.
    private static func presence(_ flags: UInt8, required: Bool) throws(SSHKeyError) {
        if required, flags & FIDOFlags.userPresence == 0 {
            throw SSHKeyError("the FIDO signature was made without user presence (the token was not touched)")
        }
    }

    /// The (r, s) blob ECDSA signatures carry: two mpints, nothing after.
    private static func ecdsaNumbers(_ reader: inout SSHWire.Reader) -> ([UInt8], [UInt8])? {
        guard let inner = reader.bytes() else { return nil }
        var numbers = SSHWire.Reader(inner)
        guard let r = numbers.mpint(), let s = numbers.mpint(), numbers.atEnd else { return nil }
        return (r, s)
    }
}

extension RawSignature {
    /// The SSH signature blob of this signature by a key of `type`: RSA
    /// as rsa-sha2-512 or -256, ECDSA's numbers as mpints.
    func sshBlob(_ type: SSHKeyType) -> [UInt8] {
        switch self {
        case .ed25519(let bytes): return SSHWire.string(type.rawValue) + SSHWire.string(bytes)
        case .rsa(let bytes, let digest):
            return SSHWire.string(digest == .sha256 ? "rsa-sha2-256" : "rsa-sha2-512") + SSHWire.string(bytes)
        case .ecdsa(let r, let s, _): return SSHWire.string(type.rawValue) + SSHWire.string(SSHWire.mpint(r) + SSHWire.mpint(s))
        }
    }
}
