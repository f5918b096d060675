import Archiving
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Hashing
@testable import MCPackBag
@testable import MCPackKit
import MCPackSchema
import Testing

/// The one reader of bags: what it refuses to hand over, what it keeps of
/// each entry, and that a folder and its archive read alike.
@Suite struct BagReaderTests {
    /// A folder of its own, removed by the caller.
    static func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func zip(_ entries: [(String, Data)], at url: URL) throws {
        ProcessSetUp.done
        let writer = try ArchiveWriter(path: url.path, format: .zip)
        for (path, data) in entries {
            try writer.add(path: path, data: data, mtime: Builder.defaultSourceDate, compress: true)
        }
        _ = try writer.finish()
    }

    /// Every entry the reader hands over, by path inside the bag.
    static func readAll(_ path: String, limits: BagLimits = BagLimits(), only: Set<String>? = nil,
                        keep: BagReader.Keep = BagReader.Keep(.whole, digests: [.sha256])) throws -> (files: [BagReader.File], reader: BagReader) {
        let reader = try BagReader(path, limits: limits, only: only) { _ in keep }
        var files: [BagReader.File] = []
        while let file = try reader.next() { files.append(file) }
        return (files, reader)
    }

    static let x = Data("x".utf8)

    /// An entry's name is text only when its bytes are UTF-8: ASCII and
    /// valid multi-byte names come back as they are; a stray byte, a lone
    /// continuation, an encoded surrogate, an overlong form or a cut
    /// sequence gives nil, however the decoder would have repaired it.
    @Test func entryNamesAreTextOnlyWhenUTF8() {
        for name in ["t/data/tiles/3_4.jpeg", "t/data/café.txt", "t/data/ŵyn/𝄞.txt", ""] {
            #expect(ArchiveNames.text(Array(name.utf8)) == name)
        }
        for bytes: [UInt8] in [[0x74, 0xFF], [0x80], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0x61, 0xE2, 0x82], [0xEF, 0xBF]] {
            #expect(ArchiveNames.text(bytes) == nil, "\(bytes)")
        }
        // What the decoder puts for a bad byte, written out, is valid.
        #expect(ArchiveNames.text([0xEF, 0xBF, 0xBD]) == "\u{FFFD}")
    }

    @Test func unsafeNamesAreReportedNotHandedOver() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("t.zip")
        try Self.zip([("t/bagit.txt", Self.x), ("t/../../evil", Self.x), ("/etc/evil", Self.x), ("t/data/bell\u{7}.txt", Self.x),
                      ("~root/evil", Self.x), ("t/data/ok.txt", Self.x)], at: archive)
        let (files, reader) = try Self.readAll(archive.path)
        #expect(files.map(\.entry.path) == ["bagit.txt", "data/ok.txt"])
        #expect(files.map(\.entry.top) == ["t", "t"])
        #expect(reader.issues.map(\.kind) == [.unsafeName(.dotDot), .unsafeName(.absolute), .unsafeName(.controlCharacters), .unsafeName(.home)])
        #expect(reader.issues.map(\.rule) == ["unsafe-path", "unsafe-path", "unsafe-name", "unsafe-path"])
        #expect(reader.issues.first?.path == "t/../../evil")
        #expect(reader.complete)
    }

    /// A scratch folder holding the bag folder t with its bagit.txt and an
    /// empty data/; the caller removes the scratch folder.
    static func bagFolder() throws -> (folder: URL, bag: URL) {
        let folder = try scratch()
        let bag = folder.appendingPathComponent("t")
        try FileManager.default.createDirectory(at: bag.appendingPathComponent("data"), withIntermediateDirectories: true)
        try x.write(to: bag.appendingPathComponent("bagit.txt"))
        return (folder, bag)
    }

    /// A link is never followed nor handed over, in a tar or in a folder.
    @Test func symbolicLinksAreReportedNotHandedOver() throws {
        let (folder, bag) = try Self.bagFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(atPath: bag.appendingPathComponent("data/link").path, withDestinationPath: "/etc/passwd")
        let made = try MCPackBinary.tool("tar", ["-czf", "t.tar.gz", "t"], in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        for path in [folder.appendingPathComponent("t.tar.gz").path, bag.path] {
            let (files, reader) = try Self.readAll(path)
            #expect(files.map(\.entry.path) == ["bagit.txt"], "\(path)")
            #expect(reader.issues.map(\.kind) == [.link], "\(path)")
            #expect(reader.issues.first?.rule == "unsafe-entry")
            #expect(reader.issues.first?.message == "a symbolic link; a bag holds regular files only")
        }
    }

    /// A folder's file whose name is not UTF-8 is named, its other bytes
    /// as \xNN, not passed over: no manifest can list it.
    @Test func aFolderNameThatIsNotUTF8IsReported() throws {
        let (folder, bag) = try Self.bagFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Made by its bytes: Foundation would make its paths UTF-8.
        let name = (Array(bag.appendingPathComponent("data").path.utf8) + [0x2F, 0x78, 0xFE]).map { CChar(bitPattern: $0) } + [0]
        let made = open(name, O_CREAT | O_WRONLY, 0o600)
        #expect(made >= 0)
        close(made)
        let (files, reader) = try Self.readAll(bag.path)
        #expect(files.map(\.entry.path) == ["bagit.txt"])
        #expect(reader.issues.map(\.kind) == [.notUTF8])
        #expect(reader.issues.first?.path == "data/x\\xFE")
        #expect(reader.issues.first?.message == "the name is not valid UTF-8")
    }

    /// A folder's files are read on every core ahead of the caller, and
    /// handed over in order all the same, each with its own bytes' digest; a
    /// file that cannot be read is said in its place; and `keep` is asked at
    /// most 48 files ahead of the one handed over, since a caller's `keep`
    /// may open a file for each (a Mac allows a process 256 by default).
    @Test func aFolderIsReadAheadAndHandedOverInOrder() throws {
        let (folder, bag) = try Self.bagFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = (0..<300).map { String(format: "data/%03d.txt", $0) }
        for (index, name) in names.enumerated() {
            try Data(String(repeating: "\(index) ", count: index + 1).utf8).write(to: bag.appendingPathComponent(name))
        }
        struct Refused: Error {}
        var asked = 0, handed = 0, mostAhead = 0
        let reader = try BagReader(bag.path) { entry in
            asked += 1
            mostAhead = max(mostAhead, asked - handed)
            if entry.path == "data/150.txt" { return BagReader.Keep.stream(digests: [.sha256]) { _ in throw Refused() } }
            return BagReader.Keep(.digestsOnly, digests: [.sha256])
        }
        var files: [BagReader.File] = []
        while let file = try reader.next() {
            handed += 1
            files.append(file)
            // Said between the files before it and those after.
            if file.entry.path == "data/149.txt" { #expect(reader.issues.isEmpty) }
            if file.entry.path == "data/151.txt" { #expect(reader.issues.count == 1) }
        }
        #expect(files.map(\.entry.path) == ["bagit.txt"] + names.filter { $0 != "data/150.txt" })
        for file in files.dropFirst() {
            let bytes = try Data(contentsOf: bag.appendingPathComponent(file.entry.path))
            #expect(file.digests[.sha256] == Digest.hex(bytes), "\(file.entry.path)")
            #expect(file.size == Int64(bytes.count))
        }
        #expect(reader.issues.map(\.kind) == [.unreadable])
        #expect(reader.issues.first?.path == "data/150.txt")
        #expect(asked == 301)
        // 48, and the file that cannot be read, never handed over.
        #expect(mostAhead <= 49, "keep was asked \(mostAhead) files ahead")
    }

    /// A zip's names as read, compared with its central directory's: the
    /// same names in the same order pass, and so do the same in another
    /// order; a name of the same length with one byte changed is said both
    /// ways (read, not named by the directory; named, not read).
    @Test func namesReadAreComparedWithTheCentralDirectoryByEveryByte() {
        let names: [[UInt8]] = [Array("bag/bagit.txt".utf8), Array("bag/data/a.txt".utf8), []]
        #expect(BagReader.directoryMismatches(streamed: names, directory: names).isEmpty)
        #expect(BagReader.directoryMismatches(streamed: names.reversed(), directory: names).isEmpty)
        var changed = names
        changed[1][9] = UInt8(ascii: "b")
        let found = BagReader.directoryMismatches(streamed: changed, directory: names).map { $0.0 }
        #expect(found == ["bag/data/b.txt", "bag/data/a.txt"])
    }

    /// A folder's tag files come first, then its payload in the byte order
    /// of the paths (a folder where its name and "/" sort), whole or `only`
    /// some of it.
    @Test func aFoldersTagFilesComeFirstThenItsPayloadInByteOrder() throws {
        let (folder, bag) = try Self.bagFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let payload = ["data/Z.txt", "data/a-b.txt", "data/a.txt", "data/a/b.txt", "data/a/c/d.txt", "data/a0.txt", "data/é.txt"]
        for name in ["manifest-sha256.txt", "bag-info.txt"] + payload.reversed() {
            let url = bag.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(name.utf8).write(to: url)
        }
        func handedOver(only: Set<String>? = nil) throws -> [String] {
            let reader = try BagReader(bag.path, only: only) { _ in BagReader.Keep(.digestsOnly, digests: [.sha256]) }
            var paths: [String] = []
            while let file = try reader.next() { paths.append(file.entry.path) }
            #expect(reader.issues.isEmpty)
            return paths
        }
        #expect(try handedOver() == ["bag-info.txt", "bagit.txt", "manifest-sha256.txt"] + payload)
        #expect(try handedOver(only: ["data/é.txt", "manifest-sha256.txt", "data/a/b.txt", "data/a-b.txt"])
            == ["manifest-sha256.txt", "data/a-b.txt", "data/a/b.txt", "data/é.txt"])

        // Its tag files and payload files together are counted against the
        // limit, before any is read.
        for (limit, read) in [(10, 10), (9, 0)] {
            var limits = BagLimits()
            limits.maxEntries = limit
            let (files, reader) = try Self.readAll(bag.path, limits: limits)
            #expect(files.count == read, "limit \(limit)")
            #expect(reader.issues.map(\.kind) == (read == 0 ? [.tooManyEntries] : []), "limit \(limit)")
        }
    }

    /// A file swapped for a FIFO after the listing and before its read is
    /// refused, and said why, where opening it waited for ever.
    @Test func aFileSwappedForAFIFOBeforeItsReadIsRefused() throws {
        let (folder, bag) = try Self.bagFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["data/a.txt", "data/b.txt"] { try Self.x.write(to: bag.appendingPathComponent(name)) }
        let swapped = bag.appendingPathComponent("data/b.txt").path
        // `keep` is asked of a file once the folder is listed and before it
        // is read: the first file's is the moment to swap the last.
        let reader = try BagReader(bag.path) { entry in
            if entry.path == "bagit.txt" {
                #expect(unlink(swapped) == 0)
                #expect(mkfifo(swapped, 0o600) == 0)
            }
            return BagReader.Keep(.digestsOnly, digests: [.sha256])
        }
        var files: [String] = []
        while let file = try reader.next() { files.append(file.entry.path) }
        #expect(files == ["bagit.txt", "data/a.txt"])
        #expect(reader.issues.map(\.kind) == [.unreadable])
        #expect(reader.issues.first?.path == "data/b.txt")
        #expect(reader.issues.first?.message == "cannot read the file: not a regular file")
    }

    /// The second of two equal names is not handed over; a name differing
    /// only in case is (a case-sensitive disk holds both), and said.
    @Test func duplicateAndCaseCollidingNames() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("t.zip")
        try Self.zip([("t/data/a.txt", Data("1".utf8)), ("t/data/a.txt", Data("2".utf8)), ("t/data/A.txt", Data("3".utf8)),
                      ("t/data/A.txt", Data("4".utf8)), ("t/./data//b.txt", Self.x), ("t/data/b.txt", Self.x)], at: archive)
        let (files, reader) = try Self.readAll(archive.path)
        #expect(files.map(\.entry.path) == ["data/a.txt", "data/A.txt", "data/b.txt"])
        #expect(files.first?.data == Data("1".utf8) && files[1].data == Data("3".utf8))
        #expect(reader.issues.map(\.kind) == [.duplicate, .caseCollision, .duplicate, .duplicate])
        #expect(reader.issues.map(\.path) == ["t/data/a.txt", "t/data/A.txt", "t/data/A.txt", "t/data/b.txt"])
        #expect(reader.issues[1].message == "differs from t/data/a.txt only by case")
        // A caller that cannot hold both (an unpacker) stops at the first.
        let strict = try BagReader(archive.path, refusing: { $0.kind == .duplicate }) { _ in .skip }
        #expect(try strict.next()?.entry.path == "data/a.txt")
        let refused = #expect(throws: BagReader.Issue.self) { try strict.next() }
        #expect(refused?.kind == .duplicate)
    }

    @Test func whatIsKeptIsWhatWasAskedFor() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let archive = folder.appendingPathComponent("t.zip")
        try Self.zip([("t/data/big.bin", big)], at: archive)
        let sha = Digest.hex(big)

        let head = try #require(try Self.readAll(archive.path, keep: BagReader.Keep(.head(10))).files.first)
        #expect(head.head == big.prefix(10))
        #expect(head.data == nil)
        #expect(head.digests.isEmpty)
        #expect(head.size == Int64(big.count))

        let whole = try #require(try Self.readAll(archive.path, keep: BagReader.Keep(.whole, digests: [.sha256, .md5])).files.first)
        #expect(whole.data == big)
        #expect(whole.head == nil)
        #expect(whole.digests[.sha256] == sha)
        #expect(whole.digests.count == 2)

        let digests = try #require(try Self.readAll(archive.path, keep: BagReader.Keep(.digestsOnly, digests: [.sha256])).files.first)
        #expect(digests.data == nil && digests.head == nil)
        #expect(digests.digests == [.sha256: sha])
        #expect(digests.size == Int64(big.count))

        var streamed = Data()
        let stream = try #require(try Self.readAll(archive.path, keep: BagReader.Keep.stream { streamed.append(contentsOf: $0) }).files.first)
        #expect(streamed == big)
        #expect(stream.data == nil)

        let skipped = try #require(try Self.readAll(archive.path, keep: .skip).files.first)
        #expect(skipped.size == Int64(big.count))
        #expect(skipped.data == nil && skipped.digests.isEmpty)
    }

    /// An entry past a limit ends the read there, and says where.
    @Test func aLimitStopsTheRead() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("t.zip")
        try Self.zip([("t/bagit.txt", Self.x), ("t/data/big.bin", Data(count: 5000)), ("t/data/z.txt", Self.x)], at: archive)
        var limits = BagLimits()
        limits.maxEntryBytes = 1000
        let (files, reader) = try Self.readAll(archive.path, limits: limits)
        #expect(files.map(\.entry.path) == ["bagit.txt"])
        #expect(reader.issues.map(\.kind) == [.tooLarge])
        #expect(reader.issues.first?.stops == true)
        #expect(!reader.complete)
        #expect(reader.stoppedAt == "in t/data/big.bin")
    }

    /// An archive and the folder it unpacks to give the same entries, with
    /// the same sizes and digests; `only` names the few a caller wants.
    @Test(arguments: ArchiveFormat.built)
    func aFolderAndItsArchiveReadAlike(_ format: ArchiveFormat) throws {
        ProcessSetUp.done
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bag = try Bag.assemble(top: "t-1", payload: [
            PayloadFile(path: "b.txt", bytes: Data("bb".utf8)),
            PayloadFile(path: "sub/a 100%.txt", bytes: Data("a".utf8)),
            PayloadFile(path: "B.png", bytes: Data("ccc".utf8)),
        ], info: [("Bundle-Name", "t")])
        let archive = folder.appendingPathComponent("t-1.\(format.fileExtension)")
        let written = try bag.write(to: archive.path, format: format, mtime: Builder.defaultSourceDate)
        let unpacked = try BagUnpacker.unpack(archive.path, into: folder.appendingPathComponent("unpacked"))

        let keep = BagReader.Keep(.whole, digests: [.sha256])
        let (fromArchive, archiveReader) = try Self.readAll(archive.path, keep: keep)
        let (fromFolder, folderReader) = try Self.readAll(unpacked.path, keep: keep)
        #expect(archiveReader.issues.isEmpty && folderReader.issues.isEmpty)
        #expect(archiveReader.top == "t-1")
        // mcpack's order: the payload in byte order, then the tag files.
        #expect(fromArchive.map(\.entry.path) == bag.payload.map(\.path) + written.tagFiles.map(\.path))
        #expect(fromFolder.map(\.entry.path).sorted() == fromArchive.map(\.entry.path).sorted())
        // A zip's few wanted files, each read where its central directory
        // puts it; a tar is left to a full read; a name it lacks is not there.
        let names = Set(written.tagFiles.map(\.path)).union(["data/b.txt", "fetch.txt"])
        if format == .zip {
            let read = try #require(BagReader.zipFiles(archive.path, names))
            #expect(read.top == "t-1")
            #expect(read.files == Dictionary(uniqueKeysWithValues: written.tagFiles.map { ($0.path, $0.data) } + [("data/b.txt", Data("bb".utf8))]))
        } else {
            #expect(BagReader.zipFiles(archive.path, names) == nil)
        }
        func summary(_ files: [BagReader.File]) -> [String: String] {
            Dictionary(uniqueKeysWithValues: files.map { ($0.entry.path, "\($0.size) \($0.digests[.sha256]!) \($0.data!.count)") })
        }
        #expect(summary(fromFolder) == summary(fromArchive))
        #expect(archiveReader.bytesRead == folderReader.bytesRead)

        let wanted: Set<String> = ["bag-info.txt", "data/sub/a 100%.txt", "data/missing.txt"]
        for path in [archive.path, unpacked.path] {
            let (some, _) = try Self.readAll(path, only: wanted, keep: keep)
            #expect(Set(some.map(\.entry.path)) == ["bag-info.txt", "data/sub/a 100%.txt"], "\(path)")
        }
    }

    @Test func whatIsNotABagCannotBeOpened() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("not.zip")
        try Data("this is not an archive".utf8).write(to: file)
        #expect(throws: BagReader.CannotOpen.self) { try BagReader(file.path) { _ in .skip } }
        let missing = #expect(throws: FileError.self) { try BagReader(folder.appendingPathComponent("none").path) { _ in .skip } }
        #expect(missing?.message == "no such file or folder")
    }
}
