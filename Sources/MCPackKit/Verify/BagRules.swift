import MCPackInputs
import MCPackBag
import Foundation
import MCPackSchema
import Hashing

/// RFC 8493 (BagIt 1.0, and the 0.9x drafts where they differ): the
/// declaration, every manifest line, completeness, fixity and the Oxum.
/// A problem found never stops the checks that follow.
enum BagRules {
    static let versions = ["1.0", "0.97", "0.96", "0.95", "0.94", "0.93"]
    static let hexLength: [DigestAlgorithm: Int] = [.md5: 32, .sha1: 40, .sha256: 64, .sha512: 128]

    /// `allowFetch`: files fetch.txt names may be absent (a warning, not an
    /// error): the user knows they come later.
    static func check(_ bag: BagContents, allowFetch: Bool = false) -> [Problem] {
        var problems: [Problem] = []
        let (version, encoding) = declaration(bag, &problems)
        let decoded = TagText(encoding: encoding)
        let folders = bag.folders
        let payload = folders.files(under: "data/")
        let fetched = fetch(bag, decoded, version: version, &problems)
        let listing = payloadManifests(bag, decoded, version: version, payload: payload, top: folders.files(in: ""), fetched: fetched, &problems)
        fetchedAndAlgorithms(listing, allowFetch: allowFetch, &problems)
        tagManifests(bag, decoded, version: version, folders: folders, &problems)
        for path in listing.finderFiles.sorted() {
            problems.append(Problem(path, "finder-metadata", "Finder's own file, which no manifest lists: left out of the check; bagit.py calls the bag invalid while it is there (remove it with `dot_clean` or `find BAG -name .DS_Store -delete`)", severity: .warning))
        }
        // Files fetch.txt names that are absent: their sizes are not known,
        // so the Oxum says nothing until they come.
        if listing.fetchAbsent.isEmpty {
            let counted = listing.finderFiles.isEmpty ? payload : payload.filter { !listing.finderFiles.contains($0) }
            oxum(bag, decoded, payload: counted, finderFiles: listing.finderFiles, &problems)
        }
        collisions(bag, payload, &problems)
        // The section of RFC 8493 each older rule comes from, for those
        // that do not give their own.
        return problems.map { problem in
            guard problem.section == nil, let section = sections[problem.rule] else { return problem }
            var named = problem
            named.section = section
            return named
        }
    }

    /// What the payload manifests tell the rules after them.
    private struct PayloadListing {
        var manifestNames: [String] = []
        var algorithms: [DigestAlgorithm] = []
        /// Listed, named by fetch.txt, and not in the bag.
        var fetchAbsent = Set<String>()
        /// What Finder leaves in a folder it shows (.DS_Store, ._ files)
        /// and no manifest lists: not the sender's, so a warning, and out
        /// of the Oxum's count.
        var finderFiles = Set<String>()
    }

    /// Every payload manifest: its lines, completeness and fixity.
    /// `top`: the files in the bag's top folder.
    private static func payloadManifests(_ bag: BagContents, _ decoded: TagText, version: String?, payload: [String], top: [String],
                                         fetched: [String: Int], _ problems: inout [Problem]) -> PayloadListing {
        var listing = PayloadListing()
        listing.manifestNames = top.filter { BagNames.manifestName($0, prefix: "manifest-") != nil }.sorted()
        if listing.manifestNames.isEmpty {
            if let stoppedAt = bag.stoppedAt {
                // mcpack's tag files follow the payload: an archive cut short
                // loses them first.
                problems.append(Problem("manifest-*.txt", "missing", "the payload manifests were not reached: reading stopped \(stoppedAt); which files the bag lists, and whether those read are whole, cannot be told"))
            } else {
                problems.append(Problem("manifest-*.txt", "manifest", "the bag has no payload manifest"))
            }
        }
        for name in listing.manifestNames {
            // Already reported as damaged: its lines cannot be trusted, and
            // reading none of them would call every file unlisted.
            if bag.files[name]?.damaged == true { continue }
            guard let algorithm = BagNames.manifestAlgorithm(name, prefix: "manifest-") else {
                problems.append(Problem(name, "manifest", "an algorithm mcpack cannot check (md5, sha1, sha256, sha512 are); its entries were not verified", severity: .warning))
                continue
            }
            listing.algorithms.append(algorithm)
            let parsed = parseManifest(bag, decoded, name: name, algorithm: algorithm, version: version, problems: &problems)
            let entries = parsed.entries
            for path in fetched.keys.filter({ entries[$0] == nil }).sorted() {
                problems.append(Problem(path, "fetch-unlisted", "fetch.txt names it, but \(name) does not list it; every fetched file is in every payload manifest", section: "2.2.3"))
            }
            if parsed.payloadEntries != entries.count {
                for path in entries.keys.filter({ !PathBytes.hasPrefix($0, "data/") }).sorted() {
                    problems.append(Problem(name, "manifest-path", "lists \(path), which is not under data/"))
                }
            }
            // Every payload file listed and in the bag: none unlisted, and
            // no pass over 17,000 paths to find that out.
            if parsed.payloadPresent.listed != payload.count {
                problems += unlisted(payload, entries: entries, manifest: name, finderFiles: &listing.finderFiles)
            }
            problems += listed(bag, parsed, manifest: name, algorithm: algorithm, fetched: fetched, fetchAbsent: &listing.fetchAbsent)
        }
        return listing
    }

