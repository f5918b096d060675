import Foundation
import Hashing

/// RFC 8493 (BagIt 1.0, and the 0.9x drafts where they differ): the
/// declaration, every manifest line, completeness, fixity and the Oxum.
/// A problem found never stops the checks that follow.
enum BagRules {
    static let versions = ["1.0", "0.97", "0.96", "0.95", "0.94", "0.93"]
    static let hexLength: [DigestAlgorithm: Int] = [.md5: 32, .sha1: 40, .sha256: 64, .sha512: 128]

    static func check(_ bag: BagContents) -> [Problem] {
        var problems: [Problem] = []
        let version = declaration(bag, &problems)
        let payload = bag.files.keys.filter { $0.hasPrefix("data/") }

        let manifestNames = bag.files.keys.filter { !$0.contains("/") && $0.hasPrefix("manifest-") && $0.hasSuffix(".txt") }.sorted()
        if manifestNames.isEmpty && bag.stoppedAt == nil {
            problems.append(Problem("manifest-*.txt", "manifest", "the bag has no payload manifest"))
        }
        for name in manifestNames {
            // Already reported as damaged: its lines cannot be trusted, and
            // reading none of them would call every file unlisted.
            if bag.files[name]?.damaged == true { continue }
            guard let algorithm = ArchiveCollector.manifestAlgorithm(name, prefix: "manifest-") else {
                problems.append(Problem(name, "manifest", "an algorithm mcpack cannot check (md5, sha1, sha256, sha512 are); its entries were not verified", severity: .warning))
                continue
            }
            let entries = parseManifest(bag, name: name, algorithm: algorithm, version: version, problems: &problems)
            for path in entries.keys.filter({ !$0.hasPrefix("data/") }).sorted() {
                problems.append(Problem(name, "manifest-path", "lists \(path), which is not under data/"))
            }
            // Problems are few and entries many: the entries are walked as
            // they are and only the problems sorted, by path.
            var unlisted: [Problem] = []
            for path in payload where entries[path] == nil {
                unlisted.append(Problem(path, "complete", "not listed in \(name)"))
            }
            problems += unlisted.sorted { $0.path < $1.path }
            var unreached: [String] = []
            var listed: [Problem] = []
            for (path, expected) in entries where path.hasPrefix("data/") {
                guard let file = bag.files[path] else {
                    if bag.stoppedAt != nil {
                        unreached.append(path)
                    } else {
                        listed.append(Problem(path, "missing", "listed in \(name) but not in the bag"))
                    }
                    continue
                }
                fixity(file, expected: expected, algorithm: algorithm, manifest: name, &listed)
            }
            problems += listed.sorted { $0.path < $1.path }
            unreached.sort()
            if let stoppedAt = bag.stoppedAt, let first = unreached.first {
                // One line, not thousands: these were never read, so nobody
                // knows whether they are there.
                problems.append(Problem(name, "missing", "\(unreached.count) file\(unreached.count == 1 ? "" : "s") it lists were not reached: reading stopped \(stoppedAt) (first: \(first))"))
            }
        }

        let tagManifests = bag.files.keys.filter { !$0.contains("/") && $0.hasPrefix("tagmanifest-") && $0.hasSuffix(".txt") }.sorted()
        for name in tagManifests where bag.files[name]?.damaged != true {
            guard let algorithm = ArchiveCollector.manifestAlgorithm(name, prefix: "tagmanifest-") else {
                problems.append(Problem(name, "tagmanifest", "an algorithm mcpack cannot check; its entries were not verified", severity: .warning))
                continue
            }
            let entries = parseManifest(bag, name: name, algorithm: algorithm, version: version, problems: &problems)
            for (path, expected) in entries.sorted(by: { $0.key < $1.key }) {
                if path.hasPrefix("tagmanifest-") {
                    problems.append(Problem(name, "tagmanifest", "lists \(path); a tag manifest lists tag files, not tag manifests", severity: .warning))
                    continue
                }
                if path.hasPrefix("data/") {
                    problems.append(Problem(name, "tagmanifest", "lists the payload file \(path)"))
                    continue
                }
                guard let file = bag.files[path] else {
                    problems.append(Problem(path, "missing", "listed in \(name) but not in the bag"))
                    continue
                }
                fixity(file, expected: expected, algorithm: algorithm, manifest: name, &problems)
            }
        }

        oxum(bag, payload: payload, &problems)
        collisions(payload, &problems)
        return problems
    }

