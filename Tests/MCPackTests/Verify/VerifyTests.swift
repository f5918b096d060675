import Foundation
import MCPackSchema
import Archiving
import Hashing
@testable import MCPackKit
import Testing

/// Builds a bundle, damages it one way at a time, and checks that verify
/// says exactly what and where, with the right exit status.
@Suite struct VerifyTests {
    static let name = "test-bundle-1.0.0"

    /// A built bundle's entries, in archive order.
    static func builtEntries(_ project: TestProject) throws -> [(String, Data)] {
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        let reader = try ArchiveReader(path: project.url("dist/\(name).zip").path)
        var entries: [(String, Data)] = []
        while let entry = try reader.next() {
            var data = Data()
            try reader.readData { data.append(contentsOf: $0) }
            entries.append((entry.path!, data))
        }
        return entries
    }

    /// Writes entries as a zip with the kit's own writer.
    static func write(_ entries: [(String, Data)], to url: URL) throws {
        ProcessSetUp.done
        let writer = try ArchiveWriter(path: url.path, format: .zip)
        for (path, data) in entries {
            try writer.add(path: path, data: data, mtime: Builder.defaultSourceDate, compress: true)
        }
        _ = try writer.finish()
    }

    static func verify(_ path: URL, in project: TestProject, _ extra: [String] = []) throws -> RunResult {
        try MCPackBinary.run(["verify", path.path] + extra, in: project.root)
    }

    /// Verifies an archive damaged in place, expecting exit 1: the report,
    /// and its errors other than the .sha256 check (which the damage to the
    /// archive's own bytes trips as well).
    static func verifyDamaged(_ url: URL, in project: TestProject) throws -> (json: [String: Any], errors: [[String: Any]]) {
        let result = try verify(url, in: project, ["--json"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let errors = (json["problems"] as? [[String: Any]] ?? []).filter { $0["severity"] as? String == "error" && $0["rule"] as? String != "archive-checksum" }
        return (json, errors)
    }

    @Test func aFreshBuildVerifiesClean() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        let result = try Self.verify(project.url("dist/\(Self.name).zip"), in: project, ["--json"])
        #expect(result.status == 0, "\(result.stdout)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["ok"] as? Bool == true)
        #expect((json["problems"] as? [Any])?.isEmpty == true)
        #expect(((json["stats"] as? [String: Any])?["files"] as? Int ?? 0) > 50)
        // and the unpacked folder too
        let folder = try Self.verify(try project.unpacked(), in: project)
        #expect(folder.status == 0, "\(folder.stdout)")
    }

    /// A bag unpacked and opened in Finder gains .DS_Store and ._ files:
    /// the sender did not put them there, so they are named as a warning
    /// and left out of the Oxum, while any other unlisted file still fails.
    @Test func findersFilesInAnUnpackedBagWarnOthersFail() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        let bag = try project.unpacked()
        for path in ["data/.DS_Store", "data/document/._master.dzi", ".DS_Store"] {
            try Data("Bud1".utf8).write(to: bag.appendingPathComponent(path))
        }
        let result = try Self.verify(bag, in: project, ["--json"])
        #expect(result.status == 0, "\(result.stdout)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let problems = json["problems"] as? [[String: Any]] ?? []
        let finder = problems.filter { $0["rule"] as? String == "finder-metadata" }.compactMap { $0["path"] as? String }
        #expect(finder == ["data/.DS_Store", "data/document/._master.dzi"], "\(problems)")
        #expect(!problems.contains { $0["severity"] as? String == "error" }, "\(problems)")

        try Data("mine".utf8).write(to: bag.appendingPathComponent("data/notes.txt"))
        let extra = try Self.verify(bag, in: project, ["--json"])
        #expect(extra.status == 1, "\(extra.stdout)")
        #expect(extra.stdout.contains("\"complete\"") && extra.stdout.contains("data/notes.txt"), "\(extra.stdout)")
    }

    struct Damage: Sendable, CustomTestStringConvertible {
        var name: String
        var change: @Sendable (inout [(String, Data)]) -> Void
        /// (entry, rule) pairs the report must hold.
        var expect: [(String, String)]
        var testDescription: String { name }
    }