    /// Payload files `manifest` does not list. Problems are few and entries
    /// many: the entries are walked as they are and only the problems
    /// sorted, by path.
    private static func unlisted(_ payload: [String], entries: [String: String], manifest name: String,
                                 finderFiles: inout Set<String>) -> [Problem] {
        var unlisted: [Problem] = []
        for path in payload where entries[path] == nil {
            if BagNames.isFinderMetadata(path) {
                finderFiles.insert(path)
                continue
            }
            unlisted.append(Problem(path, "complete", "not listed in \(name)"))
        }
        return unlisted.sorted { $0.path < $1.path }
    }

    /// The payload files `manifest` lists: each present, with its checksum
    /// (those that matched need nothing more).
    private static func listed(_ bag: BagContents, _ parsed: ParsedManifest, manifest name: String, algorithm: DigestAlgorithm,
                               fetched: [String: Int], fetchAbsent: inout Set<String>) -> [Problem] {
        var unreached: [String] = []
        var listed: [Problem] = []
        for (path, why) in parsed.unmatched where PathBytes.hasPrefix(path, "data/") {
            switch why {
            case .absent:
                if fetched[path] != nil {
                    fetchAbsent.insert(path)
                } else if bag.stoppedAt != nil {
                    unreached.append(path)
                } else {
                    listed.append(Problem(path, "missing", "listed in \(name) but not in the bag"))
                }
            case .damaged, .notHashed, .differs:
                if let problem = fixity(path, parsed, algorithm: algorithm, manifest: name) { listed.append(problem) }
            }
        }
        var problems = listed.sorted { $0.path < $1.path }
        unreached.sort()
        if let stoppedAt = bag.stoppedAt, let first = unreached.first {
            // One line, not thousands: these were never read, so nobody
            // knows whether they are there.
            problems.append(Problem(name, "missing", "\(unreached.count) file\(unreached.count == 1 ? "" : "s") it lists were not reached: reading stopped \(stoppedAt) (first: \(first))"))
        }
        return problems
    }

    /// Fetched files not yet in the bag, and manifests only of algorithms
    /// that no longer resist a deliberate change.
    private static func fetchedAndAlgorithms(_ listing: PayloadListing, allowFetch: Bool, _ problems: inout [Problem]) {
        if let first = listing.fetchAbsent.min() {
            let count = listing.fetchAbsent.count
            problems.append(Problem("fetch.txt", "fetch-incomplete",
                                    "\(count) file\(count == 1 ? "" : "s") fetch.txt names \(count == 1 ? "is" : "are") not in the bag; the bag is incomplete, and \(count == 1 ? "its checksum" : "their checksums") cannot be checked (first: \(first))"
                                        + (allowFetch ? "" : "; --allow-fetch accepts a bag whose fetched files come later"),
                                    severity: allowFetch ? .warning : .error, section: "2.2.3"))
        }
        let algorithms = listing.algorithms
        if !algorithms.isEmpty, algorithms.allSatisfy({ $0 == .md5 || $0 == .sha1 }) {
            problems.append(Problem(listing.manifestNames.first ?? "manifest-*.txt", "weak-algorithm",
                                    "only \(algorithms.map(\.rawValue).joined(separator: " and ")), which no longer resist a deliberate change; a bag should also have a sha256 or sha512 manifest",
                                    severity: .warning, section: "2.4"))
        }
    }

