import Archiving
import Foundation
import Hashing
@testable import MCPackBag
@testable import MCPackKit
import MCPackSchema
import Testing

/// A zip's stored entries read where they lie (`hashesOnWorkers`, what
/// verify reads with) give what libarchive's own read gives: the same
/// entries, sizes, digests, bytes kept, damage and issues, in the same
/// order; and an entry whose bytes are not where its headers say is caught.
@Suite struct StoredSpansTests {
    /// Stored and deflated entries of many sizes (none, one byte, over a
    /// worker's 1 MiB buffer), with unsafe and duplicate names between
    /// them, so that issues met while entries are being hashed keep their
    /// place.
    static func entries() -> [(String, Data, Bool)] {
        var entries: [(String, Data, Bool)] = [("t/bagit.txt", Data("BagIt-Version: 1.0\n".utf8), true)]
        for i in 0..<150 {
            let size = [0, 1, 1000, 20_000, 70_000][i % 5]
            entries.append(("t/data/tiles/\(i).jpeg", Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ i) }), false))
            if i == 40 { entries.append(("t/../evil", Data("x".utf8), false)) }
            if i == 90 { entries.append(("t/data/tiles/3.jpeg", Data("again".utf8), false)) }
        }
        entries.append(("t/data/large.bin", Data((0..<2_500_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }), false))
        entries.append(("t/data/text.json", Data(String(repeating: "{\"a\": 1}\n", count: 500).utf8), true))
        entries.append(("t/manifest-sha256.txt", Data("0 data/x\n".utf8), true))
        return entries
    }

    static func zip(_ entries: [(String, Data, Bool)], at url: URL) throws {
        ProcessSetUp.done
        let writer = try ArchiveWriter(path: url.path, format: .zip)
        for (path, data, compress) in entries {
            try writer.add(path: path, data: data, mtime: Builder.defaultSourceDate, compress: compress)
        }
        _ = try writer.finish()
    }

    /// What a caller keeps of each: the whole of some, the head of some.
    static func keep(_ entry: BagReader.Entry) -> BagReader.Keep {
        if entry.path.hasSuffix("0.jpeg") { return BagReader.Keep(.whole, digests: [.sha256, .md5]) }
        if entry.path.hasSuffix("1.jpeg") { return BagReader.Keep(.head(100), digests: [.sha256]) }
        if entry.path.hasSuffix("7.jpeg") { return .skip }
        return BagReader.Keep(entry.path.hasSuffix(".json") || !entry.path.contains("/") ? .whole : .digestsOnly, digests: [.sha256])
    }

    struct Read: Equatable {
        var files: [String]
        var issues: [String]
        var complete: Bool
        var bytes: Int64
        var byOffset = 0
        var onWorkers = 0

        static func == (a: Read, b: Read) -> Bool {
            (a.files, a.issues, a.complete, a.bytes) == (b.files, b.issues, b.complete, b.bytes)
        }
    }

    static func read(_ path: String, byOffset: Bool, checkCRC: Bool) throws -> Read {
        let reader = try BagReader(path, crossCheckZip: true, zipDirectory: ZipBagDirectory(path), checkCRC: checkCRC,
                                   hashesOnWorkers: byOffset) { keep($0) }
        var files: [String] = []
        while let file = try reader.next() {
            let digests = file.digests.sorted { $0.key < $1.key }.map { "\($0.key.rawValue)=\($0.value)" }.joined(separator: ",")
            files.append("\(file.entry.name) \(file.size) \(digests) data:\(file.data.map { Digest.hex($0) } ?? "-") head:\(file.head.map { Digest.hex($0) } ?? "-") damage:\(file.damage ?? "-")")
        }
        return Read(files: files, issues: reader.issues.map { "\($0.kind) \($0.path): \($0.message)" }, complete: reader.complete,
                    bytes: reader.bytesRead, byOffset: reader.readByOffset, onWorkers: reader.unpackedOnWorkers)
    }

    /// Where an entry's data starts in the zip: past its local header's
    /// name and extra field.
    static func dataStart(of name: String, in zip: Data, path: String) throws -> (entry: ZipDirectory.Entry, data: Int) {
        let entry = try #require(ZipDirectory.entries(of: path)?.first { $0.name == Array(name.utf8) })
        let local = Int(entry.localHeader)
        let lengths = Int(zip[local + 26]) | Int(zip[local + 27]) << 8, extra = Int(zip[local + 28]) | Int(zip[local + 29]) << 8
        return (entry, local + 30 + lengths + extra)
    }

    @Test(arguments: [true, false])
    func storedEntriesReadByOffsetReadAsThroughLibarchive(checkCRC: Bool) throws {
        let folder = try BagReaderTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("t.zip")
        try Self.zip(Self.entries(), at: archive)
        let whole = try Self.read(archive.path, byOffset: false, checkCRC: checkCRC)
        #expect(whole.files.count == 154 && whole.issues.count == 2, "\(whole.issues)")
        let byOffset = try Self.read(archive.path, byOffset: true, checkCRC: checkCRC)
        #expect(byOffset == whole)
        // Every stored entry handed over and not skipped: 150 tiles less the 15 skipped, and large.bin.
        #expect(byOffset.byOffset == 136 && whole.byOffset == 0, "\(byOffset.byOffset)")

        // A byte changed inside a stored entry: named damaged alike, in
        // libarchive's words, when CRCs are checked.
        var zip = try Data(contentsOf: archive)
        let (_, start) = try Self.dataStart(of: "t/data/tiles/13.jpeg", in: zip, path: archive.path)
        zip[start + 500] ^= 0x01
        let (_, large) = try Self.dataStart(of: "t/data/large.bin", in: zip, path: archive.path)
        zip[large + 2_000_000] ^= 0x01
        try zip.write(to: archive)
        let damaged = try Self.read(archive.path, byOffset: false, checkCRC: checkCRC)
        #expect(damaged.files != whole.files)
        #expect(damaged.issues.contains { $0.contains("ZIP bad CRC") } == checkCRC, "\(damaged.issues)")
        #expect(try Self.read(archive.path, byOffset: true, checkCRC: checkCRC) == damaged)
    }

    /// A stored entry whose headers declare more bytes than the file holds
    /// after it (its local header and its directory record alike, so
    /// libarchive warns of nothing): it is not read past the file's end,
    /// nor handed over as whole, and the read says where it stopped.
    @Test func aStoredEntryRunningPastTheFileEndIsCaught() throws {
        let folder = try BagReaderTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("t.zip")
        try Self.zip([("t/bagit.txt", Data("BagIt-Version: 1.0\n".utf8), true), ("t/data/a.jpeg", Data(count: 3000), false),
                      ("t/data/b.jpeg", Data(count: 3000), false)], at: archive)
        var zip = try Data(contentsOf: archive)
        let (entry, _) = try Self.dataStart(of: "t/data/b.jpeg", in: zip, path: archive.path)
        let claimed = UInt32(zip.count + 5000)
        func put(_ value: UInt32, at offset: Int) {
            for i in 0..<4 { zip[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
        }
        let local = Int(entry.localHeader)
        if zip[local + 18..<local + 26] != Data(count: 8) {
            put(claimed, at: local + 18)
            put(claimed, at: local + 22)
        }
        let record = try #require(zip.lastRange(of: Data([0x50, 0x4B, 0x01, 0x02])), "b.jpeg's is the last directory record")
        put(claimed, at: record.lowerBound + 20)
        put(claimed, at: record.lowerBound + 24)
        try zip.write(to: archive)
        #expect(ZipDirectory.entries(of: archive.path)?.last?.compressedSize == UInt64(claimed))

        for byOffset in [false, true] {
            let read = try Self.read(archive.path, byOffset: byOffset, checkCRC: false)
            #expect(!read.files.contains { $0.hasPrefix("t/data/b.jpeg") && $0.hasSuffix("damage:-") }, "\(byOffset): \(read.files)")
            #expect(read.issues.contains { $0.contains("t/data/b.jpeg") }, "\(byOffset): \(read.issues)")
            #expect(read.bytes < Int64(claimed), "\(byOffset)")
        }
        #expect(try Self.read(archive.path, byOffset: true, checkCRC: false) == Self.read(archive.path, byOffset: false, checkCRC: false))
    }

    /// A tar's entries, unpacked by libarchive on the reading thread and
    /// hashed on the workers, give what a read that hashes them itself
    /// gives: the same files, sizes, digests, bytes kept and issues, in the
    /// same order; the large entry (past what a worker is handed) among
    /// them. Cut short, the same again: where the read stopped, and the
    /// entries before it.
    @Test(arguments: [ArchiveWriter.Format.tarZst, .tarGz])
    func aTarsEntriesHashedOnTheWorkersReadAsHashedInLine(format: ArchiveWriter.Format) throws {
        let folder = try BagReaderTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent(format == .tarZst ? "t.tar.zst" : "t.tar.gz")
        ProcessSetUp.done
        let writer = try ArchiveWriter(path: archive.path, format: format)
        for (path, data, _) in Self.entries() {
            try writer.add(path: path, data: data, mtime: Builder.defaultSourceDate, compress: true)
        }
        _ = try writer.finish()
        let inLine = try Self.read(archive.path, byOffset: false, checkCRC: true)
        #expect(inLine.files.count == 154 && inLine.issues.count == 2, "\(inLine.issues)")
        #expect(inLine.files.contains { $0.hasPrefix("t/data/large.bin 2500000 sha256=") })
        let onWorkers = try Self.read(archive.path, byOffset: true, checkCRC: true)
        #expect(onWorkers == inLine)
        // All but the skipped, the large one and those refused.
        #expect(onWorkers.onWorkers == 138 && inLine.onWorkers == 0, "\(onWorkers.onWorkers)")

        let whole = try Data(contentsOf: archive)
        try whole.prefix(whole.count * 2 / 3).write(to: archive)
        let cut = try Self.read(archive.path, byOffset: false, checkCRC: true)
        #expect(!cut.complete && cut.files.count < inLine.files.count && cut.files.count > 10, "\(cut.files.count)")
        #expect(Array(inLine.files.prefix(cut.files.count - 1)) == Array(cut.files.prefix(cut.files.count - 1)))
        #expect(try Self.read(archive.path, byOffset: true, checkCRC: true) == cut)
    }

    /// More unpacked bytes than the workers are handed at once (16 MiB),
    /// in entries of many sizes: the slabs they are copied into are reused
    /// while earlier entries are still being hashed, and every entry reads
    /// as hashed in line.
    @Test func slabsReusedUnderPressureReadAsHashedInLine() throws {
        let folder = try BagReaderTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("t.tar.gz")
        ProcessSetUp.done
        let writer = try ArchiveWriter(path: archive.path, format: .tarGz)
        try writer.add(path: "t/bagit.txt", data: Data("BagIt-Version: 1.0\n".utf8), mtime: Builder.defaultSourceDate, compress: true)
        let pattern = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: ($0 >> 3) &* 7) })
        var total = 0
        for i in 0..<120 {
            let size = [30_000, 1, 700_000, 0, 65_536, 1 << 20][i % 6]
            total += size
            // Each entry its own bytes: its number at both ends.
            var data = pattern.prefix(size)
            if size > 0 { data[data.startIndex] = UInt8(i); data[data.endIndex - 1] ^= UInt8(i) }
            try writer.add(path: "t/data/\(i).bin", data: Data(data), mtime: Builder.defaultSourceDate, compress: true)
        }
        _ = try writer.finish()
        #expect(total > 2 * (16 << 20))
        let inLine = try Self.read(archive.path, byOffset: false, checkCRC: true)
        #expect(inLine.files.count == 121 && inLine.issues.isEmpty, "\(inLine.issues)")
        let onWorkers = try Self.read(archive.path, byOffset: true, checkCRC: true)
        #expect(onWorkers == inLine)
        #expect(onWorkers.onWorkers == 121, "\(onWorkers.onWorkers)")
    }

    static let gnuTar = (try? MCPackBinary.tool("tar", ["--version"], in: URL(fileURLWithPath: NSTemporaryDirectory())))?.stdout.contains("GNU tar") ?? false

    /// Sparse entries, as GNU tar writes them (its own format and pax's),
    /// read in libarchive's blocks: their holes, between their data and
    /// after it, come as zeros, the bytes of the file tar was given; hashed
    /// on the workers (the small one) or as read (the one over 1 MiB).
    @Test(.enabled(if: Self.gnuTar, "writing sparse entries needs GNU tar"), arguments: ["gnu", "posix"])
    func aSparseEntrysHolesReadAsZeros(format: String) throws {
        let folder = try BagReaderTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let top = folder.appendingPathComponent("t")
        try FileManager.default.createDirectory(at: top.appendingPathComponent("data"), withIntermediateDirectories: true)
        try Data("BagIt-Version: 1.0\n".utf8).write(to: top.appendingPathComponent("bagit.txt"))
        var expected: [String: String] = [:]
        for (name, size, runs) in [("small.bin", 600_000, [0, 300_001]), ("large.bin", 3 << 20, [0, 1 << 20, (2 << 20) + 5])] {
            var bytes = Data(count: size)
            let url = top.appendingPathComponent("data/" + name)
            #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
            let handle = try FileHandle(forWritingTo: url)
            for (i, at) in runs.enumerated() {
                let run = Data(repeating: UInt8(i + 1), count: 5000)
                bytes.replaceSubrange(at..<at + run.count, with: run)
                try handle.seek(toOffset: UInt64(at))
                try handle.write(contentsOf: run)
            }
            try handle.truncate(atOffset: UInt64(size))
            try handle.close()
            expected["t/data/" + name] = "\(size) sha256=\(Digest.hex(bytes))"
        }
        let tar = try MCPackBinary.tool("tar", ["--sparse", "--format=\(format)", "-cf", "t.tar", "t"], in: folder)
        #expect(tar.status == 0, "\(tar.stdout)")
        let archive = folder.appendingPathComponent("t.tar")
        // Stored with its holes left out, or this test tests nothing.
        #expect(try #require(FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? Int) < 200_000)
        for onWorkers in [false, true] {
            let read = try Self.read(archive.path, byOffset: onWorkers, checkCRC: true)
            #expect(read.issues.isEmpty && read.complete, "\(read.issues)")
            for (name, sizeAndDigest) in expected {
                #expect(read.files.contains { $0.hasPrefix("\(name) \(sizeAndDigest) ") }, "\(onWorkers): \(read.files)")
            }
        }
    }

    /// Deflated entries whose headers declare fewer bytes than they inflate
    /// to, one past a whole slab: their bytes past the declared size have
    /// no room in the slab they are copied into, and are not written there.
    /// The read gives what a read in line gives (libarchive's "wrong size"),
    /// and the entries beside them in the slab read whole.
    @Test func anEntryInflatingPastItsDeclaredSizeReadsAsInLine() throws {
        let folder = try BagReaderTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("t.zip")
        func bytes(_ count: Int, _ seed: Int) -> Data { Data((0..<count).map { UInt8(truncatingIfNeeded: $0 / 7 &* 31 &+ seed) }) }
        let lying = [("t/data/a.bin", 30_000, 10_000), ("t/data/c.bin", 3_000_000, 900_000)]
        var entries: [(String, Data, Bool)] = [("t/bagit.txt", Data("BagIt-Version: 1.0\n".utf8), true)]
        for (i, (name, size, _)) in lying.enumerated() {
            entries.append((name, bytes(size, i), true))
            entries.append(("t/data/b\(i).bin", bytes(5_000, i + 7), true))
        }
        try Self.zip(entries, at: archive)
        var zip = try Data(contentsOf: archive)
        func put(_ value: UInt32, at offset: Int) {
            for i in 0..<4 { zip[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
        }
        for (name, _, declared) in lying {
            let (entry, _) = try Self.dataStart(of: name, in: zip, path: archive.path)
            let local = Int(entry.localHeader)
            if zip[local + 22..<local + 26] != Data(count: 4) { put(UInt32(declared), at: local + 22) }
            var record = try #require(zip.range(of: Data([0x50, 0x4B, 0x01, 0x02]), in: Int(entry.localHeader)..<zip.count))
            while zip[record.lowerBound + 46..<record.lowerBound + 46 + name.utf8.count] != Data(name.utf8) {
                record = try #require(zip.range(of: Data([0x50, 0x4B, 0x01, 0x02]), in: record.upperBound..<zip.count))
            }
            put(UInt32(declared), at: record.lowerBound + 24)
        }
        try zip.write(to: archive)
        #expect(ZipDirectory.entries(of: archive.path)?.map(\.size).contains(900_000) == true)

        let inLine = try Self.read(archive.path, byOffset: false, checkCRC: true)
        for (name, size, declared) in lying {
            #expect(inLine.files.contains { $0.hasPrefix(name) && !$0.hasSuffix("damage:-") }, "\(inLine.files)")
            #expect(inLine.issues.contains("damaged \(name): ZIP uncompressed data is wrong size (read \(size), expected \(declared))"),
                    "\(inLine.issues)")
        }
        #expect(inLine.files.filter { $0.hasPrefix("t/data/b") && $0.contains("sha256=") }.count == 2, "\(inLine.files)")
        let onWorkers = try Self.read(archive.path, byOffset: true, checkCRC: true)
        #expect(onWorkers == inLine)
        // bagit.txt and the two beside the lying ones, through the slabs.
        #expect(onWorkers.onWorkers == 3 && inLine.onWorkers == 0, "\(onWorkers.onWorkers)")
    }
}
