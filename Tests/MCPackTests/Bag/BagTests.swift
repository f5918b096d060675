import Foundation
import MCPackSchema
@testable import MCPackBag
@testable import MCPackInputs
@testable import MCPackKit
import Testing

@Suite struct BagTests {
    @Test func manifestsAndOxum() throws {
        let bag = try Bag.assemble(top: "t-1.0.0", payload: [
            PayloadFile(path: "b.txt", bytes: Data("bb".utf8)),
            PayloadFile(path: "a 100%.txt", bytes: Data("a".utf8)),
            PayloadFile(path: "B.png", bytes: Data("ccc".utf8)),
        ], info: [("Bundle-Name", "t\nwith newline")])
        let tagFiles = try #require(bag.knownTags)
        #expect(tagFiles.map(\.path) == ["bagit.txt", "bag-info.txt", "manifest-sha256.txt", "tagmanifest-sha256.txt"])
        #expect(bag.payload.map(\.path) == ["data/B.png", "data/a 100%.txt", "data/b.txt"])  // byte order
        let info = String(decoding: tagFiles[1].data, as: UTF8.self)
        #expect(info == "Bundle-Name: t with newline\nPayload-Oxum: 6.3\n")
        let manifest = String(decoding: tagFiles[2].data, as: UTF8.self)
        #expect(manifest.contains("ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb  data/a 100%25.txt\n"))
        #expect(bag.payload.first { $0.path == "data/B.png" }?.compress == false)
        #expect(bag.payload.first { $0.path == "data/b.txt" }?.compress == true)
        let tagManifest = String(decoding: tagFiles[3].data, as: UTF8.self)
        #expect(tagManifest.split(separator: "\n").count == 3)
        #expect(!tagManifest.contains("tagmanifest"))
    }

    /// A payload file is stored when its ending says it is compressed
    /// already, whatever its case; the ending read from the bytes agrees
    /// with Foundation's pathExtension on every kind of name.
    @Test func storedEndingsAsFoundationReadsThem() {
        let paths = ["document/p_files/12/3_4.jpeg", "document/p_files/12/3_4.JPG", "icons/a.png", "a.PnG", "clauses.json",
                     "notes", "folder.png/notes", ".png", "dir/.gif", "a.tar.gz", "b.tar.zst", "c.zip", "d.Zip", "e.", "f.webp.txt",
                     "g.txt.webp", "café.GIF", "ünïcödé/tile.jpg"]
        for path in paths {
            let ending = (path as NSString).pathExtension.lowercased()
            let foundation = !["png", "jpg", "jpeg", "webp", "gif"].contains(ending) && !ArchiveFormat.compressedEndings.contains(ending)
            #expect(PayloadFile.compressedByDefault(path) == foundation, "\(path)")
        }
        #expect(!PayloadFile.compressedByDefault("a/b/c.JPEG") && PayloadFile.compressedByDefault("a/b/c.json"))
    }

    /// Paths that collide on a case-insensitive disk: each is named once,
    /// against the first of its group in path order, capitals or accents.
    /// A name that folds to one Swift calls equal to another name of the
    /// bag (U+037E, the Greek question mark, is canonically a semicolon)
    /// collides with it, as when every name was folded.
    @Test func namesFoldingToAnEqualNameCollide() {
        var bag = BagContents()
        for path in ["data/a;b.png", "data/A\u{37E}b.png", "data/c.png"] {
            bag.put(BagFile(path: path, size: 1, digests: [:], data: nil))
        }
        let found = BagRules.check(bag).filter { $0.rule == "name-collision" }
        #expect(found.map(\.path) == ["data/a;b.png"], "\(found)")
    }

    @Test func namesDifferingOnlyByCaseAreWarnings() {
        var bag = BagContents()
        for path in ["data/icon.png", "data/Icon.png", "data/ICON.png", "data/other.png", "data/Other/a.png", "data/éclair.png", "data/Éclair.png"] {
            bag.put(BagFile(path: path, size: 1, digests: [:], data: nil))
        }
        let found = BagRules.check(bag).filter { $0.rule == "name-collision" }
        #expect(found.map(\.path) == ["data/Icon.png", "data/icon.png", "data/éclair.png"])
        #expect(found.map(\.message) == ["differs from data/ICON.png only by case", "differs from data/ICON.png only by case",
                                         "differs from data/Éclair.png only by case"])
        #expect(found.allSatisfy { $0.severity == .warning })
    }

    @Test func duplicatePayloadPathsAreRefused() {
        #expect(throws: FileError.self) {
            try Bag.assemble(top: "t", payload: [PayloadFile(path: "x", bytes: Data()), PayloadFile(path: "x", bytes: Data("1".utf8))], info: [])
        }
    }

    /// A plain tar is read, never written: its name is in the one list of
    /// formats, but bundle.toml cannot ask for it, and a caller that does
    /// gets an error, not an archive of another format.
    @Test func aPlainTarIsNotWritten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-bag-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bag = try Bag.assemble(top: "t-1", payload: [PayloadFile(path: "a.txt", bytes: Data("a".utf8))], info: [])
        let path = folder.appendingPathComponent("t-1.tar").path
        #expect(throws: FileError.self) { try bag.write(to: path, format: .tar, mtime: Builder.defaultSourceDate) }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!ArchiveFormat.built.contains(.tar))
    }

    @Test func writtenArchiveReadsBack() throws {
        ProcessSetUp.done
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-bag-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let file = folder.appendingPathComponent("big.bin")
        try big.write(to: file)
        let bag = try Bag.assemble(top: "t-1", payload: [
            PayloadFile(path: "big.bin", source: .file(path: file.path)),
            PayloadFile(path: "small.txt", bytes: Data("hello".utf8)),
        ], info: [])
        for format in ArchiveFormat.built {
            let path = folder.appendingPathComponent("t.\(format.fileExtension)").path
            try bag.write(to: path, format: format, mtime: Builder.defaultSourceDate).check(archive: path)
        }
        // A file that changes between hashing and writing is caught: in
        // size, and (same size, other bytes) by its hash.
        var altered = big
        altered[1_500_000] ^= 0x01
        try altered.write(to: file)
        #expect(throws: SourceFileChanged.self) {
            try bag.write(to: folder.appendingPathComponent("u.zip").path, format: .zip, mtime: Builder.defaultSourceDate)
        }
        try Data("changed".utf8).write(to: file)
        #expect(throws: SourceFileChanged.self) {
            try bag.write(to: folder.appendingPathComponent("v.zip").path, format: .zip, mtime: Builder.defaultSourceDate)
        }
        try (big + Data("more".utf8)).write(to: file)
        let grown = #expect(throws: SourceFileChanged.self) {
            try bag.write(to: folder.appendingPathComponent("w.zip").path, format: .zip, mtime: Builder.defaultSourceDate)
        }
        #expect(grown?.reason == "is larger than recorded")
    }

    #if os(Linux)
    /// The archive's blocks are written on another thread; a failed write
    /// there must still stop the archive with the system's reason.
    @Test func aFailedWriteIsReported() throws {
        let bag = try Bag.assemble(top: "t-1", payload: [
            PayloadFile(path: "noise.bin", bytes: Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 131 >> 3) })),
        ], info: [])
        let error = #expect(throws: FileError.self) {
            try bag.write(to: "/dev/full", format: .zip, mtime: Builder.defaultSourceDate)
        }
        #expect(error?.path == "/dev/full")
        #expect(error?.message.contains("No space left on device") == true)
    }
    #endif
}