    /// Every tag manifest: its lines and the tag files' fixity, and (RFC
    /// 8493 §2.2.1) the tag files none lists, which no checksum covers.
    private static func tagManifests(_ bag: BagContents, _ decoded: TagText, version: String?, folders: BagFolders, _ problems: inout [Problem]) {
        let tagManifests = folders.files(in: "").filter { BagNames.manifestName($0, prefix: "tagmanifest-") != nil }.sorted()
        var tagListed = Set<String>()
        for name in tagManifests where bag.files[name]?.damaged != true {
            guard let algorithm = BagNames.manifestAlgorithm(name, prefix: "tagmanifest-") else {
                problems.append(Problem(name, "tagmanifest", "an algorithm mcpack cannot check; its entries were not verified", severity: .warning))
                continue
            }
            let parsed = parseManifest(bag, decoded, name: name, algorithm: algorithm, version: version, problems: &problems)
            tagListed.formUnion(parsed.entries.keys)
            for path in parsed.entries.keys.sorted() {
                if PathBytes.hasPrefix(path, "tagmanifest-") {
                    problems.append(Problem(name, "tagmanifest", "lists \(path); a tag manifest lists tag files, not tag manifests", severity: .warning))
                    continue
                }
                if PathBytes.hasPrefix(path, "data/") {
                    problems.append(Problem(name, "tagmanifest", "lists the payload file \(path)"))
                    continue
                }
                if parsed.unmatched[path] == .absent {
                    problems.append(Problem(path, "missing", "listed in \(name) but not in the bag"))
                } else if let problem = fixity(path, parsed, algorithm: algorithm, manifest: name) {
                    problems.append(problem)
                }
            }
        }
        if !tagManifests.isEmpty, bag.stoppedAt == nil {
            for path in folders.files(under: "", outside: "data/").sorted() where !PathBytes.hasPrefix(path, "tagmanifest-") && !tagListed.contains(path) {
                problems.append(Problem(path, "tag-unlisted", "a tag file no tag manifest lists, so no checksum covers it", severity: .warning, section: "2.2.1"))
            }
        }
    }

    static let sections = ["manifest": "2.1.3", "manifest-path": "2.1.3", "unsafe-path": "2.1.3", "tagmanifest": "2.2.1",
                           "complete": "3", "missing": "3", "fixity": "3"]

    /// bagit.txt (RFC 8493 §2.1.1): exactly two lines, in this order,
    /// `BagIt-Version: M.N` and `Tag-File-Character-Encoding: ENCODING`,
    /// UTF-8 without a BOM. Gives the version and the encoding.
    private static func declaration(_ bag: BagContents, _ problems: inout [Problem]) -> (String?, String?) {
        guard let data = bag.files["bagit.txt"]?.data else {
            if bag.files["bagit.txt"]?.damaged == true || bag.stoppedAt != nil { return (nil, nil) }
            problems.append(Problem("bagit.txt", "bagit-txt", "missing; every bag starts with its declaration", section: "2.1.1"))
            return (nil, nil)
        }
        func problem(_ message: String) { problems.append(Problem("bagit.txt", "bagit-txt", message, section: "2.1.1")) }
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { problem("begins with a byte order mark; bagit.txt is UTF-8 without one") }
        guard let whole = String(data: data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data, encoding: .utf8) else {
            problem("cannot be read as UTF-8 text")
            return (nil, nil)
        }
        let lines = whole.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map(String.init)
        let text = lines.last == "" ? Array(lines.dropLast()) : lines
        let labels = BagInfo.labels(whole)
        let version = labels.first { $0.0 == "BagIt-Version" }?.1
        let encoding = labels.first(where: { $0.0 == "Tag-File-Character-Encoding" })?.1
        if let version {
            if !versions.contains(version) {
                problems.append(Problem("bagit.txt", "bagit-txt", "BagIt-Version \(version) is not one mcpack knows (\(versions.joined(separator: ", ")))", severity: .warning, section: "2.1.1"))
            }
        } else {
            problem("no BagIt-Version line")
        }
        if let encoding {
            if TagText(encoding: encoding).unknown {
                problems.append(Problem("bagit.txt", "bagit-txt", "tag files are \(encoding), an encoding mcpack does not know; they are read as UTF-8", severity: .warning, section: "2.1.1"))
            }
        } else {
            problem("no Tag-File-Character-Encoding line")
        }
        // The exact shape: each line as the RFC spells it.
        let shapes: [(String, (String) -> Bool)] = [
            ("BagIt-Version: M.N", { line in
                guard line.hasPrefix("BagIt-Version: ") else { return false }
                let parts = line.dropFirst("BagIt-Version: ".count).split(separator: ".", omittingEmptySubsequences: false)
                return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
            }),
            ("Tag-File-Character-Encoding: ENCODING", { line in
                line.hasPrefix("Tag-File-Character-Encoding: ") && line.count > "Tag-File-Character-Encoding: ".count
                    && !line.hasSuffix(" ") && !line.dropFirst("Tag-File-Character-Encoding: ".count).hasPrefix(" ")
            }),
        ]
        if text.count != 2 {
            problem("holds \(text.count) line\(text.count == 1 ? "" : "s"); it is exactly two, BagIt-Version then Tag-File-Character-Encoding")
        }
        for (index, (shape, matches)) in shapes.enumerated() where index < text.count && !matches(text[index]) {
            problem("line \(index + 1) is \(text[index].prefix(60).debugDescription); it must be exactly \"\(shape)\"")
        }
        return (version, encoding)
    }