    static let damages: [Damage] = [
        Damage(name: "a byte flipped in a tile", change: { entries in
            let i = entries.firstIndex { $0.0.hasSuffix("master_files/10/1_1.jpeg") }!
            entries[i].1[entries[i].1.count / 2] ^= 0x01
        }, expect: [("data/document/master_files/10/1_1.jpeg", "fixity")]),
        Damage(name: "a byte flipped in a manifest line", change: { entries in
            let i = entries.firstIndex { $0.0.hasSuffix("/manifest-sha256.txt") }!
            entries[i].1[3] = entries[i].1[3] == 0x30 ? 0x31 : 0x30
        }, expect: [("manifest-sha256.txt", "fixity"), ("data/" + AssetCatalog.categoryImagePath(1), "fixity")]),
        Damage(name: "a byte flipped in a tag file", change: { entries in
            let i = entries.firstIndex { $0.0.hasSuffix("/bag-info.txt") }!
            entries[i].1[0] = 0x58
        }, expect: [("bag-info.txt", "fixity")]),
        Damage(name: "an entry removed", change: { entries in
            entries.removeAll { $0.0.hasSuffix("data/" + AssetCatalog.categoryImagePath(2)) }
        }, expect: [("data/" + AssetCatalog.categoryImagePath(2), "missing"), ("bag-info.txt", "payload-oxum"),
                    ("data/" + AssetCatalog.categoryImagePath(2), "categories-match"),
                    ("data/\(AssetCatalog.categoriesFolder)/Category2.imageset/Contents.json", "catalog-contents")]),
        Damage(name: "a tile removed", change: { entries in
            entries.removeAll { $0.0.hasSuffix("master_files/9/1_0.jpeg") }
        }, expect: [("data/document/master_files/9/1_0.jpeg", "missing"), ("data/document/master_files/9/1_0.jpeg", "pyramid-complete")]),
        Damage(name: "an entry added", change: { entries in
            entries.append(("\(VerifyTests.name)/data/extra.txt", Data("hello".utf8)))
        }, expect: [("data/extra.txt", "complete"), ("bag-info.txt", "payload-oxum")]),
        Damage(name: "an entry duplicated", change: { entries in
            let i = entries.firstIndex { $0.0.hasSuffix("data/clauses.json") }!
            entries.append(entries[i])
        }, expect: [("\(VerifyTests.name)/data/clauses.json", "duplicate-entry")]),
        Damage(name: "an absolute path", change: { entries in
            entries.append(("/etc/evil", Data("x".utf8)))
        }, expect: [("/etc/evil", "unsafe-path")]),
        Damage(name: "a .. component", change: { entries in
            entries.append(("\(VerifyTests.name)/../../evil", Data("x".utf8)))
        }, expect: [("\(VerifyTests.name)/../../evil", "unsafe-path")]),
        Damage(name: "a control character in a name", change: { entries in
            entries.append(("\(VerifyTests.name)/data/bell\u{7}.txt", Data("x".utf8)))
        }, expect: [("\(VerifyTests.name)/data/bell\u{7}.txt", "unsafe-name")]),
        Damage(name: "a second top folder", change: { entries in
            entries.append(("other/data/x.txt", Data("x".utf8)))
        }, expect: [("\(VerifyTests.name).zip", "top-folder")]),
        Damage(name: "wrong Payload-Oxum and two corrupt files", change: { entries in
            for suffix in ["data/" + AssetCatalog.categoryImagePath(1), "data/clauses.json"] {
                let i = entries.firstIndex { $0.0.hasSuffix(suffix) }!
                entries[i].1[entries[i].1.count - 2] ^= 0x20
            }
            let i = entries.firstIndex { $0.0.hasSuffix("/bag-info.txt") }!
            let text = String(decoding: entries[i].1, as: UTF8.self)
            entries[i].1 = Data(text.replacingOccurrences(of: "Payload-Oxum: ", with: "Payload-Oxum: 9").utf8)
        }, expect: [("bag-info.txt", "payload-oxum"), ("data/" + AssetCatalog.categoryImagePath(1), "fixity"), ("data/clauses.json", "fixity")]),
    ]

