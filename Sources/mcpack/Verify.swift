import MCPackInputs
import ArgumentParser
import Foundation
import MCPackKit

struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check an archive, an unpacked bag, or (with no argument) the project, before handover.",
        discussion: """
            With ARCHIVE (a zip, tar, tar.gz or tar.zst, or an unpacked bag folder): \
            streams it once, never unpacking to disk, and checks safety (absolute or .. \
            paths, links, devices, duplicate entries, bad names, more than one top folder, \
            size, count and compression-ratio limits), BagIt validity (bagit.txt, every \
            manifest line, completeness, every checksum, Payload-Oxum), the <archive>.sha256 \
            beside it, and, for bundles mcpack made, that tiles, icons, categories and \
            clauses agree, that every launch screen is there at its size, that the \
            icons, category icons, launch layers and a tile of each level are 8-bit sRGB, \
            and that the preview page refers only to files in the bag and shows the \
            clauses and categories of clauses.json and categories.json.

            With no argument, in a project: checks every input as build does, then \
            verifies this version's archive and says which inputs changed since it was built.

            A bag with a fetch.txt whose files are not all present is incomplete: an \
            error, or with --allow-fetch a warning.

            With --public-key, the signature beside the archive (ARCHIVE.minisig for a \
            minisign key, ARCHIVE.sig for an OpenSSH key) is checked first: who signed \
            and the trusted comment are printed, and a missing, damaged or mismatched \
            signature is a problem (rule `signature`), every reason listed. --public-key \
            may be given more than once: any of the keys may have signed. OpenSSH \
            signatures by ssh-ed25519, ssh-rsa (rsa-sha2-256/512; SHA-1 refused), \
            ecdsa-sha2-nistp256/384/521 and FIDO sk- keys are checked as \
            `ssh-keygen -Y verify -n file` checks them, allowed_signers read as it \
            reads them (cert-authority, namespaces=, valid-after=, valid-before=; a \
            line with an unknown option is skipped and named); a FIDO signature must \
            show the token was touched. Legacy minisign signatures (minisign -l) are \
            checked, and noted, unless --require-prehashed. Without --public-key, a \
            signature beside the archive is reported as present, not checked.

            For a bundle mcpack made, the name and version its file name states \
            (NAME-VERSION.zip; a name like `delivery (1).zip` states neither, and is \
            noted), bag-info.txt (Bundle-Name, Bundle-Version), data/bundle.json, the \
            top folder and a good minisign signature's trusted comment must agree, and \
            match --expect-version and --expect-name when given: rule `version`. (An \
            OpenSSH signature states no version: it covers the bag-info.txt and \
            bundle.json compared.) With \
            --profile, the bag is also checked against that BagIt profile (rules \
            `profile-...`).

            Prints every problem as `entry: rule: message`, with the RFC 8493 section \
            of BagIt rules. Exit 0 valid (warnings allowed, unless --strict), 1 problems \
            found, 2 could not verify.
            """)

    @Argument(help: ArgumentHelp("An archive or an unpacked bag folder. Omit to verify the project.", valueName: "archive"))
    var archive: String?

    @OptionGroup var project: ProjectOptions

    // ArgumentParser shows no default for a transformed option: the help gives it.
    @Option(name: .customLong("max-bytes"), help: "Refuse an archive that unpacks to more bytes than this. (default: \(VerifyLimits().maxTotalBytes))",
            transform: positive("a whole number of bytes", example: "8589934592"))
    var maxBytes: Int64 = VerifyLimits().maxTotalBytes

    @Option(name: .customLong("max-entry-bytes"), help: "Refuse an entry larger than this many bytes. (default: \(VerifyLimits().maxEntryBytes))",
            transform: positive("a whole number of bytes", example: "2147483648"))
    var maxEntryBytes: Int64 = VerifyLimits().maxEntryBytes

    @Option(name: .customLong("max-entries"), help: "Refuse an archive with more entries than this. (default: \(VerifyLimits().maxEntries))",
            transform: positive("a whole number", example: "1000000"))
    var maxEntries: Int = VerifyLimits().maxEntries

    @Option(name: .customLong("max-ratio"), help: "Refuse an archive that unpacks to more than this many times its size. (default: \(VerifyLimits().maxRatio))",
            transform: positive("a number", example: "200 or 12.5"))
    var maxRatio: Double = VerifyLimits().maxRatio

    @Flag(name: .customLong("allow-fetch"), help: "Accept a bag whose fetch.txt names files not yet in it (a warning, not a problem): they come later.")
    var allowFetch = false

    @Option(name: .customLong("public-key"), help: ArgumentHelp(
        "Check the signature beside the archive first: a minisign public key (file or its base64 line) checks ARCHIVE.minisig; an OpenSSH public key, allowed_signers file or line checks ARCHIVE.sig. Give it more than once to accept any of several keys.",
        valueName: "key"))
    var publicKeys: [String] = []

    @Option(name: .long, help: ArgumentHelp("Who signed, for an OpenSSH key: only the allowed_signers lines whose principals match it may admit the signature, as ssh-keygen -Y verify -I chooses them; or names a .pub key's owner. Without it, any line may.", valueName: "name"))
    var identity: String?

    @Option(name: .customLong("verify-time"), help: ArgumentHelp("Hold allowed_signers valid-after/valid-before and certificates against this time instead of now: YYYYMMDD[Z] or YYYYMMDDHHMM[SS][Z], local time unless Z (ssh-keygen -Overify-time=).", valueName: "time"))
    var verifyTime: String?

    @Option(name: .customLong("revoked-keys"), help: ArgumentHelp("Refuse an OpenSSH signature by a key listed in this file, or by a certificate whose authority is listed: public keys, one a line (ssh-keygen -Y verify -r; binary KRLs are not read).", valueName: "file"))
    var revokedKeys: String?

    @Flag(name: .customLong("require-prehashed"), help: "Refuse legacy minisign signatures of the whole file (minisign -l), as minisign -H does.")
    var requirePrehashed = false

    @Option(name: .customLong("expect-version"), help: ArgumentHelp(
        "The version you asked for: an archive whose file name, bag-info.txt, bundle.json, top folder or signed trusted comment states another is a problem (rule `version`).",
        valueName: "version"), transform: expectedVersion)
    var expectVersion: String?

    @Option(name: .customLong("expect-name"), help: ArgumentHelp(
        "The bundle you asked for: an archive that states another bundle name is a problem (rule `version`).", valueName: "name"))
    var expectName: String?

    @Option(name: .long, help: ArgumentHelp(
        "Also check the bag against this BagIt profile (BagIt Profiles 1.4.0 JSON): bag-info.txt fields and values, manifest algorithms, fetch.txt, serialization, BagIt version, required and allowed tag and payload files. mcpack's own is docs/mcpack-bagit-profile.json, and bagit-profile.json in every bag it builds.",
        valueName: "file"))
    var profile: String?

    @Flag(name: .customLong("strict"), help: "Exit 1 on warnings too (what RFC 8493 says a bag SHOULD do).")
    var strict = false

    func run() async throws {
        let console = Console(json: project.json)
        var limits = VerifyLimits()
        limits.maxTotalBytes = maxBytes
        limits.maxEntryBytes = maxEntryBytes
        limits.maxEntries = maxEntries
        limits.maxRatio = maxRatio
        var report: VerifyReport
        do {
            if let archive {
                // The signature first: whether to trust the rest rests on it.
                let before = FileSnapshot(archive)
                let options = SignatureOptions(identity: identity, verifyTime: verifyTime, revokedKeys: revokedKeys, requirePrehashed: requirePrehashed)
                let signatures = publicKeys.isEmpty ? SignatureCheck.present(archive)
                    : try SignatureCheck.check(archive: archive, publicKeys: publicKeys, options: options)
                if !console.json { printSignatures(signatures, console: console) }
                let bagProfile = try profile.map(ProfileRules.load)
                report = try Verifier.verify(archive, limits: limits, allowFetch: allowFetch, profile: bagProfile, signatures: signatures,
                                             expected: VersionExpectation(name: expectName, version: expectVersion), loadersAsNeeded: true)
                let checked = signatures.map { $0.failed(ifChangedSince: before, archive: archive) }
                for (was, now) in zip(signatures, checked) where was.valid && !now.valid && !console.json {
                    console.out("\(console.paint("error:", "1;31")) \(now.file): signature: \(now.problem ?? "")")
                }
                report.add(signatures: checked)
            } else {
                if profile != nil || !publicKeys.isEmpty || expectVersion != nil || expectName != nil {
                    throw ValidationError("--profile, --public-key, --expect-version and --expect-name check an archive or bag: give its path")
                }
                report = try await ProjectVerifier.verify(configPath: project.config, limits: limits)
            }
        } catch {
            throw console.fail(error)
        }
        if console.json {
            console.emit(report)
        } else {
            for note in report.notes { console.out("note: \(note)") }
            for problem in report.problems where problem.rule != "signature" {
                let label = problem.severity == .error ? console.paint("error:", "1;31") : console.paint("warning:", "1;33")
                let line = "\(label) \(problem)"
                if problem.severity == .warning { console.err(line) } else { console.out(line) }
            }
            let errors = report.problems.filter { $0.severity == .error }.count
            let warnings = report.problems.count - errors
            let size = "\(report.stats.files) files, \(formatBytes(Int(report.stats.bytes)))" + (report.profile.map { ", profile \($0)" } ?? "")
            if errors == 0 {
                console.out("\(console.paint("valid", "1;32")): \(report.verified) (\(size)\(warnings > 0 ? ", \(warnings) warning\(warnings == 1 ? "" : "s")" : ""))")
            } else {
                console.out("\(console.paint("invalid", "1;31")): \(report.verified): \(errors) problem\(errors == 1 ? "" : "s")\(warnings > 0 ? ", \(warnings) warning\(warnings == 1 ? "" : "s")" : "") (\(size))")
            }
        }
        if !report.ok || (strict && !report.problems.isEmpty) { throw ExitCode(1) }
    }
}

