import Foundation
import Hashing
@testable import MCPackKit
import Testing

/// A bag written in code: the smallest valid one (one payload file, a
/// sha256 manifest, bag-info.txt with its Payload-Oxum, a tag manifest),
/// which each test changes to break, or keep, one rule of RFC 8493.
struct SmallBag: Sendable {
    var payload: [String: Data] = ["data/a.txt": Data("hi\n".utf8)]
    var bagit = "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n"
    var algorithms: [DigestAlgorithm] = [.sha256]
    /// Listed in the manifests but not in the bag (fetched later).
    var absent: [String: Data] = [:]
    /// A payload path as the manifests write it, where not as it is.
    var written: [String: String] = [:]
    /// bag-info.txt's text; nil: just the Payload-Oxum; "": none.
    var info: String?
    var fetch: String?
    var tagManifest = true
    /// Tag files added after the tag manifest is written (so not in it).
    var unlistedTags: [String: Data] = [:]
    /// Tag files other than bagit.txt, as their encoding writes them.
    var encode: @Sendable (String) -> Data = { Data($0.utf8) }
    var newline = "\n"

    static func hex(_ algorithm: DigestAlgorithm, _ data: Data) -> String {
        let digest = try! Digest(algorithm)
        digest.update(data)
        return digest.finish()
    }

    func files() -> [String: Data] {
        var files = payload
        files["bagit.txt"] = Data(bagit.utf8)
        let listed = payload.merging(absent) { a, _ in a }
        for algorithm in algorithms {
            let text = listed.keys.sorted().map { Self.hex(algorithm, listed[$0]!) + "  " + (written[$0] ?? $0) + newline }.joined()
            files["manifest-\(algorithm.rawValue).txt"] = encode(text)
        }
        let oxum = "Payload-Oxum: \(payload.values.reduce(0) { $0 + $1.count }).\(payload.count)"
        let infoText = info ?? oxum
        if !infoText.isEmpty { files["bag-info.txt"] = encode(infoText + newline) }
        if let fetch { files["fetch.txt"] = encode(fetch) }
        if tagManifest {
            let tags = files.filter { !$0.key.hasPrefix("data/") }
            files["tagmanifest-sha256.txt"] = encode(tags.keys.sorted().map { Self.hex(.sha256, tags[$0]!) + "  " + $0 + newline }.joined())
        }
        return files.merging(unlistedTags) { a, _ in a }
    }
}

/// What verify says of a bag: exit status and (path, rule, severity, section).
struct Verdict {
    var status: Int32
    var problems: [[String: Any]]
    /// bagit.py --validate's exit status on the same folder.
    var bagitPy: Int32

    func has(_ rule: String, _ severity: String = "error", path: String? = nil) -> Bool {
        problems.contains { $0["rule"] as? String == rule && $0["severity"] as? String == severity && (path == nil || $0["path"] as? String == path) }
    }
    func count(_ rule: String) -> Int { problems.filter { $0["rule"] as? String == rule }.count }
    var rules: [String] { problems.compactMap { $0["rule"] as? String }.sorted() }
}

