import FileIO
import Foundation

/// Whether the allowed_signers lines let a key sign, as sshsig.c's
/// check_allowed_keys_line decides it line by line.
enum Admission: Equatable {
    /// The line that let it, and the name to report the signer by.
    case admitted(line: String, name: String?)
    /// Why every line about this key refused it, each naming its line.
    case refused([String])
}

extension AllowedSigners {
    /// The lines that may speak for `identity`, as `ssh-keygen -Y verify
    /// -I` chooses them (every line when no identity is given); a .pub
    /// line has no principals and takes the identity as given.
    func candidates(for identity: String?) -> [AllowedSigner] {
        signers.filter { signer in
            guard let identity, let principals = signer.principals else { return true }
            return SSHPattern.matchesList(identity, principals)
        }
    }

    func admit(_ key: SSHKey, identity: String?, namespace: String, at time: UInt64) -> Admission {
        let lines = candidates(for: identity)
        var reasons: [String] = []
        for signer in lines {
            switch signer.verdict(for: key, identity: identity, namespace: namespace, at: time) {
            case .notThisKey: continue
            case .admitted(let name): return .admitted(line: signer.place, name: name)
            case .refused(let why): reasons.append("\(signer.place): \(why)")
            }
        }
        if signers.isEmpty {
            reasons = ["no allowed_signers line is left to admit any key: each was skipped (see the notes)"]
        } else if reasons.isEmpty {
            var allowed: [String] = []
            for signer in lines where !allowed.contains(signer.key.label) { allowed.append(signer.key.label) }
            let who = identity.map { " for \($0)" } ?? ""
            reasons = ["signed with another key: \(key.label), not one allowed\(who) (\(allowed.joined(separator: "; ")))"]
        }
        return .refused(reasons)
    }
}

extension AllowedSigner {
    enum Verdict: Equatable {
        case notThisKey
        case admitted(name: String?)
        case refused(String)
    }

    /// This line's word on `key`: the key itself, or a certificate by this
    /// line's authority; then the namespace and the line's validity.
    func verdict(for key: SSHKey, identity: String?, namespace: String, at time: UInt64) -> Verdict {
        var name: String?
        if !options.certificateAuthority {
            guard key.same(as: self.key) else { return .notThisKey }
            // A pattern names no one: then only the key is printed.
            name = identity ?? principals.flatMap { $0.contains(where: { "*?!".contains($0) }) ? nil : $0 } ?? comment
        } else {
            guard let certificate = key.certificate, certificate.authority == self.key.publicKey else { return .notThisKey }
            if let why = certificate.refusal(at: time, principal: identity) {
                return .refused("\(why) (certificate \"\(certificate.keyID)\" by this line's cert-authority)")
            }
            if let identity {
                name = identity
            } else {
                // cert_filter_principals: the certificate's principals this line's patterns match.
                let patterns = (principals ?? "").split(separator: ",", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
                let named = certificate.principals.filter { principal in patterns.contains { SSHPattern.matches(principal, String($0)) } }
                guard !named.isEmpty else {
                    return .refused("the certificate is for \(certificate.principals.joined(separator: ",")), which \(principals ?? "") does not match")
                }
                name = named.joined(separator: ",")
            }
        }
        if let namespaces = options.namespaces, !SSHPattern.matchesList(namespace, namespaces) {
            return .refused("the key is allowed for namespaces=\"\(namespaces)\", not \"\(namespace)\"")
        }
        if let after = options.validAfter, time < after {
            return .refused("the key is not valid until \(SSHTime.text(after)) (valid-after); checked at \(SSHTime.text(time))")
        }
        if let before = options.validBefore, time > before {
            return .refused("the key expired at \(SSHTime.text(before)) (valid-before); checked at \(SSHTime.text(time))")
        }
        return .admitted(name: name)
    }
}

/// A revocation list as `ssh-keygen -Y verify -r` takes one that is not a
/// KRL: public keys, one a line. A key is revoked when it is listed, or
/// when it is a certificate whose authority is.
struct RevokedKeys: Sendable {
    var file: String
    var keys: [(line: Int, key: SSHPublicKey)] = []

    init(_ data: Data, file: String) throws {
        self.file = file
        // OpenSSH's binary Key Revocation Lists are not read: refused
        // whole, so that one is never taken for an empty list.
        guard !data.starts(with: Array("SSHKRL\n".utf8) + [0]) else {
            throw FileError(path: file, message: "a binary KRL (ssh-keygen -k), which mcpack does not read: list the revoked public keys, one a line")
        }
        for (index, raw) in String(decoding: data, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.first == "#" || line.first == "\r" { continue }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard fields.count >= 2 else { throw FileError(path: "\(file) line \(index + 1)", message: "not an OpenSSH public key") }
            do {
                keys.append((index + 1, try SSHKey.read(type: fields[0], base64: fields[1]).publicKey))
            } catch {
                // A DSA key cannot have made a signature mcpack accepts.
                if error.unsupported { continue }
                throw FileError(path: "\(file) line \(index + 1)", message: error.message)
            }
        }
    }

    /// Why `key` is revoked, nil when it is not.
    func revocation(of key: SSHKey) -> String? {
        if let listed = keys.first(where: { $0.key == key.publicKey }) {
            return "the key \(key.fingerprint) is revoked (\(file) line \(listed.line))"
        }
        if let authority = key.certificate?.authority, let listed = keys.first(where: { $0.key == authority }) {
            return "the certificate's authority \(authority.fingerprint) is revoked (\(file) line \(listed.line))"
        }
        return nil
    }
}
