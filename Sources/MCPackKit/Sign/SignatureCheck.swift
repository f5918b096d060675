import Foundation
import Hashing
import FileIO
import Signing

/// What verify found of a detached signature beside an archive.
package struct SignatureReport: Sendable, Encodable {
    /// The signature file, `ARCHIVE.minisig` or `ARCHIVE.sig`.
    package var file: String
    /// `minisign` or `sshsig`.
    package var format: String
    /// False when no public key was given: present, not checked.
    package var checked: Bool
    /// True only when checked and good.
    package var valid: Bool
    /// Who signed, when the signature checked: the minisign key ID, or
    /// the SSH identity and key fingerprint.
    package var signer: String?
    /// minisign's trusted comment (bundle, version, the archive's SHA-256).
    package var trustedComment: String?
    /// Every problem found, joined: what the verify report's `signature` rule says.
    package var problem: String?
    /// The same, one a problem.
    package var problems: [String] = []
    /// What the check noticed without failing for it: a legacy minisign
    /// signature, allowed_signers lines skipped as ssh-keygen skips them.
    package var notes: [String] = []

    mutating func refuse(_ found: [String]) {
        problems = found
        problem = found.isEmpty ? nil : found.joined(separator: "; ")
        valid = found.isEmpty
    }
}

/// How `verify --public-key` checks, beyond the keys: ssh-keygen's `-I`,
/// `-Overify-time=` and `-r`, and minisign's `-H`.
package struct SignatureOptions: Sendable {
    /// Whose signature it must be (allowed_signers principals).
    package var identity: String?
    /// Check allowed_signers and certificate validity at this time
    /// (YYYYMMDD[Z] or YYYYMMDDHHMM[SS][Z]) instead of now.
    package var verifyTime: String?
    /// A file of revoked OpenSSH public keys, one a line.
    package var revokedKeys: String?
    /// Refuse legacy minisign signatures (of the whole file, not prehashed).
    package var requirePrehashed: Bool

    package init(identity: String? = nil, verifyTime: String? = nil, revokedKeys: String? = nil, requirePrehashed: Bool = false) {
        (self.identity, self.verifyTime, self.revokedKeys, self.requirePrehashed) = (identity, verifyTime, revokedKeys, requirePrehashed)
    }
}