@Suite struct RFC8493Tests {
    /// Writes the bag as a folder, and inside a zip, a tar.gz and a tar.zst;
    /// verifies each with --json and expects the same findings of all four
    /// (the archives add nothing, their top folder named like them).
    ///
    /// `archives: false` for names outside ASCII: mcpack's archive reader
    /// runs in the C locale, where libarchive cannot convert them
    /// ("Pathname cannot be converted from UTF-8 to current locale"), a
    /// limitation of the reader, not of these rules.
    static func check(_ bag: SmallBag, _ extra: [String] = [], archives: Bool = true, payloadFirst: Bool = false,
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> Verdict {
        ProcessSetUp.done
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-rfc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("bag")
        let files = bag.files()
        for (path, data) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        func run(_ target: URL) throws -> (Int32, [[String: Any]]) {
            let result = try MCPackBinary.run(["verify", target.path, "--json"] + extra, in: root)
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return (result.status, json?["problems"] as? [[String: Any]] ?? [])
        }
        let (status, problems) = try run(folder)
        func key(_ problems: [[String: Any]]) -> [String] {
            problems.map { "\($0["path"] ?? "") \($0["rule"] ?? "") \($0["severity"] ?? "") \($0["section"] ?? "")" }.sorted()
        }
        // Made with the usual tools, tag files first (as a folder's users
        // tar it) or, `payloadFirst`, last (as mcpack writes them).
        let tags = files.keys.filter { !$0.hasPrefix("data/") }.sorted(), payload = files.keys.filter { $0.hasPrefix("data/") }.sorted()
        let order = payloadFirst ? payload + tags : tags + payload
        let names = order.map { "bag/" + $0 }
        let zip = "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n    for name in sys.argv[2:]: z.write(name)\n"
        let makers: [(String, String, [String])] = [
            ("zip", "python3", ["-c", zip, "bag.zip"] + names),
            ("tar.gz", "tar", ["-czf", "bag.tar.gz"] + names),
            ("tar.zst", "tar", ["--zstd", "-cf", "bag.tar.zst"] + names),
        ]
        for (suffix, tool, arguments) in makers where archives {
            let archive = root.appendingPathComponent("bag.\(suffix)")
            let made = try MCPackBinary.tool(tool, arguments, in: root)
            #expect(made.status == 0, "\(suffix): \(made.stdout)", sourceLocation: sourceLocation)
            let (archiveStatus, archiveProblems) = try run(archive)
            #expect(archiveStatus == status, "\(suffix): exit \(archiveStatus), the folder \(status)", sourceLocation: sourceLocation)
            #expect(key(archiveProblems) == key(problems), "\(suffix) and the folder differ", sourceLocation: sourceLocation)
        }
        let python = try MCPackBinary.tool("bagit.py", ["--validate", folder.path], in: root)
        return Verdict(status: status, problems: problems, bagitPy: python.status)
    }

    @Test func theSmallestBagIsValid() throws {
        let verdict = try Self.check(SmallBag())
        #expect(verdict.status == 0 && verdict.problems.isEmpty, "\(verdict.problems)")
        #expect(verdict.bagitPy == 0)
    }

    // MARK: §2.2.3 fetch.txt

    /// §2.2.3: a fetch.txt whose file is present, its path percent-encoded.
    @Test func section2_2_3_aFetchTxtOfPresentFilesIsValid() throws {
        var bag = SmallBag()
        bag.payload["data/100%.txt"] = Data("x".utf8)
        bag.written["data/100%.txt"] = "data/100%25.txt"
        bag.fetch = "https://example.org/a.txt 3 data/a.txt\nhttps://example.org/p.txt - data/100%25.txt\n"
        let verdict = try Self.check(bag)
        #expect(verdict.status == 0 && verdict.problems.isEmpty, "\(verdict.problems)")
        // bagit.py (1.9.0) does not decode %25 in manifest paths (RFC 8493
        // §2.1.3 says to), so it looks for a file named "100%25.txt"
        #expect(verdict.bagitPy != 0)
    }

    /// §2.2.3: files fetch.txt names that are absent make the bag
    /// incomplete, said once; --allow-fetch makes that a warning.
    @Test func section2_2_3_fetchIncomplete() throws {
        var bag = SmallBag()
        bag.absent = ["data/b.txt": Data("later".utf8), "data/c.txt": Data("later too".utf8)]
        bag.fetch = "https://example.org/b.txt 5 data/b.txt\nhttps://example.org/c.txt - data/c.txt\n"
        let verdict = try Self.check(bag)
        #expect(verdict.status == 1)
        #expect(verdict.rules == ["fetch-incomplete"], "\(verdict.problems)")
        // Bound first: inside #expect, `as? String ?? ""` parsed as an
        // optional and the check ran on nothing.
        let message = verdict.problems.first?["message"] as? String ?? ""
        #expect(message.contains("2 files fetch.txt names are not in the bag; the bag is incomplete"), "\(verdict.problems)")
        #expect(verdict.problems.first?["section"] as? String == "2.2.3")
        let allowed = try Self.check(bag, ["--allow-fetch"])
        #expect(allowed.status == 0)
        #expect(allowed.has("fetch-incomplete", "warning"), "\(allowed.problems)")
        // bagit.py fails it on its Payload-Oxum (it counts the absent files as missing)
        #expect(verdict.bagitPy != 0)
    }

    /// §2.2.3: each line is URL LENGTH FILENAME, LENGTH a number or "-".
    @Test func section2_2_3_fetchLine() throws {
        var bag = SmallBag()
        // bagit.py accepts the first (it does not read the length), fails
        // with a traceback on the second, and refuses the third
        bag.fetch = "https://example.org/a.txt 3x data/a.txt\nhttps://example.org/a.txt\nnot-a-url 3 data/a.txt\n"
        let verdict = try Self.check(bag)
        #expect(verdict.status == 1)
        #expect(verdict.count("fetch-line") == 3, "\(verdict.problems)")
        // bagit.py does not check the length or the URL's form
        #expect(verdict.bagitPy != 0)
    }

    /// §2.2.3: each path inside data/: not absolute, no "..", no "~".
    @Test func section2_2_3_fetchPath() throws {
        var bag = SmallBag()
        bag.fetch = ["../x", "/etc/x", "~/x", "~user/x", "data/../../x", "bag-info.txt"].map { "https://example.org/x - \($0)\n" }.joined()
        let verdict = try Self.check(bag)
        #expect(verdict.status == 1)
        #expect(verdict.count("fetch-path") == 6, "\(verdict.problems)")
        // bagit.py refuses the others, but accepts ~user/x and bag-info.txt
        #expect(verdict.bagitPy != 0)
    }

    /// §2.2.3: no two lines for one file.
    @Test func section2_2_3_fetchDuplicate() throws {
        var bag = SmallBag()
        bag.fetch = "https://example.org/a.txt 3 data/a.txt\nhttps://example.org/b.txt 3 data/a.txt\n"
        let verdict = try Self.check(bag)
        #expect(verdict.status == 1)
        #expect(verdict.rules == ["fetch-duplicate"], "\(verdict.problems)")
        // bagit.py does not look for duplicates in fetch.txt
        #expect(verdict.bagitPy == 0)
    }

    /// §2.2.3: every fetched file is listed in every payload manifest.
    @Test func section2_2_3_fetchUnlisted() throws {
        var bag = SmallBag()
        bag.algorithms = [.sha256, .sha512]
        bag.fetch = "https://example.org/z.txt 3 data/z.txt\n"
        let verdict = try Self.check(bag)
        #expect(verdict.status == 1)
        #expect(verdict.count("fetch-unlisted") == 2, "\(verdict.problems)")
        // bagit.py does not compare fetch.txt with the manifests
        #expect(verdict.bagitPy == 0)
    }

    // MARK: §2.1.1 bagit.txt

    /// §2.1.1: exactly two lines, BagIt-Version then Tag-File-Character-Encoding, as spelt.
    @Test(arguments: [
        "BagIt-Version : 1.0\nTag-File-Character-Encoding: UTF-8\n",
        "Tag-File-Character-Encoding: UTF-8\nBagIt-Version: 1.0\n",
        "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\nContact-Name: x\n",
        "BagIt-Version:1.0\nTag-File-Character-Encoding: UTF-8\n",
        "BagIt-Version: 1\nTag-File-Character-Encoding: UTF-8\n",
    ])
    func section2_1_1_bagitTxtShape(_ text: String) throws {
        var bag = SmallBag()
        bag.bagit = text
        let verdict = try Self.check(bag)
        #expect(verdict.status == 1, "\(text.debugDescription): \(verdict.problems)")
        #expect(verdict.has("bagit-txt", path: "bagit.txt"), "\(verdict.problems)")
        // bagit.py (1.9.0) reads bagit.txt as any tag file: it accepts all these
        #expect(verdict.bagitPy == 0)
    }

    /// §2.1.1 kept: CRLF line endings and version 0.97 are fine.
    @Test func section2_1_1_bagitTxtKept() throws {
        for text in ["BagIt-Version: 1.0\r\nTag-File-Character-Encoding: UTF-8\r\n", "BagIt-Version: 0.97\nTag-File-Character-Encoding: UTF-8"] {
            var bag = SmallBag()
            bag.bagit = text
            let verdict = try Self.check(bag)
            #expect(verdict.status == 0 && verdict.problems.isEmpty, "\(text.debugDescription): \(verdict.problems)")
        }
    }

    // MARK: Warnings (SHOULD), and --strict

    /// §2.1.3: manifest paths are normalised; `./data/a.txt`, `data//a.txt`,
    /// `data/x/../a.txt` are warned of, and --strict makes that exit 1.
    @Test(arguments: ["./data/a.txt", "data//a.txt", "data/./a.txt", "data/x/../a.txt"])
    func section2_1_3_manifestPathNormal(_ written: String) throws {
        var bag = SmallBag()
        bag.written["data/a.txt"] = written
        let verdict = try Self.check(bag)
        #expect(verdict.status == 0)
        #expect(verdict.rules == ["manifest-path-normal"], "\(written): \(verdict.problems)")
        let strict = try Self.check(bag, ["--strict"])
        #expect(strict.status == 1)
        // bagit.py normalises the path silently: valid for both
        #expect(verdict.bagitPy == 0)
    }

    /// §2.4, §6.2: MD5 and SHA-1 alone are weak; with SHA-256 beside them, fine.
    @Test func section2_4_weakAlgorithm() throws {
        for (algorithms, weak) in [([DigestAlgorithm.md5], true), ([.sha1], true), ([.md5, .sha1], true), ([.md5, .sha256], false)] {
            var bag = SmallBag()
            bag.algorithms = algorithms
            let verdict = try Self.check(bag)
            #expect(verdict.status == 0)
            #expect(verdict.rules == (weak ? ["weak-algorithm"] : []), "\(algorithms): \(verdict.problems)")
            #expect(verdict.bagitPy == 0)
        }
        var bag = SmallBag()
        bag.algorithms = [.md5]
        #expect(try Self.check(bag, ["--strict"]).status == 1)
    }

    /// Tag files after the payload, as mcpack writes them: a zip's manifests
    /// are named by its central directory before any entry is read, a tar's
    /// only at its end, and each payload file is checked against every
    /// manifest all the same (read a second time for an algorithm other
    /// than SHA-256), whether it is whole or changed.
    @Test(arguments: [[DigestAlgorithm.sha256], [.sha512], [.md5, .sha1], [.sha256, .sha512]])
    func manifestsAfterThePayload(_ algorithms: [DigestAlgorithm]) throws {
        var bag = SmallBag()
        bag.algorithms = algorithms
        bag.payload["data/b.bin"] = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let whole = try Self.check(bag, payloadFirst: true)
        let weak = algorithms.allSatisfy { $0 == .md5 || $0 == .sha1 }
        #expect(whole.rules == (weak ? ["weak-algorithm"] : []), "\(algorithms): \(whole.problems)")
        // The manifests of the bag as it was, beside a payload file changed
        // since: every manifest says so.
        var changed = SmallBag()
        changed.algorithms = []
        changed.tagManifest = false
        changed.payload = bag.payload
        changed.payload["data/a.txt"] = Data("ho\n".utf8)
        changed.unlistedTags = bag.files().filter { !$0.key.hasPrefix("data/") }
        let verdict = try Self.check(changed, payloadFirst: true)
        #expect(verdict.status == 1)
        #expect(verdict.count("fixity") == algorithms.count, "\(algorithms): \(verdict.problems)")
    }

    /// §2.2.2: a bag should give its Payload-Oxum (a wrong one is an error).
    @Test func section2_2_2_payloadOxum() throws {
        for info in ["Contact-Name: Someone", ""] {
            var bag = SmallBag()
            bag.info = info
            let verdict = try Self.check(bag)
            #expect(verdict.status == 0)
            #expect(verdict.has("payload-oxum", "warning"), "\(verdict.problems)")
            #expect(verdict.bagitPy == 0)
        }
        var wrong = SmallBag()
        wrong.info = "Payload-Oxum: 4.1"
        let verdict = try Self.check(wrong)
        #expect(verdict.status == 1 && verdict.has("payload-oxum"), "\(verdict.problems)")
        #expect(verdict.has("fixity") == false)
        #expect(verdict.bagitPy != 0)
    }

    /// §2.2.2: bag-info.txt lines are `Label: value`, or continue one.
    @Test func section2_2_2_bagInfoLine() throws {
        var bag = SmallBag()
        bag.info = "Payload-Oxum: 3.1\nContact-Name: Someone\n  continued\nno colon here\n: no label"
        let verdict = try Self.check(bag)
        #expect(verdict.status == 0)
        #expect(verdict.count("bag-info-line") == 2 && verdict.rules == ["bag-info-line", "bag-info-line"], "\(verdict.problems)")
        #expect(try Self.check(bag, ["--strict"]).status == 1)
        bag.info = "Payload-Oxum: 3.1\nContact-Name: Someone\n  continued"
        #expect(try Self.check(bag).problems.isEmpty)
    }

    /// §2.2.1: a tag file no tag manifest lists is warned of; a bag with no
    /// tag manifest at all is not (tag manifests are optional).
    @Test func section2_2_1_tagUnlisted() throws {
        var bag = SmallBag()
        bag.unlistedTags = ["notes.txt": Data("x".utf8)]
        let verdict = try Self.check(bag)
        #expect(verdict.status == 0)
        #expect(verdict.rules == ["tag-unlisted"] && verdict.has("tag-unlisted", "warning", path: "notes.txt"), "\(verdict.problems)")
        #expect(verdict.bagitPy == 0)  // bagit.py does not look for tag files a tag manifest leaves out
        bag.tagManifest = false
        let none = try Self.check(bag)
        #expect(none.status == 0 && none.problems.isEmpty, "\(none.problems)")
    }

    // MARK: §2.1.1, §2.1.3 tag-file encodings and line endings

    static func utf16(_ text: String, bigEndian: Bool) -> Data {
        var data = Data(bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE])
        for unit in text.utf16 {
            data += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        return data
    }

    /// §2.1.1: tag files in the encoding bagit.txt declares, with a payload
    /// name outside ASCII; §2.1.3: LF, CRLF or CR.
    @Test(arguments: ["UTF-8", "UTF-8 BOM", "UTF-16 LE", "UTF-16 BE", "ISO-8859-1", "CRLF", "CR"])
    func section2_1_1_tagFileEncodings(_ kind: String) throws {
      for name in ["data/café.txt", "data/cafe.txt"] {
        var bag = SmallBag()
        bag.payload[name] = Data("x".utf8)
        switch kind {
        case "UTF-8 BOM": bag.encode = { Data([0xEF, 0xBB, 0xBF]) + Data($0.utf8) }
        case "UTF-16 LE":
            bag.bagit = "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-16\n"
            bag.encode = { Self.utf16($0, bigEndian: false) }
        case "UTF-16 BE":
            bag.bagit = "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-16\n"
            bag.encode = { Self.utf16($0, bigEndian: true) }
        case "ISO-8859-1":
            bag.bagit = "BagIt-Version: 1.0\nTag-File-Character-Encoding: ISO-8859-1\n"
            bag.encode = { $0.data(using: .isoLatin1)! }
        case "CRLF": bag.newline = "\r\n"
        case "CR": bag.newline = "\r"
        default: break
        }
        let verdict = try Self.check(bag, archives: name.utf8.allSatisfy { $0 < 0x80 })
        #expect(verdict.status == 0 && verdict.problems.isEmpty, "\(kind) \(name): \(verdict.problems)")
        #expect(verdict.bagitPy == 0, "\(kind) \(name)")
      }
    }

    /// §2.1.1 broken: a manifest in ISO-8859-1 while bagit.txt says UTF-8.
    @Test func section2_1_1_tagFileNotInItsEncoding() throws {
        var bag = SmallBag()
        bag.payload["data/café.txt"] = Data("x".utf8)
        bag.encode = { $0.data(using: .isoLatin1)! }
        let verdict = try Self.check(bag, archives: false)
        #expect(verdict.status == 1)
        #expect(verdict.has("manifest", path: "manifest-sha256.txt"), "\(verdict.problems)")
    }

    // MARK: Output

    /// The plain output names the RFC section; --json gives it as "section".
    @Test func findingsNameTheirSection() throws {
        // the older rules too: an unlisted payload file is §3
        var unlisted = SmallBag()
        unlisted.unlistedTags = ["data/extra.txt": Data("x".utf8)]
        unlisted.info = "Payload-Oxum: 4.2"
        let complete = try Self.check(unlisted)
        #expect(complete.problems.contains { $0["rule"] as? String == "complete" && $0["section"] as? String == "3" }, "\(complete.problems)")
        var bag = SmallBag()
        bag.fetch = "https://example.org/x - ../x\n"
        let verdict = try Self.check(bag)
        #expect(verdict.problems.first?["section"] as? String == "2.2.3", "\(verdict.problems)")
        #expect(verdict.problems.first?["line"] as? Int == 1, "each finding about one line names it: \(verdict.problems)")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-rfc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for (path, data) in bag.files() {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        let plain = try MCPackBinary.run(["verify", root.path], in: root)
        #expect(plain.status == 1)
        #expect(plain.stdout.contains("fetch.txt: fetch-path: line 1: \"../x\" is not a path inside data/; a fetched file belongs to the payload (RFC 8493 §2.2.3)"), "\(plain.stdout)")
    }
}
