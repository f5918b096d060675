import Imaging
import MCPackInputs
import MCPackBag
import Foundation
import Hashing
import MCPackSchema

package struct VerifyReport: Sendable, Encodable {
    package struct Stats: Sendable, Encodable {
        package var files: Int
        package var bytes: Int64
        package var seconds: Double
    }

    package var ok: Bool { !problems.contains { $0.severity == .error } }
    package var target: String
    package var problems: [Problem]
    package var stats: Stats
    /// The detached signatures beside the archive: checked with
    /// `--public-key`, else only found.
    package var signatures: [SignatureReport] = []
    /// The identifier of the BagIt profile checked with `--profile`.
    package var profile: String?
    /// bundle.toml, when verify checked a project: its inputs, and its
    /// archive (`target`).
    package var project: String?
    /// What verify could not compare and says so without failing: a file
    /// name that states no bundle name or version (`delivery (1).zip`).
    package var notes: [String] = []

    enum CodingKeys: String, CodingKey { case ok, target, problems, stats, signatures, profile, project, notes }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ok, forKey: .ok)
        try container.encode(target, forKey: .target)
        try container.encode(problems, forKey: .problems)
        try container.encode(stats, forKey: .stats)
        if !signatures.isEmpty { try container.encode(signatures, forKey: .signatures) }
        try container.encodeIfPresent(profile, forKey: .profile)
        try container.encodeIfPresent(project, forKey: .project)
        if !notes.isEmpty { try container.encode(notes, forKey: .notes) }
    }

    /// What was verified, for the summary line: the archive, and the
    /// project it was checked against.
    package var verified: String { target + (project.map { " and its project \($0)" } ?? "") }

    /// Puts the signature's findings first: a signature that fails is the
    /// first thing a receiver must hear.
    package mutating func add(signatures found: [SignatureReport]) {
        signatures = found
        let failed = found.filter { $0.checked && !$0.valid }.map {
            Problem(($0.file as NSString).lastPathComponent, "signature", $0.problem ?? "does not check")
        }
        problems.insert(contentsOf: failed, at: 0)
    }
}