    @Test(arguments: damages)
    func damageIsFoundAndNamed(_ damage: Damage) throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        var entries = try Self.builtEntries(project)
        damage.change(&entries)
        let damaged = project.url("damaged/\(Self.name).zip")
        try FileManager.default.createDirectory(at: damaged.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.write(entries, to: damaged)
        let result = try Self.verify(damaged, in: project, ["--json"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let problems = json["problems"] as? [[String: Any]] ?? []
        for (path, rule) in damage.expect {
            #expect(problems.contains { $0["path"] as? String == path && $0["rule"] as? String == rule },
                    "no \(rule) problem for \(path) in \(problems)")
        }
        let text = try Self.verify(damaged, in: project)
        #expect(text.status == 1)
        #expect(text.stdout.contains("invalid:"))
    }

    @Test func aTruncatedArchiveIsInvalid() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        _ = try Self.builtEntries(project)
        let data = try Data(contentsOf: project.url("dist/\(Self.name).zip"))
        for format in ["zip", "tar.gz"] {
            let source = format == "zip" ? data : try {
                try project.edit("bundle.toml", #"format = "zip""#, #"format = "tar.gz""#)
                #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
                return try Data(contentsOf: project.url("dist/\(Self.name).tar.gz"))
            }()
            let cut = project.url("cut/\(Self.name).\(format)")
            try FileManager.default.createDirectory(at: cut.deletingLastPathComponent(), withIntermediateDirectories: true)
            try source.prefix(source.count * 2 / 3).write(to: cut)
            let result = try Self.verify(cut, in: project, ["--json"])
            #expect(result.status == 1, "\(format): \(result.stdout)\(result.stderr)")
            // What was never read is summed up once, not listed file by file.
            do {
                let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
                let problems = json["problems"] as? [[String: Any]] ?? []
                let missing = problems.filter { $0["rule"] as? String == "missing" || $0["rule"] as? String == "pyramid-complete" }
                #expect(missing.count <= 2, "\(format): \(missing.count) missing lines")
                #expect(missing.contains { ($0["message"] as? String ?? "").contains("were not reached: reading stopped") }, "\(format): \(problems)")
            }
        }
    }

    /// One byte flipped inside one stored tile of the zip file itself (its
    /// CRC no longer matches): that tile is named, and nothing else. It used
    /// to stop the read there and call every later file missing.
    @Test func aByteFlippedInTheArchiveNamesOnlyThatEntry() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        let entries = try Self.builtEntries(project)
        let tile = try #require(entries.first { $0.0.hasSuffix("master_files/10/1_1.jpeg") })
        let url = project.url("dist/\(Self.name).zip")
        var zip = try Data(contentsOf: url)
        // From the middle: every tile starts with the same JPEG headers.
        let middle = tile.1.index(tile.1.startIndex, offsetBy: tile.1.count / 2)
        let at = try #require(zip.range(of: tile.1[middle..<middle + 64]), "the tile is stored, so its bytes appear as they are")
        #expect(zip[at.upperBound...].range(of: tile.1[middle..<middle + 64]) == nil, "those bytes are this tile's alone")
        zip[at.lowerBound + 32] ^= 0x01
        try zip.write(to: url)
        let (_, errors) = try Self.verifyDamaged(url, in: project)
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?["path"] as? String == tile.0 && errors.first?["rule"] as? String == "archive-damaged", "\(errors)")
    }

    /// A tile's CRC-32 rewritten alike in its local header and the central
    /// directory: the bytes still match the manifest, but unzip refuses the
    /// entry. With no .sha256 beside it verify reads every CRC and names it;
    /// with the .sha256 (which mcpack writes) the archive's own digest does.
    @Test func aCRCRewrittenInBothPlacesIsNotPassed() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        _ = try Self.builtEntries(project)
        let url = project.url("dist/\(Self.name).zip")
        let name = Array("\(Self.name)/data/document/master_files/10/1_1.jpeg".utf8)
        let entry = try #require(ZipDirectory.entries(of: url.path)?.first { $0.name == name })
        var zip = try Data(contentsOf: url)
        let local = Int(entry.localHeader)
        #expect(zip[local..<local + 4] == Data([0x50, 0x4B, 0x03, 0x04]))
        zip[local + 14] ^= 0x01
        // The central directory's record of the entry: its name follows 46 bytes of fields.
        var record: Int?
        var from = zip.startIndex
        while record == nil, let found = zip.range(of: Data([0x50, 0x4B, 0x01, 0x02]), in: from..<zip.endIndex) {
            if zip.count >= found.lowerBound + 46 + name.count, zip[(found.lowerBound + 46)..<(found.lowerBound + 46 + name.count)] == Data(name) {
                record = found.lowerBound
            }
            from = found.upperBound
        }
        let central = try #require(record, "the entry's central directory record")
        zip[central + 16] ^= 0x01
        try zip.write(to: url)
        #expect(ZipDirectory.entries(of: url.path)?.first { $0.name == name }?.crc32 == entry.crc32 ^ 0x01)

        let checksum = try Self.verify(url, in: project, ["--json"])
        #expect(checksum.status == 1 && checksum.stdout.contains("archive-checksum"), "the .sha256 names the changed archive: \(checksum.stdout)")
        try FileManager.default.removeItem(at: URL(fileURLWithPath: url.path + ".sha256"))
        let (_, errors) = try Self.verifyDamaged(url, in: project)
        #expect(errors.contains { ($0["path"] as? String ?? "").hasSuffix("master_files/10/1_1.jpeg") && $0["rule"] as? String == "archive-damaged" },
                "\(errors)")
    }

    /// The manifest itself damaged inside the zip (its deflated bytes): it
    /// is named once, and the files it would have listed are not each
    /// called unlisted.
    @Test func aDamagedManifestIsNamedWithoutAFlood() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        let built = try Self.builtEntries(project)
        let url = project.url("dist/\(Self.name).zip")
        var zip = try Data(contentsOf: url)
        let name = Data("\(Self.name)/manifest-sha256.txt".utf8)
        let at = try #require(zip.range(of: name), "the first match is the local header's name")
        let header = at.lowerBound - 30
        #expect(zip[header..<header + 4] == Data([0x50, 0x4B, 0x03, 0x04]))
        let extra = Int(zip[header + 28]) | Int(zip[header + 29]) << 8
        zip[at.upperBound + extra + 20] ^= 0x55
        try zip.write(to: url)
        let (json, errors) = try Self.verifyDamaged(url, in: project)
        // One line, naming the manifest; and the read went on past it to
        // every other entry (the zip's directory says where each starts).
        #expect(errors.count == 1, "\(errors.count) errors: \(errors.prefix(5))")
        #expect(errors.first?["path"] as? String == "\(Self.name)/manifest-sha256.txt" && errors.first?["rule"] as? String == "archive-damaged", "\(errors)")
        let files = (json["stats"] as? [String: Any])?["files"] as? Int ?? 0
        #expect(files == built.count, "read \(files) of \(built.count) files")
    }

    /// Found by scripts/campaign.py: with the archive alone (no .sha256),
    /// these passed verify while unzip, gzip -t and tar refuse them.
    @Test func damageOnlyOtherToolsNoticedIsFound() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        _ = try Self.builtEntries(project)
        let zip = try Data(contentsOf: project.url("dist/\(Self.name).zip"))
        try project.edit("bundle.toml", #"format = "zip""#, #"format = "tar.gz""#)
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        let gzip = try Data(contentsOf: project.url("dist/\(Self.name).tar.gz"))

        // The central directory's name of the last entry, one letter changed.
        var renamed = zip
        let record = try #require(renamed.lastRange(of: Data([0x50, 0x4B, 0x01, 0x02])))
        renamed[record.lowerBound + 46 + 2] ^= 0x01
        var method = zip
        method[record.lowerBound + 10 + 1] = 0x2B
        var crc = gzip
        crc[crc.count - 6] ^= 0xFF
        var length = gzip
        length[length.count - 2] ^= 0x01
        let cases: [(String, String, Data, String)] = [
            ("end record cut off", "zip", zip.dropLast(22), "truncated"),
            ("central directory cut", "zip", zip.dropLast(100), "truncated"),
            ("central directory name changed", "zip", renamed, "zip-directory"),
            ("central directory compression method changed", "zip", method, "zip-directory"),
            ("gzip CRC-32 changed", "tar.gz", crc, "gzip-stream"),
            ("gzip length changed", "tar.gz", length, "gzip-stream"),
            ("bytes after the gzip stream", "tar.gz", gzip + Data("junk".utf8), "gzip-stream"),
        ]
        for (what, format, data, rule) in cases {
            let damaged = project.url("damaged/\(Self.name).\(format)")
            try FileManager.default.createDirectory(at: damaged.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(data).write(to: damaged)
            let result = try Self.verify(damaged, in: project)
            #expect(result.status == 1, "\(what): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains(": \(rule): ") || result.stderr.contains(": \(rule): "), "\(what): \(result.stdout)\(result.stderr)")
        }
        // and the archives as built still verify
        for format in ["zip", "tar.gz"] {
            let result = try Self.verify(project.url("dist/\(Self.name).\(format)"), in: project)
            #expect(result.status == 0, "\(format): \(result.stdout)\(result.stderr)")
        }
    }

    @Test func theChecksumFileBesideTheArchiveIsChecked() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        _ = try Self.builtEntries(project)
        let sums = project.url("dist/\(Self.name).zip.sha256")
        var text = try String(contentsOf: sums, encoding: .utf8)
        text = (text.hasPrefix("0") ? "1" : "0") + text.dropFirst()
        try text.write(to: sums, atomically: true, encoding: .utf8)
        let result = try Self.verify(project.url("dist/\(Self.name).zip"), in: project)
        #expect(result.status == 1)
        #expect(result.stdout.contains("\(Self.name).zip: archive-checksum: SHA-256"))
    }

    /// Entries only a hand-made tar can hold: links, devices, FIFOs, names
    /// that are not UTF-8, and a decompression bomb.
    @Test(arguments: [
        ("symlink", "unsafe-entry", "t = tarfile.TarInfo(top + '/data/link'); t.type = tarfile.SYMTYPE; t.linkname = '/etc/passwd'; tar.addfile(t)"),
        ("hardlink", "unsafe-entry", "t = tarfile.TarInfo(top + '/data/hard'); t.type = tarfile.LNKTYPE; t.linkname = '/etc/passwd'; tar.addfile(t)"),
        ("device", "unsafe-entry", "t = tarfile.TarInfo(top + '/data/dev'); t.type = tarfile.CHRTYPE; t.devmajor = 1; t.devminor = 3; tar.addfile(t)"),
        ("fifo", "unsafe-entry", "t = tarfile.TarInfo(top + '/data/fifo'); t.type = tarfile.FIFOTYPE; tar.addfile(t)"),
        ("non-UTF-8 name", "unsafe-name", "t = tarfile.TarInfo(top + '/data/bad\\udcff.txt'); t.size = 1; tar.addfile(t, io.BytesIO(b'x'))"),
        ("bomb", "limits", "t = tarfile.TarInfo(top + '/data/zeros.bin'); t.size = 300 << 20; tar.addfile(t, Zeros(t.size))"),
    ])
    func unsafeTarEntriesAreReported(_ kind: String, _ rule: String, _ code: String) throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        _ = try Self.builtEntries(project)
        let unpack = try project.unpacked().deletingLastPathComponent()
        let script = """
            import io, os, sys, tarfile
            class Zeros(io.RawIOBase):
                def __init__(self, n): self.n = n
                def readable(self): return True
                def readinto(self, b):
                    k = min(len(b), self.n); b[:k] = bytes(k); self.n -= k; return k
            top = '\(Self.name)'
            with tarfile.open(sys.argv[1], 'w:gz', format=tarfile.PAX_FORMAT, encoding='utf-8', errors='surrogateescape') as tar:
                tar.add(top)
                \(code)
            """
        try script.write(to: project.url("make.py"), atomically: true, encoding: .utf8)
        let archive = project.url("\(Self.name).tar.gz")
        let made = try MCPackBinary.tool("python3", [project.url("make.py").path, archive.path], in: unpack)
        #expect(made.status == 0, "\(made.stdout)")
        let result = try Self.verify(archive, in: project, ["--json"])
        #expect(result.status == 1, "\(kind): \(result.stdout)\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let problems = json?["problems"] as? [[String: Any]] ?? []
        #expect(problems.contains { $0["rule"] as? String == rule && ($0["path"] as? String)?.contains("data/") == true },
                "\(kind): \(problems)")
        #expect(!FileManager.default.fileExists(atPath: "/etc/evil"))
    }

    /// A bag made by bagit.py (the reference tool), serialized with tar,
    /// verifies clean: the same rules hold for bags mcpack did not make.
    @Test func aBagitPyBagVerifiesClean() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-bagit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bag = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: bag.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("first".utf8).write(to: bag.appendingPathComponent("a.txt"))
        try Data("second 100%".utf8).write(to: bag.appendingPathComponent("sub/b c.txt"))
        let made = try MCPackBinary.tool("bagit.py", ["--sha256", "--md5", "--contact-name", "Test", "photos"], in: folder)
        #expect(made.status == 0, "bagit.py: \(made.stdout)")
        let tar = try MCPackBinary.tool("tar", ["-czf", "photos.tar.gz", "photos"], in: folder)
        #expect(tar.status == 0)
        let result = try MCPackBinary.run(["verify", "photos.tar.gz"], in: folder)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let unpacked = try MCPackBinary.run(["verify", "photos"], in: folder)
        #expect(unpacked.status == 0, "\(unpacked.stdout)\(unpacked.stderr)")
        // and a damaged one is caught, naming the file
        try Data("tampered".utf8).write(to: bag.appendingPathComponent("data/sub/b c.txt"))
        let damaged = try MCPackBinary.run(["verify", "photos"], in: folder)
        #expect(damaged.status == 1)
        #expect(damaged.stdout.contains("data/sub/b c.txt: fixity: md5"))
        #expect(damaged.stdout.contains("data/sub/b c.txt: fixity: sha256"))
    }

    @Test func notAnArchiveCannotBeVerified() throws {
        let folder = FileManager.default.temporaryDirectory
        let file = folder.appendingPathComponent("mcpack-not-\(UUID().uuidString).zip")
        try Data("this is not an archive".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try MCPackBinary.run(["verify", file.path], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("not a zip or tar archive"))
        let missing = try MCPackBinary.run(["verify", "/nonexistent/x.zip"], in: folder)
        #expect(missing.status == 2)
    }

    /// verify in a project names the archive it verified, and the project,
    /// not bundle.toml alone.
    @Test func projectVerifyNamesTheArchiveItVerified() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        let unbuilt = try MCPackBinary.run(["verify"], in: project.root)
        #expect(unbuilt.stdout.contains("invalid: dist/test-bundle-1.0.0.zip and its project bundle.toml: 1 problem"), "\(unbuilt.stdout)")
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        let verified = try MCPackBinary.run(["verify"], in: project.root)
        #expect(verified.status == 0)
        #expect(verified.stdout.contains("valid: dist/test-bundle-1.0.0.zip and its project bundle.toml ("), "\(verified.stdout)")
        #expect(!verified.stdout.contains("valid: bundle.toml"), "\(verified.stdout)")
        let json = try MCPackBinary.run(["verify", "--json"], in: project.root)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
        #expect(report["target"] as? String == "dist/test-bundle-1.0.0.zip" && report["project"] as? String == "bundle.toml", "\(report)")
        // An archive verified alone has no project.
        let alone = try MCPackBinary.run(["verify", "--json", "dist/test-bundle-1.0.0.zip"], in: project.root)
        let aloneReport = try #require(try JSONSerialization.jsonObject(with: Data(alone.stdout.utf8)) as? [String: Any])
        #expect(aloneReport["project"] == nil && aloneReport["target"] as? String == "dist/test-bundle-1.0.0.zip", "\(aloneReport)")
    }

    @Test func projectVerifySaysWhichInputsChanged() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        let before = try MCPackBinary.run(["verify"], in: project.root)
        #expect(before.status == 1)
        #expect(before.stdout.contains("archive-missing"))
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        let clean = try MCPackBinary.run(["verify"], in: project.root)
        #expect(clean.status == 0, "\(clean.stdout)")
        try project.edit("assets/clauses.toml", "Also still law.", "Also still law, today.")
        let stale = try MCPackBinary.run(["verify"], in: project.root)
        #expect(stale.status == 1)
        #expect(stale.stdout.contains("assets/clauses.toml: archive-stale: changed since dist/test-bundle-1.0.0.zip was built"))
        try project.edit("assets/clauses.toml", ##""#1E3A8B""##, #""blue""#)
        let bad = try MCPackBinary.run(["verify"], in: project.root)
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("clause \"40\".colour"))
    }
}