    /// bagit.txt's version and the tag files' encoding, as `check` reads
    /// the manifests with them (its problems are `check`'s to say).
    static func manifestReading(_ bag: BagContents) -> (version: String?, decoded: TagText) {
        var unsaid: [Problem] = []
        let (version, encoding) = declaration(bag, &unsaid)
        return (version, TagText(encoding: encoding))
    }

    /// `<checksum> <path>` lines, checked one by one; parsed once, by the
    /// first to ask (a zip's read, which needs the digests listed to know
    /// which entries its CRCs must be read for, or these rules).
    private static func parseManifest(_ bag: BagContents, _ decoded: TagText, name: String, algorithm: DigestAlgorithm, version: String?,
                                      problems: inout [Problem]) -> ParsedManifest {
        let parsed: ParsedManifest
        if let earlier = bag.manifests[name], earlier.encoding == decoded.name, earlier.version == version {
            parsed = earlier
        } else {
            parsed = parse(bag, decoded, name: name, algorithm: algorithm, version: version)
        }
        problems += parsed.problems
        return parsed
    }

    /// A manifest's lines as these rules read them: each path listed (made
    /// normal) with its checksum, and what is wrong with the lines.
    static func parse(_ bag: BagContents, _ decoded: TagText, name: String, algorithm: DigestAlgorithm, version: String?) -> ParsedManifest {
        var problems: [Problem] = []
        let entries = parse(bag, decoded, name: name, algorithm: algorithm, version: version, problems: &problems)
        var parsed = ParsedManifest(encoding: decoded.name, version: version, entries: entries, problems: problems)
        for (path, expected) in entries {
            if PathBytes.hasPrefix(path, "data/") { parsed.payloadEntries += 1 }
            guard let file = bag.files[path] else {
                parsed.unmatched[path] = .absent
                continue
            }
            if file.damaged {
                parsed.unmatched[path] = .damaged
            } else if let actual = file.digests[algorithm] {
                if actual != expected { parsed.unmatched[path] = .differs(actual: actual) }
            } else {
                parsed.unmatched[path] = .notHashed
            }
        }
        return parsed
    }

