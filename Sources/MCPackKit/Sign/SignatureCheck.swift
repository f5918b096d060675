import Foundation
import Hashing
import FileIO
import Signing

/// What verify found of a detached signature beside an archive.
public struct SignatureReport: Sendable, Encodable {
    /// The signature file, `ARCHIVE.minisig` or `ARCHIVE.sig`.
    public var file: String
    /// `minisign` or `sshsig`.
    public var format: String
    /// False when no public key was given: present, not checked.
    public var checked: Bool
    /// True only when checked and good.
    public var valid: Bool
    /// Who signed, when the signature checked: the minisign key ID, or
    /// the SSH identity and key fingerprint.
    public var signer: String?
    /// minisign's trusted comment (bundle, version, the archive's SHA-256).
    public var trustedComment: String?
    /// What went wrong, when it did.
    public var problem: String?
}

/// `mcpack verify ARCHIVE --public-key KEY`: the detached signature beside
/// the archive checked with the key given, before anything else is.
public enum SignatureCheck {
    /// The signature files looked for beside an archive.
    static let suffixes = [(".minisig", "minisign"), (".sig", "sshsig")]

    /// Signatures beside `archive`, reported present and unchecked.
    public static func present(_ path: String) -> [SignatureReport] {
        let archive = trimmed(path)
        return suffixes.compactMap { suffix, format in
            FileManager.default.fileExists(atPath: archive + suffix)
                ? SignatureReport(file: archive + suffix, format: format, checked: false, valid: false) : nil
        }
    }

    /// `publicKey`: a file, or the key itself (a minisign base64 line, an
    /// OpenSSH public key or allowed_signers line). `identity`: who the SSH
    /// key belongs to, when the key text does not say. Throws (exit 2) only
    /// when the key cannot be read; a missing, damaged or wrong signature
    /// is a report with `valid` false.
    public static func check(archive path: String, publicKey: String, identity: String? = nil) throws -> SignatureReport {
        let archive = trimmed(path)
        let (keyText, keyName) = try keyText(publicKey)
        if SSHSignature.isPublicKey(keyText) {
            let lines = try SSHSignature.readKeyLines(keyText, file: keyName)
            return checkSSH(archive: archive, keys: try SSHSignature.chooseSigners(lines, identity: identity, file: keyName))
        }
        let key = try Minisign.readPublicKey(keyText, file: keyName)
        return checkMinisign(archive: archive, key: key)
    }

