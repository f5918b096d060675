import Archiving
import FileIO
import Foundation
import Testing

/// libarchive and zlib behind `ArchiveReader`, `ArchiveWriter`,
/// `ZipDirectory` and `GzipStream`, without the kit.
@Suite struct ArchivingTests {
    static let mtime = 1_700_000_000
    static let entries: [(String, Data, Bool)] = [
        ("bag/bagit.txt", Data("BagIt-Version: 1.0\n".utf8), true),
        ("bag/data/empty.txt", Data(), true),
        ("bag/data/big.bin", .pattern(300_000), true),
        ("bag/data/stored.png", .pattern(5_000, seed: 9), false),
    ]

    /// Writes `entries`; returns the bytes the observer saw.
    @discardableResult
    static func write(_ path: String, _ format: ArchiveWriter.Format, _ entries: [(String, Data, Bool)] = entries) throws -> Data {
        ProcessSetUp.done
        var seen = Data()
        let writer = try ArchiveWriter(path: path, format: format) { seen.append($0) }
        for (name, data, compress) in entries {
            try writer.add(path: name, data: data, mtime: mtime, compress: compress)
        }
        let bytes = try writer.finish()
        #expect(bytes == seen.count)
        return seen
    }

    static func read(_ path: String) throws -> [(String, Data)] {
        let reader = try ArchiveReader(path: path)
        var found: [(String, Data)] = []
        while let entry = try reader.next() {
            #expect(entry.isRegular && !entry.isDirectory && entry.warning == nil)
            var data = Data()
            try reader.readData { data.append(contentsOf: $0) }
            #expect(entry.size == Int64(data.count))
            found.append((entry.path ?? "?", data))
        }
        return found
    }

    @Test(arguments: [ArchiveWriter.Format.zip, .tarGz, .tarZst])
    func roundTripIsByteForByteAndReproducible(format: ArchiveWriter.Format) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let seen = try Self.write(folder.path("a"), format)
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("a")) == seen)
        let back = try Self.read(folder.path("a"))
        #expect(back.map(\.0) == Self.entries.map(\.0))
        #expect(back.map(\.1) == Self.entries.map(\.1))
        try Self.write(folder.path("b"), format)
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("a")) == Data(contentsOf: folder.url.appendingPathComponent("b")))
    }

    @Test func aFileThatIsNoArchiveIsAFileError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("not.zip")
        try Data("hello, this is not an archive at all".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: FileError.self) {
            let reader = try ArchiveReader(path: path)
            _ = try reader.next()
        }
        #expect(error?.path == path)
        #expect(error?.message.isEmpty == false)
        #expect(throws: FileError.self) { try ArchiveReader(path: folder.path("missing.zip")) }
    }

    /// A stored entry with one byte changed: its CRC no longer matches, and
    /// only that entry is reported damaged.
    @Test func aDamagedEntryIsEntryDamaged() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("d.zip")
        var bytes = try Self.write(path, .zip)
        let stored = Self.entries[3].1
        let at = bytes.range(of: stored)!.lowerBound + 100
        bytes[at] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: path))
        let reader = try ArchiveReader(path: path)
        var damaged: [String] = []
        while let entry = try reader.next() {
            do {
                try reader.readData { _ in }
            } catch is ArchiveReader.EntryDamaged {
                damaged.append(entry.path!)
            }
        }
        #expect(damaged == ["bag/data/stored.png"])
    }

    @Test func aZipCutShortHasNoDirectoryAndStillStreams() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("cut.zip")
        let bytes = try Self.write(path, .zip)
        try bytes.prefix(bytes.count - 30).write(to: URL(fileURLWithPath: path))
        #expect(ZipDirectory.entries(of: path) == nil)
        #expect(throws: FileError.self) { _ = try ArchiveReader(path: path).next() }
        let streamed = try ArchiveReader(path: path, zip: .stream)
        #expect(try streamed.next()?.path == "bag/bagit.txt")
    }

    @Test func zipDirectoryMatchesWhatWasWritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("z.zip")
        var bytes = try Self.write(path, .zip)
        let entries = try #require(ZipDirectory.entries(of: path))
        #expect(entries.map { String(decoding: $0.name, as: UTF8.self) } == Self.entries.map(\.0))
        #expect(entries.map(\.method) == [8, 8, 8, 0])  // deflate, store
        #expect(entries.map(\.size) == Self.entries.map { UInt64($0.1.count) })
        #expect(ZipDirectory.localHeaderMismatches(of: path, entries).isEmpty)

        // The third entry's local header signature broken.
        let at = Int(entries[2].localHeader)
        bytes[at] = 0
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(ZipDirectory.localHeaderMismatches(of: path, entries)
            == [ZipDirectory.Mismatch(name: entries[2].name, kind: .noLocalHeader(offset: entries[2].localHeader))])
    }

    @Test func gzipStreamChecksTheTrailer() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("t.tar.gz")
        let bytes = try Self.write(path, .tarGz)
        #expect(GzipStream.damage(in: path) == nil)

        var crc = bytes
        crc[crc.count - 6] ^= 0x01  // inside the CRC-32
        try crc.write(to: URL(fileURLWithPath: path))
        #expect(GzipStream.damage(in: path)?.contains("damaged") == true)

        try bytes.prefix(bytes.count - 4).write(to: URL(fileURLWithPath: path))
        #expect(GzipStream.damage(in: path) == "the gzip stream ends early")

        try (bytes + Data("junk".utf8)).write(to: URL(fileURLWithPath: path))
        #expect(GzipStream.damage(in: path) == "holds bytes after the end of the gzip stream")

        #expect(GzipStream.damage(in: folder.path("missing.gz"))?.hasPrefix("cannot be read to check") == true)
    }

    @Test func writingWhereNoFileCanBeIsAFileError() {
        let path = "/nonexistent-folder-\(UUID().uuidString)/a.zip"
        let error = #expect(throws: FileError.self) { try ArchiveWriter(path: path, format: .zip) }
        #expect(error?.path == path)
        #expect(error?.message.hasPrefix("cannot create") == true)
    }
}