    private static func parse(_ bag: BagContents, _ decoded: TagText, name: String, algorithm: DigestAlgorithm, version: String?,
                              problems: inout [Problem]) -> [String: String] {
        guard let raw = bag.files[name]?.data, let data = decoded.utf8(raw) else {
            problems.append(Problem(name, "manifest", "cannot be read as \(decoded.name) text", section: "2.1.1"))
            return [:]
        }
        let manifest = Manifest(data, percentEncoded: version == nil || version == "1.0")
        var entries: [String: String] = [:]
        entries.reserveCapacity(manifest.lines.count)
        let length = hexLength[algorithm] ?? 0
        for line in manifest.lines {
            guard let path = manifest.path(line) else {
                problems.append(Problem(name, "manifest", "line \(line.number): expected \"<checksum> <path>\"", line: line.number))
                continue
            }
            guard let checksum = manifest.hexChecksum(line, count: length) else {
                let written = BagNames.folded(manifest.checksum(line))
                problems.append(Problem(name, "manifest", "line \(line.number): \"\(written.prefix(20))\" is not a \(algorithm.rawValue) checksum", line: line.number))
                continue
            }
            let normal: String
            if BagPath.isPlain(path) {
                normal = path
                if let range = line.path, manifest.text[manifest.text.startIndex + range.lowerBound] == 0x2E {  // "./", which Manifest drops
                    problems.append(Problem(name, "manifest-path-normal", "line \(line.number): \("./" + path) is not normalised; write \(path)", severity: .warning, section: "2.1.3", line: line.number))
                }
            } else {
                guard case .success(let components) = BagPath.components(path, resolvingDotDot: true), !components.isEmpty else {
                    problems.append(Problem(name, "unsafe-path", "line \(line.number): \(path.debugDescription) leads outside the bag", line: line.number))
                    continue
                }
                normal = components.joined(separator: "/")
                if normal != path { problems.append(Problem(name, "manifest-path-normal", "line \(line.number): \(path.debugDescription) is not normalised (., .. or empty components); write \(normal)", severity: .warning, section: "2.1.3", line: line.number)) }
            }
            // One table operation for the usual new path; the first of a
            // path listed twice is put back.
            if let earlier = entries.updateValue(checksum, forKey: normal) {
                entries[normal] = earlier
                problems.append(earlier == checksum
                    ? Problem(name, "manifest", "line \(line.number): \(normal) is listed twice", severity: .warning, line: line.number)
                    : Problem(name, "manifest", "line \(line.number): \(normal) is listed twice with different checksums", line: line.number))
            }
        }
        let starred = manifest.starredCount
        if starred > 0 {
            problems.append(Problem(name, "manifest", "\(starred) line\(starred == 1 ? "" : "s") with md5sum's \"*\" binary marker; read as part of the separator", severity: .warning))
        }
        return entries
    }

    /// fetch.txt (RFC 8493 §2.2.3): `URL LENGTH FILENAME` lines, LENGTH an
    /// integer or "-", FILENAME percent-encoded as in manifests and inside
    /// data/, no file twice. Gives each fetched path and its line.
    private static func fetch(_ bag: BagContents, _ decoded: TagText, version: String?, _ problems: inout [Problem]) -> [String: Int] {
        guard let file = bag.files["fetch.txt"], !file.damaged else { return [:] }
        func problem(_ rule: String, _ message: String, line: Int? = nil) {
            problems.append(Problem("fetch.txt", rule, message, section: "2.2.3", line: line))
        }
        guard let raw = file.data, let data = decoded.utf8(raw) else {
            problem("fetch-line", "cannot be read as \(decoded.name) text")
            return [:]
        }
        var fetched: [String: Int] = [:]
        let text = String(decoding: data, as: UTF8.self)
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let parts = line.split(maxSplits: 2, omittingEmptySubsequences: true, whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count == 3 else {
                problem("fetch-line", "line \(number): expected \"URL LENGTH FILENAME\"", line: number)
                continue
            }
            guard let colon = parts[0].firstIndex(of: ":"), colon != parts[0].startIndex,
                  parts[0][..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else {
                problem("fetch-line", "line \(number): \(parts[0].prefix(60).debugDescription) is not a URL", line: number)
                continue
            }
            guard parts[1] == "-" || parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) else {
                problem("fetch-line", "line \(number): the length \(parts[1].prefix(30).debugDescription) is neither a number of bytes nor \"-\"", line: number)
                continue
            }
            let written = String(parts[2])
            let path = version == nil || version == "1.0" ? Manifest.decodePath(Array(written.utf8)) : written
            guard case .success(let components) = BagPath.components(path), components.count > 1, components[0] == "data" else {
                problem("fetch-path", "line \(number): \(path.debugDescription) is not a path inside data/; a fetched file belongs to the payload", line: number)
                continue
            }
            let normal = components.joined(separator: "/")
            if let earlier = fetched[normal] {
                problem("fetch-duplicate", "line \(number): \(normal) is fetched on line \(earlier) too; one line a file", line: number)
                continue
            }
            fetched[normal] = number
        }
        return fetched
    }