/// A IIIF pyramid is checked as a Deep Zoom one is: every tile its
/// info.json implies, and no other.
@Suite struct IIIFPyramidVerifyTests {
    @Test func aMissingOrStrayTileIsNamed() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.edit("bundle.toml", "overlap = 1", "overlap = 1\nlayout = \"iiif3\"\niiif_base_url = \"https://example.org/iiif\"")
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        let bag = try project.unpacked()
        #expect(try VerifyTests.verify(bag, in: project).status == 0)

        // The whole 600 x 400 master at scale 4 is one tile of 150 x 100 px.
        let pyramid = "data/document/master"
        let tile = "\(pyramid)/0,0,600,400/150,100/0/default.jpg"
        let stray = "\(pyramid)/0,0,600,400/151,100/0/default.jpg"
        #expect(FileManager.default.fileExists(atPath: bag.appendingPathComponent(tile).path))
        try FileManager.default.createDirectory(at: bag.appendingPathComponent(stray).deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: bag.appendingPathComponent(tile), to: bag.appendingPathComponent(stray))
        let (_, errors) = try VerifyTests.verifyDamaged(bag, in: project)
        let pyramidErrors = errors.filter { $0["rule"] as? String == "pyramid-complete" }.compactMap { $0["path"] as? String }
        #expect(pyramidErrors.sorted() == [tile, stray].sorted(), "\(errors)")
    }
}