    /// bagit.txt: the version and the tag file encoding.
    private static func declaration(_ bag: BagContents, _ problems: inout [Problem]) -> String? {
        guard let data = bag.files["bagit.txt"]?.data else {
            if bag.files["bagit.txt"]?.damaged == true { return nil }
            problems.append(Problem("bagit.txt", "bagit-txt", "missing; every bag starts with its declaration"))
            return nil
        }
        let text = String(decoding: data, as: UTF8.self)
        let labels = parseLabels(text)
        let version = labels.first { $0.0 == "BagIt-Version" }?.1
        if let version {
            if !versions.contains(version) {
                problems.append(Problem("bagit.txt", "bagit-txt", "BagIt-Version \(version) is not one mcpack knows (\(versions.joined(separator: ", ")))", severity: .warning))
            }
        } else {
            problems.append(Problem("bagit.txt", "bagit-txt", "no BagIt-Version line"))
        }
        if let encoding = labels.first(where: { $0.0 == "Tag-File-Character-Encoding" })?.1 {
            if encoding.uppercased() != "UTF-8" {
                problems.append(Problem("bagit.txt", "bagit-txt", "tag files are \(encoding); mcpack reads them as UTF-8", severity: .warning))
            }
        } else {
            problems.append(Problem("bagit.txt", "bagit-txt", "no Tag-File-Character-Encoding line"))
        }
        if labels.count > 2 || text.hasPrefix("\u{FEFF}") {
            problems.append(Problem("bagit.txt", "bagit-txt", "holds more than the two declaration lines", severity: .warning))
        }
        return version
    }

    /// `Label: value` lines; a line starting with whitespace continues the last.
    static func parseLabels(_ text: String) -> [(String, String)] {
        var labels: [(String, String)] = []
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            if let first = line.first, first == " " || first == "\t", !labels.isEmpty {
                labels[labels.count - 1].1 += " " + line.trimmingCharacters(in: .whitespaces)
            } else if let colon = line.firstIndex(of: ":") {
                labels.append((line[..<colon].trimmingCharacters(in: .whitespaces),
                               line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            }
        }
        return labels
    }

    /// `<checksum> <path>` lines, checked one by one.
    private static func parseManifest(_ bag: BagContents, name: String, algorithm: DigestAlgorithm, version: String?,
                                      problems: inout [Problem]) -> [String: String] {
        guard let data = bag.files[name]?.data, String(data: data, encoding: .utf8) != nil else {
            problems.append(Problem(name, "manifest", "cannot be read as UTF-8 text"))
            return [:]
        }
        var entries: [String: String] = [:]
        let manifest = Manifest(data, percentEncoded: version == nil || version == "1.0")
        for line in manifest.lines {
            guard let path = manifest.path(line) else {
                problems.append(Problem(name, "manifest", "line \(line.number): expected \"<checksum> <path>\""))
                continue
            }
            let checksum = folded(manifest.checksum(line))
            guard checksum.utf8.count == hexLength[algorithm],
                  checksum.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
                problems.append(Problem(name, "manifest", "line \(line.number): \"\(checksum.prefix(20))\" is not a \(algorithm.rawValue) checksum"))
                continue
            }
            let normal: String
            if BagContents.isPlain(path) {
                normal = path
            } else {
                var ignored: [Problem] = []
                guard let components = BagContents.safeComponents(path, entry: name, problems: &ignored), !components.isEmpty else {
                    problems.append(Problem(name, "unsafe-path", "line \(line.number): \(path.debugDescription) leads outside the bag"))
                    continue
                }
                normal = components.joined(separator: "/")
            }
            if let earlier = entries[normal] {
                problems.append(earlier == checksum
                    ? Problem(name, "manifest", "line \(line.number): \(normal) is listed twice", severity: .warning)
                    : Problem(name, "manifest", "line \(line.number): \(normal) is listed twice with different checksums"))
                continue
            }
            entries[normal] = checksum
        }
        let starred = manifest.starredCount
        if starred > 0 {
            problems.append(Problem(name, "manifest", "\(starred) line\(starred == 1 ? "" : "s") with md5sum's \"*\" binary marker; read as part of the separator", severity: .warning))
        }
        return entries
    }