    /// What the manifest's comparison found wrong with a file it lists
    /// that is in the bag: nil when it matched, or the archive already
    /// said it is damaged.
    private static func fixity(_ path: String, _ parsed: ParsedManifest, algorithm: DigestAlgorithm, manifest: String) -> Problem? {
        switch parsed.unmatched[path] {
        case .notHashed:
            return Problem(path, "fixity", "not checked against \(manifest): that manifest came after the file in the archive", severity: .warning)
        case .differs(let actual):
            let expected = parsed.entries[path] ?? ""
            return Problem(path, "fixity", "\(algorithm.rawValue) \(actual.prefix(16))... does not match \(manifest) (\(expected.prefix(16))...): the file is damaged")
        case nil, .absent, .damaged:
            return nil
        }
    }

    /// Payload-Oxum is a quick sum; a mismatch is reported and the file by
    /// file checks above still say which files are wrong.
    /// `payload`: the payload files but Finder's, `finderFiles`.
    private static func oxum(_ bag: BagContents, _ decoded: TagText, payload: [String], finderFiles: Set<String>, _ problems: inout [Problem]) {
        // Reading stopped early: the sum of what was reached says nothing new.
        guard bag.stoppedAt == nil else { return }
        if bag.files["bag-info.txt"]?.damaged == true { return }
        let text = bag.files["bag-info.txt"]?.data.flatMap(decoded.utf8).map { String(decoding: $0, as: UTF8.self) }
        if let text {
            // §2.2.2: `Label: value` lines, a long value continued on lines
            // that start with a space or tab.
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
                let continued = line.first == " " || line.first == "\t"
                if continued ? index == 0 : (line.firstIndex(of: ":").map { $0 == line.startIndex } ?? true) {
                    problems.append(Problem("bag-info.txt", "bag-info-line", "line \(index + 1): \(line.prefix(60).debugDescription) is not \"Label: value\" nor the continuation of one", severity: .warning, section: "2.2.2", line: index + 1))
                }
            }
        } else if bag.files["bag-info.txt"]?.data != nil {
            problems.append(Problem("bag-info.txt", "bag-info-line", "cannot be read as \(decoded.name) text", severity: .warning, section: "2.1.1"))
        }
        let labels = text.map(BagInfo.labels) ?? []
        guard let value = labels.first(where: { $0.0 == "Payload-Oxum" })?.1 else {
            problems.append(Problem("bag-info.txt", "payload-oxum", "no Payload-Oxum: a bag should give its payload's size and file count, the quick check before the checksums", severity: .warning, section: "2.2.2"))
            return
        }
        let parts = value.split(separator: ".")
        guard parts.count == 2, let octets = Int64(parts[0]), let count = Int(parts[1]) else {
            problems.append(Problem("bag-info.txt", "payload-oxum", "\"\(value)\" is not <bytes>.<files>", section: "2.2.2"))
            return
        }
        // The payload's bytes as counted while it was read, less Finder's files.
        let actualOctets = finderFiles.reduce(bag.index.payloadBytes) { $0 - (bag.files[$1]?.size ?? 0) }
        if octets != actualOctets || count != payload.count {
            problems.append(Problem("bag-info.txt", "payload-oxum", "says \(octets) bytes in \(count) files; the payload holds \(actualOctets) bytes in \(payload.count) files", section: "2.2.2"))
        }
    }

    /// Names that differ only by case collide on macOS and Windows file
    /// systems. (Names that differ only by Unicode normalisation are equal
    /// Swift strings, so the readers already report them as duplicates.)
    /// Each is named with the first of its group in path order.
    ///
    /// A name already folded (ASCII without capitals, as nearly every path
    /// of a bundle is) is its own key, and no two such names are equal:
    /// every group holds a name folding changes. So only those are folded
    /// and grouped, each group joined by the one folded name equal to its
    /// key, if the bag has it; the 17,000 paths of a bundle are neither
    /// sorted nor each put in a table.
    private static func collisions(_ bag: BagContents, _ payload: [String], _ problems: inout [Problem]) {
        var groups: [String: [String]] = [:]
        for path in payload where !BagNames.isFolded(path) { groups[BagNames.folded(path), default: []].append(path) }
        for key in Array(groups.keys) {
            // The bag's own name, as it is: equal to the key as Swift
            // compares strings, folded already, so not in the group yet.
            if let file = bag.files[key], BagNames.isFolded(file.path) { groups[key]?.append(file.path) }
        }
        var found: [Problem] = []
        for group in groups.values where group.count > 1 {
            let sorted = group.sorted()
            for path in sorted.dropFirst() {
                found.append(Problem(path, "name-collision", "differs from \(sorted[0]) only by case", severity: .warning))
            }
        }
        problems += found.sorted { $0.path < $1.path }
    }
}