/// Names outside ASCII: libarchive converts them through the locale, and a
/// program starts in the ASCII "C" locale.
@Suite struct NonASCIINameTests {
    @Test func aZipWithAnAccentedNameVerifies() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-names-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bag = folder.appendingPathComponent("bag")
        try FileManager.default.createDirectory(at: bag.appendingPathComponent("data"), withIntermediateDirectories: true)
        let content = Data("hello".utf8)
        try content.write(to: bag.appendingPathComponent("data/café.txt"))
        try Data("BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n".utf8).write(to: bag.appendingPathComponent("bagit.txt"))
        try Data("\(Digest.hex(content))  data/café.txt\n".utf8).write(to: bag.appendingPathComponent("manifest-sha256.txt"))
        try Data("Payload-Oxum: 5.1\n".utf8).write(to: bag.appendingPathComponent("bag-info.txt"))
        try MCPackBinary.tool("python3", ["-c", """
            import zipfile, os
            with zipfile.ZipFile('bag.zip', 'w') as z:
                for root, _, files in sorted(os.walk('bag')):
                    for f in sorted(files): z.write(os.path.join(root, f))
            """], in: folder)
        // No LC_ALL or LANG from the test's environment: as a user's shell might be.
        let result = try MCPackBinary.run(["verify", "bag.zip"], in: folder, environment: ["LC_ALL": "", "LANG": "", "LC_CTYPE": ""])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("zip-directory") && !result.stdout.contains("missing"), "\(result.stdout)")
    }
}