/// `mcpack verify PATH`: an archive or an unpacked bag, checked with
/// nothing but itself: safety, BagIt validity, the checksum file beside it,
/// and mcpack's content rules.
package enum Verifier {
    /// Throws only when PATH cannot be verified at all (missing, not an
    /// archive): that is exit 2, not a finding.
    /// `allowFetch`: files fetch.txt names may be absent (RFC 8493 §2.2.3).
    /// `profile`: a BagIt profile the bag must also follow.
    /// `signatures`: those checked beside it, whose trusted comment states
    /// a version too; `expected`: the name and version the receiver asked for.
    /// `loadersAsNeeded`: libvips, which only the content rules start, is
    /// started without its optional loaders when no bytes they read need
    /// one; process-wide, so for a command that verifies once.
    package static func verify(_ path: String, limits: VerifyLimits = VerifyLimits(), allowFetch: Bool = false,
                              profile: BagItProfile? = nil, signatures: [SignatureReport] = [],
                              expected: VersionExpectation? = nil, loadersAsNeeded: Bool = false) throws -> VerifyReport {
        let started = Date()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FileError(path: path, message: "no such file or folder")
        }
        var contents: BagContents
        var problems: [Problem] = []
        // The .sha256 beside an archive (and a gzip's trailer) checked on
        // another core while this one reads the entries, and while the rules
        // run after them: waited for only once they are done.
        let group = DispatchGroup()
        let found = LockedArray<Problem?>(repeating: nil, count: 2)
        if isDirectory.boolValue {
            contents = try BagContents.read(path, limits: limits)
        } else {
            let checksum = ChecksumFile(archive: path)
            if let checksum {
                onThread(group) { found[0] = checksum.check() }
            }
            if GzipCheck.isGzip(path) {
                onThread(group) { found[1] = GzipCheck.check(path) }
            }
            let covered = checksum?.expected != nil || signatures.contains { $0.valid }
            do {
                contents = try BagContents.read(path, limits: limits, archiveCovered: covered, confirmingLater: true)
            } catch {
                group.wait()
                throw FileError(path: path, message: "not a zip or tar archive mcpack can read (\(error))")
            }
        }
        // The optional loaders (PDF, HEIF, JPEG XL, ImageMagick) bring some
        // thirty libraries, whose loading was the longest part of the
        // content rules: a bag of PNG, JPEG and WebP pictures needs none.
        if loadersAsNeeded, !contents.index.optionalLoaders { OptionalLoaders.leaveOut() }
        var rules: [Problem] = []
        if contents.complete || !contents.files.isEmpty {
            // The two sets of rules share nothing but what they read: the
            // content rules (which decode the icons) run on another core.
            // They start before a zip's unconfirmed entries are checked for
            // damage, and run again in the rare case that finds some.
            let content = LockedArray<[Problem]>(repeating: [], count: 1)
            let rulesGroup = DispatchGroup()
            let snapshot = contents
            onThread(rulesGroup) { content[0] = ContentRules.check(snapshot) }
            let damaged: Bool
            do { damaged = try contents.confirm() } catch {
                rulesGroup.wait()
                group.wait()
                throw FileError(path: path, message: "not a zip or tar archive mcpack can read (\(error))")
            }
            contents.parseManifests()
            rules += BagRules.check(contents, allowFetch: allowFetch)
            if let profile {
                rules += ProfileRules.check(contents, profile: profile, path: path, serialized: !isDirectory.boolValue)
            }
            rulesGroup.wait()
            rules += damaged ? ContentRules.check(contents) : content[0]
        } else {
            do { _ = try contents.confirm() } catch {
                group.wait()
                throw FileError(path: path, message: "not a zip or tar archive mcpack can read (\(error))")
            }
        }
        if !isDirectory.boolValue {
            group.wait()
            if let problem = found[0] { problems.append(problem) }
            // A stream cut short is already `truncated`; say it once.
            if let problem = found[1], contents.complete { problems.append(problem) }
            let stem = (path as NSString).lastPathComponent
            let expectedTop = ArchiveFormat.named(stem)?.stem
            // A bundle mcpack made states its name and version, compared below
            // with the file name's (rule `version`) when the name states them.
            if let top = contents.top, let expectedTop, top != expectedTop, !VersionRules.isMCPackBag(contents) {
                problems.append(Problem(top + "/", "top-folder", "the top folder should be named like the archive, \(expectedTop)/", severity: .warning))
            }
        }
        problems = contents.problems + problems + rules
        let versions = VersionRules.check(contents, path: path, isDirectory: isDirectory.boolValue, signatures: signatures, expected: expected)
        var report = VerifyReport(
            target: path, problems: problems + versions.problems,
            stats: .init(files: contents.files.count, bytes: contents.bytes, seconds: Date().timeIntervalSince(started)),
            profile: profile?.info.identifier)
        report.notes = versions.notes
        releaseElsewhere(consume contents)
        return report
    }
}

/// Runs `body` on a thread of its own, `group` entered until it ends: work
/// that takes a core for long (hashing the whole archive, the content
/// rules) does not wait for one of Dispatch's, whose pool is as wide as the
/// cores and may be held by this task and the reader's waiting.
private func onThread(_ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
    group.enter()
    let thread = Thread {
        body()
        group.leave()
    }
    thread.start()
}

/// `<archive>.sha256` in the format `sha256sum -c` reads.
struct ChecksumFile {
    let archive: String
    let path: String
    let expected: String?

    init?(archive: String) {
        let path = archive + ".sha256"
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.archive = archive
        self.path = path
        let text = String(decoding: data, as: UTF8.self)
        let name = (archive as NSString).lastPathComponent
        expected = text.split(separator: "\n").compactMap { line -> String? in
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            let file = parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "*"))
            return file == name ? String(parts[0]).lowercased() : nil
        }.first
    }

    func check() -> Problem? {
        let name = (path as NSString).lastPathComponent
        guard let expected else {
            return Problem(name, "archive-checksum", "does not list \((archive as NSString).lastPathComponent)")
        }
        guard let (actual, _) = try? Digest.hexOfFile(URL(fileURLWithPath: archive)) else {
            return Problem(name, "archive-checksum", "cannot read the archive to check it")
        }
        return actual == expected ? nil : Problem((archive as NSString).lastPathComponent, "archive-checksum",
                                                  "SHA-256 \(actual.prefix(16))... does not match \(name) (\(expected.prefix(16))...)")
    }
}

/// verify's options `--max-bytes`, `--max-entry-bytes`, `--max-entries`
/// and `--max-ratio`: the limits every read of a bag keeps.
package typealias VerifyLimits = BagLimits
