import FileIO
import Foundation
import Hashing
import Signing

/// OpenSSH's files for signing (PROTOCOL.key, PROTOCOL.sshsig): an
/// unencrypted openssh-key-v1 Ed25519 private key, a public key or an
/// allowed_signers line, and an SSHSIG signature armored as `ssh-keygen -Y
/// sign` writes it.
enum SSHSignature {
    static let namespace = "file"
    static let keyType = "ssh-ed25519"

    static func isPrivateKey(_ text: String) -> Bool { text.contains("-----BEGIN OPENSSH PRIVATE KEY-----") }

    struct PrivateKey {
        /// Who signs: OpenSSL with the key read from the file, or the
        /// ssh-agent holding a key whose file has a passphrase.
        enum Signer {
            case local(Ed25519PrivateKey)
            case agent(socket: String)
        }

        var signer: Signer
        var publicKey: [UInt8]
        var comment: String
        var publicBlob: [UInt8] { SSHWire.blob(publicKey: publicKey) }

        func sign(_ message: [UInt8]) throws -> [UInt8] {
            switch signer {
            case .local(let key): return try key.sign(message)
            case .agent(let socket): return try SSHAgent.sign(message, blob: publicBlob, socket: socket, publicKey: publicKey)
            }
        }
    }

    static func readPrivateKey(_ text: String, file: String) throws -> PrivateKey {
        guard let body = armored(text, "OPENSSH PRIVATE KEY") else {
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
        if cipher != "none" || kdf != "none" {
            // bcrypt_pbkdf, which OpenSSH derives the key's cipher key with,
            // is not in OpenSSL, and mcpack writes no cryptography of its
            // own: the key's public half (in clear in the file) is looked up
            // in ssh-agent, which then signs.
            var blob = SSHWire.Reader(publicBlob)
            guard blob.text() == keyType, let publicKey = blob.bytes(), publicKey.count == 32 else {
                throw FileError(path: file, message: "mcpack signs with Ed25519 keys only (ssh-keygen -t ed25519)")
            }
            let agent = ProcessInfo.processInfo.environment["SSH_AUTH_SOCK"].flatMap { $0.isEmpty ? nil : $0 }
            let holds = try agent.map { try SSHAgent.holds(publicBlob, socket: $0) } ?? false
            guard let agent, holds else {
                throw FileError(path: file, message: """
                    the key is protected with a passphrase (\(kdf), \(cipher)), which mcpack cannot open: OpenSSH's bcrypt_pbkdf \
                    is not in OpenSSL. Add it to ssh-agent (`ssh-add \(file)`; \(agent == nil ? "no agent is running (SSH_AUTH_SOCK is not set)" : "the agent at SSH_AUTH_SOCK does not hold it")) \
                    and mcpack signs through the agent; or sign with OpenSSH itself, which writes the same signature: \
                    `ssh-keygen -Y sign -n file -f \(file) ARCHIVE`; or use a minisign key (minisign -G), whose password mcpack can take
                    """)
            }
            return PrivateKey(signer: .agent(socket: agent), publicKey: publicKey, comment: "")
        }
        var inner = SSHWire.Reader(secret)
        guard let check1 = inner.uint32(), let check2 = inner.uint32(), check1 == check2 else {
            throw FileError(path: file, message: "the private key is damaged (its check numbers differ)")
        }
        guard let type = inner.text() else { throw FileError(path: file, message: "the private key is cut short or damaged") }
        guard type == keyType else {
            throw FileError(path: file, message: "a \(type) key: mcpack signs with Ed25519 keys only (ssh-keygen -t ed25519)")
        }
        guard let publicKey = inner.bytes(), publicKey.count == 32, let pair = inner.bytes(), pair.count == 64, let comment = inner.text() else {
            throw FileError(path: file, message: "the Ed25519 key is cut short or damaged")
        }
        let key = try Ed25519PrivateKey(seed: Array(pair[0..<32]))
        guard key.publicKey == publicKey, Array(pair[32..<64]) == publicKey else {
            throw FileError(path: file, message: "the key is damaged (its seed does not give the public key stored with it)")
        }
        return PrivateKey(signer: .local(key), publicKey: publicKey, comment: comment)
    }

    /// A public key (`ssh-ed25519 AAAA... comment`, as in a .pub file) or an
    /// allowed_signers line (`principals [options] ssh-ed25519 AAAA...`).
    /// `identity`: the key's comment for a .pub line; for an allowed_signers
    /// line, the identity it was chosen for (set by `chooseSigner`).
    struct PublicKey {
        var key: [UInt8]
        var identity: String?
        var blob: [UInt8] { SSHWire.blob(publicKey: key) }
        var fingerprint: String { SSHWire.fingerprint(blob) }
    }

    /// One non-comment line of a key file.
    struct KeyLine {
        var number: Int
        /// The allowed_signers principals (comma-separated patterns); nil for a .pub line.
        var principals: String?
        var options: [String]
        var key: PublicKey
    }

    /// The allowed_signers options; mcpack honours none of them, so a line
    /// carrying one is refused rather than read as if it were not there.
    static let unhonouredOptions = ["namespaces=", "valid-before=", "valid-after=", "cert-authority"]

    static func isPublicKey(_ text: String) -> Bool {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0.isNewline }).contains { $0.hasPrefix("ssh-") || $0.hasPrefix("ecdsa-") || $0.hasPrefix("sk-") }
    }

    /// Every key line of a .pub or allowed_signers text.
    static func readKeyLines(_ text: String, file: String) throws -> [KeyLine] {
        var lines: [KeyLine] = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let place = "\(file) line \(index + 1)"
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let at = fields.firstIndex(where: { $0.hasPrefix("ssh-") || $0.hasPrefix("ecdsa-") || $0.hasPrefix("sk-") }), at + 1 < fields.count else {
                throw FileError(path: place, message: "not an OpenSSH public key or allowed_signers line")
            }
            guard fields[at] == keyType else { throw FileError(path: place, message: "a \(fields[at]) key: mcpack checks Ed25519 signatures only") }
            guard let blob = Data(base64Encoded: fields[at + 1]) else { throw FileError(path: place, message: "the key's base64 is damaged") }
            var reader = SSHWire.Reader([UInt8](blob))
            guard reader.text() == keyType, let key = reader.bytes(), key.count == 32, reader.atEnd else {
                throw FileError(path: place, message: "the Ed25519 key is damaged")
            }
            let comment = at + 2 < fields.count ? fields[(at + 2)...].joined(separator: " ") : nil
            lines.append(KeyLine(number: index + 1, principals: at > 0 ? fields[0] : nil,
                                 options: at > 1 ? Array(fields[1..<at]) : [],
                                 key: PublicKey(key: key, identity: at > 0 ? nil : comment)))
        }
        guard !lines.isEmpty else { throw FileError(path: file, message: "not an OpenSSH public key or allowed_signers line") }
        return lines
    }

    /// The keys that may have signed for `identity`, as `ssh-keygen -Y
    /// verify -I` chooses them: the allowed_signers lines whose principals
    /// match it (patterns as ssh's match_pattern_list: `*`, `?`, `!`
    /// negation). Without an identity, one line must be all there is. A
    /// .pub line has no principals: the identity is taken as given.
    static func chooseSigners(_ lines: [KeyLine], identity: String?, file: String) throws -> [PublicKey] {
        guard let identity else {
            guard lines.count == 1, var key = lines.first.map(\.key) else {
                throw FileError(path: file, message: "\(lines.count) keys: pass --identity to say whose signature to check")
            }
            if let principals = lines[0].principals {
                try refuseOptions(lines[0], file: file)
                // A pattern names no one: then only the fingerprint is printed.
                key.identity = principals.contains(where: { "*?!".contains($0) }) ? nil : principals
            }
            return [key]
        }
        var chosen: [PublicKey] = []
        for line in lines {
            if let principals = line.principals, !matches(identity, principals) { continue }
            try refuseOptions(line, file: file)
            var key = line.key
            key.identity = identity
            chosen.append(key)
        }
        guard !chosen.isEmpty else {
            let named = lines.compactMap(\.principals)
            throw FileError(path: file, message: "the identity \(identity) is not among this key's principals (\(named.joined(separator: "; ")))")
        }
        return chosen
    }

    static func matches(_ identity: String, _ principals: String) -> Bool {
        var positive = false
        for pattern in principals.split(separator: ",").map(String.init) {
            let negated = pattern.hasPrefix("!")
            guard Wildcard.matches(identity, pattern: negated ? String(pattern.dropFirst()) : pattern) else { continue }
            if negated { return false }
            positive = true
        }
        return positive
    }

    private static func refuseOptions(_ line: KeyLine, file: String) throws {
        guard !line.options.isEmpty else { return }
        throw FileError(path: "\(file) line \(line.number)", message:
            "options \(line.options.joined(separator: " ")): mcpack honours no allowed_signers option (\(unhonouredOptions.joined(separator: ", "))); check this signature with ssh-keygen -Y verify, or remove them")
    }

    /// The message SSHSIG signs: the preamble, namespace, reserved field,
    /// hash name and the file's digest.
    static func signedData(hashAlgorithm: String, digest: [UInt8]) -> [UInt8] {
        Array("SSHSIG".utf8) + SSHWire.string(Array(namespace.utf8)) + SSHWire.string([])
            + SSHWire.string(Array(hashAlgorithm.utf8)) + SSHWire.string(digest)
    }

    /// The armored signature ssh-keygen writes for the same key and file
    /// (byte for byte: Ed25519 is deterministic, and SHA-512 its default).
    static func signature(sha512: [UInt8], key: PrivateKey) throws -> String {
        let signature = try key.sign(signedData(hashAlgorithm: "sha512", digest: sha512))
        let blob = Array("SSHSIG".utf8) + SSHWire.uint32(1) + SSHWire.string(key.publicBlob)
            + SSHWire.string(Array(namespace.utf8)) + SSHWire.string([]) + SSHWire.string(Array("sha512".utf8))
            + SSHWire.string(SSHWire.string(Array(keyType.utf8)) + SSHWire.string(signature))
        let base64 = Data(blob).base64EncodedString()
        var lines: [String] = []
        var rest = Substring(base64)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(70)))
            rest = rest.dropFirst(70)
        }
        return "-----BEGIN SSH SIGNATURE-----\n" + lines.joined(separator: "\n") + "\n-----END SSH SIGNATURE-----\n"
    }

    struct Signature {
        var publicBlob: [UInt8]
        var namespace: String
        var hashAlgorithm: String
        var keyType: String
        var signature: [UInt8]
    }

    static func readSignature(_ data: Data, file: String) throws -> Signature {
        let text = String(decoding: data, as: UTF8.self)
        guard text.contains("-----BEGIN SSH SIGNATURE-----") else { throw FileError(path: file, message: "not an SSH signature (no BEGIN SSH SIGNATURE line)") }
        guard text.contains("-----END SSH SIGNATURE-----") else { throw FileError(path: file, message: "the signature is cut short (no END SSH SIGNATURE line)") }
        guard let body = armored(text, "SSH SIGNATURE") else { throw FileError(path: file, message: "the signature's base64 is damaged") }
        var reader = SSHWire.Reader(body)
        guard reader.take(6) == Array("SSHSIG".utf8) else { throw FileError(path: file, message: "not an SSHSIG signature") }
        guard let version = reader.uint32(), let publicBlob = reader.bytes(), let namespace = reader.text(),
              reader.bytes() != nil, let hash = reader.text(), let wrapped = reader.bytes() else {
            throw FileError(path: file, message: "the signature is cut short or damaged")
        }
        guard version == 1 else { throw FileError(path: file, message: "SSHSIG version \(version); mcpack reads version 1") }
        var inner = SSHWire.Reader(wrapped)
        guard let type = inner.text(), let signature = inner.bytes() else { throw FileError(path: file, message: "the signature is cut short or damaged") }
        return Signature(publicBlob: publicBlob, namespace: namespace, hashAlgorithm: hash, keyType: type, signature: signature)
    }

    private static func armored(_ text: String, _ label: String) -> [UInt8]? {
        guard let begin = text.range(of: "-----BEGIN \(label)-----"), let end = text.range(of: "-----END \(label)-----"),
              begin.upperBound <= end.lowerBound else { return nil }
        let base64 = text[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
        return Data(base64Encoded: String(base64)).map { [UInt8]($0) }
    }
}