/// Tag files as bagit.txt's Tag-File-Character-Encoding declares them (RFC
/// 8493 §2.1.1), turned into UTF-8 with LF line endings (§2.1.3 allows LF,
/// CRLF and CR) for the parsers, which read UTF-8 lines.
/// A manifest parsed by `BagRules.parse`, with what it was read as.
struct ParsedManifest {
    var encoding: String
    var version: String?
    /// Each path listed, made normal, to its checksum (lowercase).
    var entries: [String: String]
    var problems: [Problem]
    /// The entries whose file is not in the bag whole with the checksum
    /// listed, and why; every other entry's file matched. Found once, as
    /// the manifest is parsed, for the rules and for a zip's confirmation
    /// alike: over 17,000 entries, each look at a file costs more than
    /// the comparison it serves.
    var unmatched: [String: Unmatched] = [:]
    /// How many entries are under data/.
    var payloadEntries = 0

    enum Unmatched: Equatable {
        case absent, damaged
        /// The file was hashed before this manifest named its algorithm.
        case notHashed
        case differs(actual: String)
    }

    /// How many payload files the manifest lists that are in the bag
    /// (whole or not), and how many of those matched.
    var payloadPresent: (listed: Int, matched: Int) {
        var absent = 0, other = 0
        for (path, why) in unmatched where PathBytes.hasPrefix(path, "data/") {
            if why == .absent { absent += 1 } else { other += 1 }
        }
        return (payloadEntries - absent, payloadEntries - absent - other)
    }
}

struct TagText {
    enum Kind { case utf8, utf16, utf16LE, utf16BE, latin1 }
    let kind: Kind
    /// An encoding mcpack does not know: read as UTF-8.
    let unknown: Bool
    let name: String

    init(encoding: String?) {
        name = encoding ?? "UTF-8"
        let key = (encoding ?? "UTF-8").uppercased().filter { $0.isLetter || $0.isNumber }
        switch key {
        case "UTF8", "USASCII", "ASCII": (kind, unknown) = (.utf8, false)
        case "UTF16": (kind, unknown) = (.utf16, false)
        case "UTF16LE": (kind, unknown) = (.utf16LE, false)
        case "UTF16BE": (kind, unknown) = (.utf16BE, false)
        case "ISO88591", "LATIN1", "ISOLATIN1", "L1", "CP819", "IBM819", "ISOIR100", "ISO885911987": (kind, unknown) = (.latin1, false)
        default: (kind, unknown) = (.utf8, true)
        }
    }

    /// The text as UTF-8 with LF line endings and no byte order mark; nil
    /// when it is not in the encoding.
    func utf8(_ data: Data) -> Data? {
        let string: String?
        switch kind {
        case .utf8:
            let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? Data(data.dropFirst(3)) : data
            // The usual case, mcpack's own: checked, and given back as it is.
            // (Its bytes searched in place: a Data's own iterator costs tens of
            // instructions a byte, and a payload manifest is megabytes.)
            if !body.withUnsafeBytes({ $0.contains(0x0D) }) { return String(data: body, encoding: .utf8) == nil ? nil : body }
            string = String(data: body, encoding: .utf8)
        case .utf16, .utf16LE, .utf16BE:
            if data.starts(with: [0xFF, 0xFE]) && kind != .utf16BE {
                string = String(data: Data(data.dropFirst(2)), encoding: .utf16LittleEndian)
            } else if data.starts(with: [0xFE, 0xFF]) && kind != .utf16LE {
                string = String(data: Data(data.dropFirst(2)), encoding: .utf16BigEndian)
            } else {
                // No byte order mark: UTF-16 is big-endian (RFC 2781 §4.3).
                string = String(data: data, encoding: kind == .utf16LE ? .utf16LittleEndian : .utf16BigEndian)
            }
        case .latin1:
            string = String(data: data, encoding: .isoLatin1)
        }
        guard var text = string else { return nil }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        if text.utf8.contains(0x0D) {
            text = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        }
        return Data(text.utf8)
    }
}