    /// A folder given as `bag/` has its signature at `bag.minisig`.
    private static func trimmed(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// A path that names no file is reported as one, not parsed as a key:
    /// only text that starts as a key does (minisign's base64 begins RW).
    private static func keyText(_ argument: String) throws -> (String, String) {
        if FileManager.default.fileExists(atPath: argument) {
            var data = Data()
            do {
                try FileChunks.read(argument) { data.append(contentsOf: $0) }
            } catch let error as FileError {
                throw FileError(path: argument, message: "--public-key: cannot read it: \(error.message)")
            }
            return (String(decoding: data, as: UTF8.self), argument)
        }
        guard argument.hasPrefix("RW") || SSHSignature.isPublicKey(argument) else {
            throw FileError(path: argument, message: "--public-key: no such file (nor a key's text: a minisign base64 line or an OpenSSH public key)")
        }
        return (argument, "--public-key")
    }

    /// The signature file `report` names, read by `read`; nil, with the
    /// report saying why, when it is missing or damaged.
    private static func readSignature<S>(_ report: inout SignatureReport, _ read: (Data, String) throws -> S) -> S? {
        guard let data = FileManager.default.contents(atPath: report.file) else {
            report.problem = "no signature: \((report.file as NSString).lastPathComponent) is missing"
            return nil
        }
        do {
            return try read(data, report.file)
        } catch {
            report.problem = "damaged signature: \((error as? FileError)?.message ?? "\(error)")"
            return nil
        }
    }

    static func checkMinisign(archive: String, key: Minisign.PublicKey) -> SignatureReport {
        var report = SignatureReport(file: archive + ".minisig", format: "minisign", checked: true, valid: false)
        guard let signature = readSignature(&report, Minisign.readSignature) else { return report }
        report.trustedComment = signature.trustedComment
        guard signature.algorithm == Minisign.prehashed else {
            report.problem = signature.algorithm == Minisign.keyAlgorithm
                ? "a legacy minisign signature of the whole file, which mcpack does not check: sign again with minisign 0.8 or later"
                : "damaged signature: unknown algorithm"
            return report
        }
        guard signature.keyID == key.keyID else {
            report.problem = "signed with another key: minisign key \(Minisign.keyIDText(signature.keyID)), not \(key.idText)"
            return report
        }
        let digests: ArchiveDigests
        do {
            digests = try ArchiveDigests(archive, .blake2b512)
        } catch {
            report.problem = "cannot read the archive: \(error)"
            return report
        }
        guard Ed25519.verify(signature: signature.signature, of: digests.other, publicKey: key.key) else {
            report.problem = mismatch(signature.trustedComment, sha256: digests.sha256, archive: archive)
            return report
        }
        guard Ed25519.verify(signature: signature.globalSignature, of: signature.signature + Array(signature.trustedComment.utf8), publicKey: key.key) else {
            report.problem = "the trusted comment was changed after signing (its signature does not match)"
            return report
        }
        report.valid = true
        report.signer = "minisign key \(key.idText)"
        return report
    }

    /// `keys`: those allowed to have signed (one identity may have several);
    /// the one whose key made the signature is checked.
    static func checkSSH(archive: String, keys: [SSHSignature.PublicKey]) -> SignatureReport {
        var report = SignatureReport(file: archive + ".sig", format: "sshsig", checked: true, valid: false)
        guard let signature = readSignature(&report, SSHSignature.readSignature) else { return report }
        guard let key = keys.first(where: { $0.blob == signature.publicBlob }) else {
            report.problem = "signed with another key: \(SSHWire.fingerprint(signature.publicBlob)), not \(keys.map(\.fingerprint).joined(separator: " or "))"
            return report
        }
        guard signature.namespace == SSHSignature.namespace else {
            report.problem = "a signature for namespace \"\(signature.namespace)\", not \"file\" (ssh-keygen -Y sign -n file)"
            return report
        }
        guard signature.keyType == SSHSignature.keyType else {
            report.problem = "damaged signature: a \(signature.keyType) signature from an Ed25519 key"
            return report
        }
        let algorithm: PrehashAlgorithm
        switch signature.hashAlgorithm {
        case "sha512": algorithm = .sha512
        case "sha256": algorithm = .sha256
        default:
            report.problem = "damaged signature: unknown hash \(signature.hashAlgorithm)"
            return report
        }
        let digests: ArchiveDigests
        do {
            digests = try ArchiveDigests(archive, algorithm)
        } catch {
            report.problem = "cannot read the archive: \(error)"
            return report
        }
        guard Ed25519.verify(signature: signature.signature, of: SSHSignature.signedData(hashAlgorithm: signature.hashAlgorithm, digest: digests.other),
                             publicKey: key.key) else {
            report.problem = "the signature does not match the archive: it was changed after signing, or the signature is of another file"
            return report
        }
        report.valid = true
        report.signer = [key.identity, "ssh-ed25519 \(key.fingerprint)"].compactMap { $0 }.joined(separator: " ")
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

/// Which file a path named, and its size and time, at one moment: a
/// signature is checked on one read of an archive and the bag on another,
/// so verify compares a snapshot from before the first with one from after
/// the second, and an archive replaced or rewritten in between fails.
public struct FileSnapshot: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: UInt64
    let modified: Date

    public init?(_ path: String) {
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
    public func failed(ifChangedSince before: FileSnapshot?, archive: String) -> SignatureReport {
        guard checked else { return self }
        if let before, FileSnapshot(archive) == before { return self }
        var failed = self
        failed.valid = false
        failed.problem = "the archive changed while it was being verified, so the signature was checked against other bytes than the bag; verify again"
        return failed
    }
}