/// The signature lines, before the bag is read: who signed and what the
/// trusted comment says, or why it does not check.
private func printSignatures(_ signatures: [SignatureReport], console: Console) {
    for signature in signatures {
        let name = (signature.file as NSString).lastPathComponent
        for note in signature.notes { console.out("note: \(name): \(note)") }
        if !signature.checked {
            console.out("signature: \(name) present, not checked (give --public-key to check it)")
        } else if signature.valid {
            console.out("\(console.paint("signature good:", "1;32")) \(name), signed by \(signature.signer ?? "?")")
            if let comment = signature.trustedComment { console.out("trusted comment: \(comment)") }
        } else {
            console.out("\(console.paint("error:", "1;31")) \(name): signature: \(signature.problem ?? "does not check")")
            if let comment = signature.trustedComment { console.out("untrusted, as the signature failed: \(comment)") }
        }
    }
}

/// `--expect-version`: a semantic version, `v` before it allowed (a tag's
/// spelling), as `mcpack diff` takes one.
@Sendable private func expectedVersion(_ text: String) throws -> String {
    let version = text.hasPrefix("v") ? String(text.dropFirst()) : text
    guard SemanticVersion(version) != nil else { throw ValidationError("expected a version such as 1.1.0, not \(text)") }
    return version
}