/// `mcpack verify ARCHIVE --public-key KEY...`: the detached signature
/// beside the archive checked with the keys given (any of them may have
/// signed), before anything else is.
package enum SignatureCheck {
    /// The signature files looked for beside an archive.
    static let suffixes = [(".minisig", "minisign"), (".sig", "sshsig")]

    /// Signatures beside `archive`, reported present and unchecked.
    package static func present(_ path: String) -> [SignatureReport] {
        let archive = trimmed(path)
        return suffixes.compactMap { suffix, format in
            FileManager.default.fileExists(atPath: archive + suffix)
                ? SignatureReport(file: archive + suffix, format: format, checked: false, valid: false) : nil
        }
    }

    /// `publicKeys`: files, or keys' text (a minisign base64 line, an
    /// OpenSSH public key or allowed_signers line). Throws (exit 2) only
    /// when a key or option cannot be read; a missing, damaged or wrong
    /// signature is a report with `valid` false. With keys of both
    /// formats, the signatures present are checked, and one must be.
    package static func check(archive path: String, publicKeys: [String], options: SignatureOptions = SignatureOptions()) throws -> [SignatureReport] {
        let archive = trimmed(path)
        let trusted = try TrustedKeys(publicKeys, options: options)
        var reports: [SignatureReport] = []
        let both = !trusted.minisign.isEmpty && trusted.sshGiven
        if !trusted.minisign.isEmpty, !both || FileManager.default.fileExists(atPath: archive + ".minisig") {
            reports.append(checkMinisign(archive: archive, keys: trusted.minisign, requirePrehashed: options.requirePrehashed))
        }
        if trusted.sshGiven, !both || FileManager.default.fileExists(atPath: archive + ".sig") {
            reports.append(checkSSH(archive: archive, keys: trusted))
        }
        if reports.isEmpty {
            var report = SignatureReport(file: archive + ".minisig", format: "minisign", checked: true, valid: false)
            let name = (archive as NSString).lastPathComponent
            report.refuse(["no signature: neither \(name).minisig nor \(name).sig is there"])
            reports.append(report)
        }
        return reports
    }

    /// A folder given as `bag/` has its signature at `bag.minisig`.
    private static func trimmed(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// The signature file `report` names, read by `read`; nil, with the
    /// report saying why, when it is missing or damaged.
    private static func readSignature<S>(_ report: inout SignatureReport, _ read: (Data, String) throws -> S) -> S? {
        guard let data = FileManager.default.contents(atPath: report.file) else {
            report.refuse(["no signature: \((report.file as NSString).lastPathComponent) is missing"])
            return nil
        }
        do {
            return try read(data, report.file)
        } catch {
            report.refuse(["damaged signature: \((error as? FileError)?.message ?? "\(error)")"])
            return nil
        }
    }

    /// `keys`: any of them may have signed; the one named by the
    /// signature's key ID is checked.
    static func checkMinisign(archive: String, keys: [Minisign.PublicKey], requirePrehashed: Bool) -> SignatureReport {
        var report = SignatureReport(file: archive + ".minisig", format: "minisign", checked: true, valid: false)
        guard let signature = readSignature(&report, Minisign.readSignature) else { return report }
        report.trustedComment = signature.trustedComment
        let legacy = signature.algorithm == Minisign.legacy
        guard legacy || signature.algorithm == Minisign.prehashed else {
            report.refuse(["damaged signature: unknown algorithm"])
            return report
        }
        var problems: [String] = []
        if legacy {
            report.notes.append("a legacy minisign signature (minisign -l: Ed25519 over the whole file, not over its BLAKE2b-512 hash); sign again with minisign 0.8 or later, or refuse such signatures with --require-prehashed")
            if requirePrehashed { problems.append("a legacy signature of the whole file, refused by --require-prehashed (as minisign -H refuses it)") }
        }
        guard let key = keys.first(where: { $0.keyID == signature.keyID }) else {
            let allowed = keys.map(\.idText).joined(separator: " or ")
            report.refuse(problems + ["signed with another key: minisign key \(Minisign.keyIDText(signature.keyID)), not \(allowed)"])
            return report
        }
        switch Minisign.checkFile(archive, signature: signature, key: key) {
        case .success(nil): break
        case .success(let sha256?): problems.append(mismatch(signature.trustedComment, sha256: sha256, archive: archive))
        case .failure(let error): problems.append("cannot read the archive: \(error)")
        }
        if !Ed25519.verify(signature: signature.globalSignature, of: signature.globalMessage, publicKey: key.key) {
            problems.append("the trusted comment was changed after signing (its signature does not match)")
        }
        report.refuse(problems)
        if problems.isEmpty { report.signer = "minisign key \(key.idText)" }
        return report
    }

    /// The SSHSIG beside the archive, checked as `ssh-keygen -Y verify -n
    /// file` checks it: the signature, the revocation list, then the
    /// allowed_signers lines; every problem found is reported.
    static func checkSSH(archive: String, keys: TrustedKeys) -> SignatureReport {
        var report = SignatureReport(file: archive + ".sig", format: "sshsig", checked: true, valid: false)
        report.notes = keys.ssh.skipped
        guard let signature = readSignature(&report, SSHSignature.read) else { return report }
        var problems: [String] = []
        if signature.namespace != SSHSignature.fileNamespace {
            problems.append("a signature for namespace \"\(signature.namespace)\", not \"file\" (ssh-keygen -Y sign -n file)")
        }
        do {
            let digests = try ArchiveDigests(archive, signature.hashAlgorithm)
            switch signature.check(digest: digests.other) {
            case .good: break
            case .mismatch: problems.append("the signature does not match the archive: it was changed after signing, or the signature is of another file")
            case .refused(let why): problems.append("damaged signature: \(why)")
            }
        } catch {
            problems.append("cannot read the archive: \(error)")
        }
        if let revoked = keys.revoked?.revocation(of: signature.signer) { problems.append(revoked) }
        switch keys.ssh.admit(signature.signer, identity: keys.identity, namespace: SSHSignature.fileNamespace, at: keys.time) {
        case .refused(let reasons): problems += reasons
        case .admitted(_, let name):
            var signer = [name, signature.signer.label].compactMap { $0 }.joined(separator: " ")
            if let certificate = signature.signer.certificate {
                signer += " (certificate \"\(certificate.keyID)\" serial \(certificate.serial) by \(certificate.authority.type.rawValue) \(certificate.authority.fingerprint))"
            }
            report.signer = signer
        }
        report.refuse(problems)
        if !problems.isEmpty { report.signer = nil }
        return report
    }

    /// Why a good key's signature fails: the trusted comment names the
    /// archive it was made for, so a signature of another archive says so.
    private static func mismatch(_ comment: String, sha256: String, archive: String) -> String {
        let fields = Dictionary(comment.split(separator: " ").compactMap { field -> (String, String)? in
            let parts = field.split(separator: ":", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }, uniquingKeysWith: { first, _ in first })
        let name = (archive as NSString).lastPathComponent
        if let file = fields["file"], file != name {
            return "the signature is of another archive, \(file)\(fields["sha256"].map { " (SHA-256 \($0.prefix(16))...)" } ?? "")"
        }
        if let signed = fields["sha256"], signed.count == 64, signed != sha256 {
            return "the signature does not match the archive: it was changed after signing (the trusted comment names SHA-256 \(signed.prefix(16))..., this archive's is \(sha256.prefix(16))...)"
        }
        return "the signature does not match the archive: it was changed after signing, or the signature is of another file"
    }
}

/// Every --public-key read once: minisign keys, OpenSSH keys and
/// allowed_signers lines, with the options that bear on them.
struct TrustedKeys {
    var minisign: [Minisign.PublicKey] = []
    var ssh = AllowedSigners()
    /// An OpenSSH key or allowed_signers file was given (even one whose
    /// every line was skipped).
    var sshGiven: Bool { !sshFiles.isEmpty }
    private var sshFiles: [String] = []
    var revoked: RevokedKeys?
    var identity: String?
    /// When allowed_signers lines and certificates are held valid, seconds since 1970.
    var time: UInt64

    init(_ arguments: [String], options: SignatureOptions) throws {
        identity = options.identity
        if let verifyTime = options.verifyTime {
            guard let time = SSHTime.parse(verifyTime) else {
                throw FileError(path: "--verify-time", message: "\(verifyTime) is not a time: YYYYMMDD[Z] or YYYYMMDDHHMM[SS][Z] (local time unless Z), as ssh-keygen -Overify-time takes")
            }
            self.time = time
        } else {
            time = SSHTime.now
        }
        for argument in arguments {
            let (text, name) = try Self.keyText(argument)
            if AllowedSigners.isKeyText(text) {
                try ssh.read(text, file: name)
                sshFiles.append(name)
            } else {
                minisign.append(try Minisign.readPublicKey(text, file: name))
            }
        }
        if let file = options.revokedKeys {
            revoked = try RevokedKeys(try Self.contents(file, option: "--revoked-keys"), file: file)
        }
        if sshFiles.isEmpty, options.identity != nil || options.verifyTime != nil || options.revokedKeys != nil {
            throw FileError(path: "--public-key", message: "--identity, --verify-time and --revoked-keys bear on OpenSSH signatures, and no OpenSSH key was given")
        }
        if let identity, !ssh.signers.isEmpty, ssh.candidates(for: identity).isEmpty {
            let named = ssh.signers.compactMap(\.principals)
            throw FileError(path: sshFiles.joined(separator: ", "), message: "the identity \(identity) is not among this key's principals (\(named.joined(separator: "; ")))")
        }
    }

    /// A path that names no file is reported as one, not parsed as a key:
    /// only text that starts as a key does (minisign's base64 begins RW).
    private static func keyText(_ argument: String) throws -> (String, String) {
        if FileManager.default.fileExists(atPath: argument) {
            return (String(decoding: try contents(argument, option: "--public-key"), as: UTF8.self), argument)
        }
        guard argument.hasPrefix("RW") || AllowedSigners.isKeyText(argument) else {
            throw FileError(path: argument, message: "--public-key: no such file (nor a key's text: a minisign base64 line or an OpenSSH public key)")
        }
        return (argument, "--public-key")
    }

    private static func contents(_ file: String, option: String) throws -> Data {
        var data = Data()
        do {
            try FileChunks.read(file) { data.append(contentsOf: $0) }
        } catch let error as FileError {
            throw FileError(path: file, message: "\(option): cannot read it: \(error.message)")
        }
        return data
    }
}

/// Which file a path named, and its size and time, at one moment: a
/// signature is checked on one read of an archive and the bag on another,
/// so verify compares a snapshot from before the first with one from after
/// the second, and an archive replaced or rewritten in between fails.
package struct FileSnapshot: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: UInt64
    let modified: Date

    package init?(_ path: String) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let device = (attributes[.systemNumber] as? NSNumber)?.uint64Value,
              let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value,
              let size = (attributes[.size] as? NSNumber)?.uint64Value,
              let modified = attributes[.modificationDate] as? Date else { return nil }
        (self.device, self.inode, self.size, self.modified) = (device, inode, size, modified)
    }
}

extension SignatureReport {
    /// This report, failed, when the archive is not the file it was when
    /// the signature was checked.
    package func failed(ifChangedSince before: FileSnapshot?, archive: String) -> SignatureReport {
        guard checked else { return self }
        if let before, FileSnapshot(archive) == before { return self }
        var failed = self
        failed.valid = false
        failed.problem = "the archive changed while it was being verified, so the signature was checked against other bytes than the bag; verify again"
        return failed
    }
}
