import FileIO
import Foundation
import Signing

/// An OpenSSH private key (PROTOCOL.key, `openssh-key-v1`) ready to sign:
/// read and signed with by OpenSSL when the file is in clear, or found in
/// ssh-agent when mcpack cannot open it (a passphrase, a FIDO token).
struct SSHPrivateKey {
    /// Who signs: OpenSSL with the key read from the file, or the ssh-agent
    /// holding the key.
    enum Signer {
        case local(PrivateKey)
        case agent(socket: String)
    }

    var signer: Signer
    var publicKey: SSHPublicKey
    var comment: String
    var file: String
    /// A certificate of this key, named in the signature in its place, as
    /// `ssh-keygen -Y sign -f KEY-cert.pub` does.
    var certificate: SSHCertificate?

    /// What the signature names as its signer.
    var signerKey: SSHKey { certificate.map { .certificate($0) } ?? .plain(publicKey) }

    /// `ssh-keygen -Y sign -f KEY-cert.pub`: the certificate read, and the
    /// private key beside it (the name without `-cert.pub` or `.pub`) with it.
    static func read(certificate text: String, file: String, contents: (String) -> Data?) throws -> SSHPrivateKey {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0.isNewline }).map(String.init)
        let certificate: SSHCertificate
        switch Result(catching: { () throws(SSHKeyError) in try SSHKey.read(type: fields.first ?? "", base64: fields.count > 1 ? fields[1] : "") }) {
        case .success(.certificate(let read)): certificate = read
        case .success(.plain): throw FileError(path: file, message: "a public key: sign with its private key (the file without .pub)")
        case .failure(let error): throw FileError(path: file, message: error.message)
        }
        let privatePath = ["-cert.pub", ".pub"].first(where: file.hasSuffix).map { String(file.dropLast($0.count)) } ?? file
        guard privatePath != file, let data = contents(privatePath) else {
            throw FileError(path: file, message: "a certificate: mcpack signs with the private key beside it, and \(privatePath == file ? "its name does not end -cert.pub" : "\(privatePath) is not there")")
        }
        var key = try read(String(decoding: data, as: UTF8.self), file: privatePath)
        guard key.publicKey == certificate.key else {
            throw FileError(path: file, message: "the certificate is of key \(certificate.key.fingerprint), not of \(privatePath)'s \(key.publicKey.fingerprint)")
        }
        key.certificate = certificate
        return key
    }

    static func isPrivateKey(_ text: String) -> Bool { text.contains("-----BEGIN OPENSSH PRIVATE KEY-----") }

    /// The signature blob of `message`, as ssh-keygen makes it (RSA as
    /// rsa-sha2-512), checked against the public key before it is used:
    /// a damaged key or a confused agent must not write a bad signature,
    /// nor a FIDO key one its receivers refuse for want of a touch.
    func sign(_ message: [UInt8]) throws -> [UInt8] {
        let blob: [UInt8]
        let source: String
        switch signer {
        case .local(let key):
            blob = try key.sign(message, digest: publicKey.type.curve?.digest ?? .sha512).sshBlob(publicKey.type)
            source = "the key is damaged: its signature"
        case .agent(let socket):
            blob = try SSHAgent.sign(message, blob: publicKey.blob, rsa: publicKey.type == .rsa, socket: socket)
            source = "ssh-agent's signature"
        }
        switch publicKey.check(signature: blob, over: message, requireUserPresence: true) {
        case .good: break
        case .mismatch: throw FileError(path: file, message: "\(source) does not check with the key's public half")
        case .refused(let why): throw FileError(path: file, message: "\(source) is refused: \(why)")
        }
        return blob
    }

    static func read(_ text: String, file: String) throws -> SSHPrivateKey {
        guard let body = SSHWire.dearmor(text, "OPENSSH PRIVATE KEY") else {
            throw FileError(path: file, message: "not an OpenSSH private key (no BEGIN/END OPENSSH PRIVATE KEY lines, or damaged base64)")
        }
        var reader = SSHWire.Reader(body)
        let magic = Array("openssh-key-v1".utf8) + [0]
        guard reader.take(magic.count) == magic else { throw FileError(path: file, message: "not an openssh-key-v1 private key") }
        guard let cipher = reader.text(), let kdf = reader.text(), reader.bytes() != nil, let count = reader.uint32() else {
            throw FileError(path: file, message: "the private key is cut short or damaged")
        }
        guard count == 1 else { throw FileError(path: file, message: "the file holds \(count) keys; mcpack signs with a file of one") }
        guard let publicBlob = reader.bytes(), let secret = reader.bytes() else { throw FileError(path: file, message: "the private key is cut short or damaged") }
        let publicKey: SSHPublicKey
        switch Result(catching: { () throws(SSHKeyError) in try SSHKey.read(blob: publicBlob) }) {
        case .success(.plain(let key)): publicKey = key
        case .success(.certificate): throw FileError(path: file, message: "a certificate where the key should be")
        case .failure(let error): throw FileError(path: file, message: "the key's public half: \(error.message)")
        }
        if cipher != "none" || kdf != "none" {
            // bcrypt_pbkdf, which OpenSSH derives the key's cipher key with,
            // is not in OpenSSL, and mcpack writes no cryptography of its
            // own: the key's public half (in clear in the file) is looked up
            // in ssh-agent, which then signs.
            return try agentKey(publicKey, file: file, why: "is protected with a passphrase (\(kdf), \(cipher)), which mcpack cannot open: OpenSSH's bcrypt_pbkdf is not in OpenSSL")
        }
        if publicKey.type == .skEd25519 || publicKey.type == .skECDSA {
            return try agentKey(publicKey, file: file, why: "is a FIDO key: its private half is on the token, which ssh-agent asks to sign")
        }
        var inner = SSHWire.Reader(secret)
        guard let check1 = inner.uint32(), let check2 = inner.uint32(), check1 == check2 else {
            throw FileError(path: file, message: "the private key is damaged (its check numbers differ)")
        }
        guard let type = inner.text() else { throw FileError(path: file, message: "the private key is cut short or damaged") }
        guard type == publicKey.type.rawValue else {
            throw FileError(path: file, message: "the file's public key is \(publicKey.type.rawValue) and its private key \(type): damaged")
        }
        let (key, stored) = try privateFields(publicKey.type, &inner, file: file)
        guard stored == publicKey, let comment = inner.text() else {
            throw FileError(path: file, message: "the private key is damaged (it does not hold the public key stored with it)")
        }
        // The padding is 1, 2, 3...: anything else is a damaged file.
        let padding = inner.rest()
        guard padding.enumerated().allSatisfy({ Int($1) == $0 + 1 }) else {
            throw FileError(path: file, message: "the private key is damaged (its padding is wrong)")
        }
        return SSHPrivateKey(signer: .local(key), publicKey: publicKey, comment: comment, file: file)
    }

    /// The private fields of an unencrypted key of `type`, and the public
    /// key they hold, to be compared with the file's public half.
    private static func privateFields(_ type: SSHKeyType, _ reader: inout SSHWire.Reader, file: String) throws -> (PrivateKey, SSHPublicKey) {
        let damaged = FileError(path: file, message: "the \(type.rawValue) private key is cut short or damaged")
        do {
            switch type {
            case .ed25519:
                guard let publicKey = reader.bytes(), let pair = reader.bytes(), pair.count == 64, Array(pair[32...]) == publicKey else { throw damaged }
                return (try PrivateKey.ed25519(seed: Array(pair[..<32])), SSHPublicKey(material: .ed25519(publicKey)))
            case .rsa:
                guard let n = reader.mpint(), let e = reader.mpint(), let d = reader.mpint(), let iqmp = reader.mpint(),
                      let p = reader.mpint(), let q = reader.mpint() else { throw damaged }
                let key = try PrivateKey.rsa(modulus: n, publicExponent: e, privateExponent: d, prime1: p, prime2: q, coefficient: iqmp)
                return (key, SSHPublicKey(material: .rsa(exponent: e, modulus: n)))
            case .ecdsaP256, .ecdsaP384, .ecdsaP521:
                guard let curve = reader.text(), curve == type.curveName, let point = reader.bytes(), let scalar = reader.mpint() else { throw damaged }
                return (try PrivateKey.ecdsa(type.curve!, scalar: scalar, point: point), SSHPublicKey(material: .ecdsa(type.curve!, point: point)))
            case .skEd25519, .skECDSA:
                throw damaged  // read through the agent, above
            }
        } catch let error as SigningError {
            throw FileError(path: file, message: "the \(type.rawValue) private key is damaged: \(error.message)")
        }
    }

    /// The key, signed with by the agent at SSH_AUTH_SOCK if it holds it;
    /// else a message saying how to go on.
    private static func agentKey(_ publicKey: SSHPublicKey, file: String, why: String) throws -> SSHPrivateKey {
        let agent = ProcessInfo.processInfo.environment["SSH_AUTH_SOCK"].flatMap { $0.isEmpty ? nil : $0 }
        let holds = try agent.map { try SSHAgent.holds(publicKey.blob, socket: $0) } ?? false
        guard let agent, holds else {
            throw FileError(path: file, message: """
                the key \(why). Add it to ssh-agent (`ssh-add \(file)`; \(agent == nil ? "no agent is running (SSH_AUTH_SOCK is not set)" : "the agent at SSH_AUTH_SOCK does not hold it")) \
                and mcpack signs through the agent; or sign with OpenSSH itself, which writes the same kind of signature: \
                `ssh-keygen -Y sign -n file -f \(file) ARCHIVE`; or use a minisign key (minisign -G), whose password mcpack can take
                """)
        }
        return SSHPrivateKey(signer: .agent(socket: agent), publicKey: publicKey, comment: "", file: file)
    }
}