    private static func fixity(_ file: BagFile, expected: String, algorithm: DigestAlgorithm, manifest: String, _ problems: inout [Problem]) {
        if file.damaged { return }
        guard let actual = file.digests[algorithm] else {
            problems.append(Problem(file.path, "fixity", "not checked against \(manifest): that manifest came after the file in the archive", severity: .warning))
            return
        }
        if actual != expected {
            problems.append(Problem(file.path, "fixity", "\(algorithm.rawValue) \(actual.prefix(16))... does not match \(manifest) (\(expected.prefix(16))...): the file is damaged"))
        }
    }

    /// Payload-Oxum is a quick sum; a mismatch is reported and the file by
    /// file checks above still say which files are wrong.
    private static func oxum(_ bag: BagContents, payload: [String], _ problems: inout [Problem]) {
        // Reading stopped early: the sum of what was reached says nothing new.
        guard bag.stoppedAt == nil, let data = bag.files["bag-info.txt"]?.data else { return }
        let labels = parseLabels(String(decoding: data, as: UTF8.self))
        guard let value = labels.first(where: { $0.0 == "Payload-Oxum" })?.1 else { return }
        let parts = value.split(separator: ".")
        guard parts.count == 2, let octets = Int64(parts[0]), let count = Int(parts[1]) else {
            problems.append(Problem("bag-info.txt", "payload-oxum", "\"\(value)\" is not <bytes>.<files>"))
            return
        }
        let actualOctets = payload.reduce(Int64(0)) { $0 + (bag.files[$1]?.size ?? 0) }
        if octets != actualOctets || count != payload.count {
            problems.append(Problem("bag-info.txt", "payload-oxum", "says \(octets) bytes in \(count) files; the payload holds \(actualOctets) bytes in \(payload.count) files"))
        }
    }

    /// Names that differ only by case collide on macOS and Windows file
    /// systems. (Names that differ only by Unicode normalisation are equal
    /// Swift strings, so the readers already report them as duplicates.)
    /// Each is named with the first of its group in path order; the 17,000
    /// paths of a bundle are counted by folded name, not sorted.
    private static func collisions(_ payload: [String], _ problems: inout [Problem]) {
        var counts: [String: Int] = [:]
        counts.reserveCapacity(payload.count)
        for path in payload { counts[folded(path), default: 0] += 1 }
        var groups: [String: [String]] = [:]
        for path in payload {
            let key = folded(path)
            if counts[key, default: 0] > 1 { groups[key, default: []].append(path) }
        }
        var found: [Problem] = []
        for group in groups.values {
            let sorted = group.sorted()
            for path in sorted.dropFirst() {
                found.append(Problem(path, "name-collision", "differs from \(sorted[0]) only by case", severity: .warning))
            }
        }
        problems += found.sorted { $0.path < $1.path }
    }

    /// The text lowercased; lowercasing is skipped where it cannot change
    /// anything (ASCII without capitals, as checksums and bundle paths
    /// mostly are), which spares 17,000 passes through Unicode's tables.
    private static func folded<S: StringProtocol>(_ text: S) -> String {
        text.utf8.allSatisfy { $0 < 0x80 && !(0x41...0x5A).contains($0) } ? String(text) : text.lowercased()
    }
}