/// SSH's wire encoding (RFC 4251 §5): big-endian uint32, length-prefixed strings.
enum SSHWire {
    static func uint32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func string(_ bytes: [UInt8]) -> [UInt8] { uint32(UInt32(bytes.count)) + bytes }

    static func blob(publicKey: [UInt8]) -> [UInt8] { string(Array("ssh-ed25519".utf8)) + string(publicKey) }

    /// `SHA256:` and the unpadded base64 of the key blob's SHA-256, as
    /// ssh-keygen -l prints it.
    static func fingerprint(_ blob: [UInt8]) -> String {
        let digest = (try? Digest.bytes(of: blob, .sha256)) ?? []
        return "SHA256:" + Data(digest).base64EncodedString().replacingOccurrences(of: "=", with: "")
    }

    struct Reader {
        private let data: [UInt8]
        private var at = 0
        init(_ bytes: [UInt8]) { data = bytes }

        var atEnd: Bool { at == data.count }

        mutating func take(_ count: Int) -> [UInt8]? {
            guard count >= 0, data.count - at >= count else { return nil }
            defer { at += count }
            return Array(data[at..<at + count])
        }

        mutating func uint32() -> UInt32? {
            take(4).map { $0.reduce(0) { $0 << 8 | UInt32($1) } }
        }