/// ssh-agent's protocol (draft-miller-ssh-agent): which keys it holds, and
/// a signature by one of them. The agent (or the token behind it) does the
/// cryptography.
enum SSHAgent {
    static let requestIdentities: UInt8 = 11
    static let identitiesAnswer: UInt8 = 12
    static let signRequest: UInt8 = 13
    static let signResponse: UInt8 = 14
    /// SSH_AGENT_RSA_SHA2_512: without it an agent signs RSA with SHA-1.
    static let rsaSHA512: UInt32 = 4

    static func holds(_ blob: [UInt8], socket: String) throws -> Bool {
        let reply = try UnixSocket.exchange(path: socket, message: [requestIdentities])
        var reader = SSHWire.Reader(reply)
        guard reader.take(1) == [identitiesAnswer], let count = reader.uint32() else {
            throw FileError(path: socket, message: "ssh-agent did not list its keys")
        }
        for _ in 0..<count {
            guard let key = reader.bytes(), reader.bytes() != nil else { break }
            if key == blob { return true }
        }
        return false
    }

    /// The signature blob the agent returns, as it is (checked by the caller).
    static func sign(_ message: [UInt8], blob: [UInt8], rsa: Bool, socket: String) throws -> [UInt8] {
        let request = [signRequest] + SSHWire.string(blob) + SSHWire.string(message) + SSHWire.uint32(rsa ? rsaSHA512 : 0)
        let reply = try UnixSocket.exchange(path: socket, message: request)
        var reader = SSHWire.Reader(reply)
        guard reader.take(1) == [signResponse], let signature = reader.bytes() else {
            throw FileError(path: socket, message: "ssh-agent refused to sign (does it still hold the key? ssh-add -l)")
        }
        return signature
    }
}