        mutating func bytes() -> [UInt8]? {
            guard let length = uint32(), length <= 1 << 24 else { return nil }
            return take(Int(length))
        }

        mutating func text() -> String? { bytes().map { String(decoding: $0, as: UTF8.self) } }
    }
}

/// ssh-agent's protocol (draft-miller-ssh-agent): which keys it holds, and
/// a signature by one of them. The agent does the cryptography.
enum SSHAgent {
    static let requestIdentities: UInt8 = 11
    static let identitiesAnswer: UInt8 = 12
    static let signRequest: UInt8 = 13
    static let signResponse: UInt8 = 14

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

    static func sign(_ message: [UInt8], blob: [UInt8], socket: String, publicKey: [UInt8]) throws -> [UInt8] {
        let reply = try UnixSocket.exchange(path: socket, message: [signRequest] + SSHWire.string(blob) + SSHWire.string(message) + SSHWire.uint32(0))
        var reader = SSHWire.Reader(reply)
        guard reader.take(1) == [signResponse], let wrapped = reader.bytes() else {
            throw FileError(path: socket, message: "ssh-agent refused to sign (does it still hold the key? ssh-add -l)")
        }
        var inner = SSHWire.Reader(wrapped)
        guard inner.text() == SSHSignature.keyType, let signature = inner.bytes(),
              Ed25519.verify(signature: signature, of: message, publicKey: publicKey) else {
            throw FileError(path: socket, message: "ssh-agent's signature does not check with the key's public half")
        }
        return signature
    }
}
