import Archiving
import FileIO
import Foundation
import MCPackSchema
import Hashing

/// A file the archive was to copy (from the work cache) is missing, or is
/// not the file whose hash the manifest already holds.
package struct SourceFileChanged: Error, CustomStringConvertible {
    package let path: String
    package let reason: String

    package var description: String { "\(path) \(reason); it changed while the archive was being written: build again" }
}

/// A bag as written: every payload entry in the archive's order, with the
/// tag files that followed them, and the archive's SHA-256 and size.
package struct WrittenBag {
    package let top: String
    package let payload: [Bag.Entry]
    package let tagFiles: [(path: String, data: Data)]
    package let sha256: String
    package let bytes: Int

}

extension Bag {
    /// Serializes the bag into one archive with a single top folder: the
    /// payload, then the tag files. Entries and the archive are hashed on
    /// a second core while written (bench/tricks-history.md has what that
    /// was worth), and a streamed file is hashed as it goes in: nothing is
    /// read again for its manifest line.
    package func write(to path: String, format: ArchiveFormat, mtime: Int) throws -> WrittenBag {
        guard let writerFormat = format.writerFormat else {
            throw FileError(path: path, message: "mcpack writes \(ArchiveFormat.built.map(\.rawValue).joined(separator: ", ")), not \(format.rawValue)")
        }
        let writing = try BagWriting(path: path, format: writerFormat, top: top, mtime: mtime, payload: payload)
        for entry in payload { try writing.add(entry) }
        // A copied file found changed or damaged stops the write before the
        // tiles are made, not after: the retry then costs no tiling.
        if !streams.isEmpty {
            writing.hashing.drain()
            try writing.throwIfChanged()
        }
        var written = payload
        for stream in streams { written += try writing.add(stream) }
        if let madeLast {
            let files = try Self.lastEntries(madeLast, after: written)
            try Self.checkUnique(written.map(\.path) + files.map(\.path))
            for entry in files { try writing.add(entry) }
            written += files
        }
        writing.hashing.drain()
        let tags = knownTags ?? Self.tagFiles(payload: written, info: info, otherTags: otherTags)
        for tag in tags {
            // Payload manifests are stored, not deflated: diff and verify
            // read them whole, and inflating two of 1.8 MB was a sixth of a
            // diff, to save 0.3% of the archive.
            try writing.writer.add(path: "\(top)/\(tag.path)", data: tag.data, mtime: mtime, compress: !tag.path.hasPrefix("manifest-"))
        }
        let bytes = try writing.writer.finish()
        writing.hashing.drain()
        try writing.throwIfChanged()
        return WrittenBag(top: top, payload: written, tagFiles: tags, sha256: writing.archiveHasher.finish(), bytes: bytes)
    }
}

/// One archive being written: its writer, the queue hashing on a second
/// core, and the first copied file found not to hold the bytes its hash
/// was recorded for.
private final class BagWriting {
    package let writer: ArchiveWriter
    package let hashing: HashingQueue
    /// The archive's own SHA-256, on the hashing queue's core as its
    /// bytes go out: the .sha256 costs no second read.
    package let archiveHasher: Digest
    private let top: String
    private let mtime: Int
    private let payload: [Bag.Entry]
    private let changed = LockedArray<String?>(repeating: nil, count: 1)
    private let damaged = LockedArray<(String, String)?>(repeating: nil, count: 1)
    private let copying = ArchiveCopies()

    package init(path: String, format: ArchiveWriter.Format, top: String, mtime: Int, payload: [Bag.Entry]) throws {
        self.top = top
        self.mtime = mtime
        self.payload = payload
        let hashing = HashingQueue(), archiveHasher = Digest()
        self.hashing = hashing
        self.archiveHasher = archiveHasher
        writer = try ArchiveWriter(path: path, format: format) { hashing.update(archiveHasher, with: $0) }
    }

    package func throwIfChanged() throws {
        if let path = changed[0] {
            throw SourceFileChanged(path: path, reason: "does not hold the bytes recorded")
        }
        if let (archive, path) = damaged[0] {
            throw PreviousArchive.Damaged(archive: archive, entry: path, reason: "does not hold the bytes its manifest names")
        }
    }

    package func add(_ entry: Bag.Entry) throws {
        let entryPath = "\(top)/\(entry.path)"
        switch entry.source {
        case .bytes(let data):
            try writer.add(path: entryPath, data: data, mtime: mtime, compress: entry.compress)
        case .file(let path):
            try copy(path, as: entry)
        case .archived(let archive, let path):
            try copy(path, from: archive, as: entry)
        case .streamed:
            throw FileError(path: entry.path, message: "a streamed file is only written by its stream")
        }
    }

    /// A file of the work cache, hashed again while copied: the manifest
    /// holds the hash the work cache recorded, and a file that is not that
    /// file any more must not ship under it.
    private func copy(_ path: String, as entry: Bag.Entry) throws {
        let hasher = Digest()
        var copied = 0
        try writer.add(path: "\(top)/\(entry.path)", size: entry.size, mtime: mtime, compress: entry.compress) { write in
            do {
                try FileChunks.readOwned(path, expected: entry.size) { chunk in
                    copied += chunk.count
                    guard copied <= entry.size else { throw SourceFileChanged(path: path, reason: "is larger than recorded") }
                    hashing.update(hasher, with: chunk)
                    try chunk.withUnsafeBytes { try write($0) }
                }
            } catch let error as FileError where error.path == path && !FileManager.default.fileExists(atPath: path) {
                // Gone: the cache entry is incomplete. Any other read
                // error (permissions, I/O) is reported as it is.
                throw SourceFileChanged(path: path, reason: "is missing (\(error.message))")
            }
            guard copied == entry.size else { throw SourceFileChanged(path: path, reason: "is smaller than recorded") }
        }
        let expected = entry.sha256, changed = changed
        hashing.finish(hasher) { hex in if hex != expected && changed[0] == nil { changed[0] = path } }
    }

    /// An entry of an archive built before, hashed against its manifest's
    /// SHA-256 while copied.
    private func copy(_ path: String, from archive: PreviousArchive, as entry: Bag.Entry) throws {
        let source = try copying.source(archive, payload: payload)
        let hasher = Digest()
        let hashing = hashing
        try writer.add(path: "\(top)/\(entry.path)", size: entry.size, mtime: mtime, compress: entry.compress) { write in
            // The copier holds the sink only while this entry is read.
            try withoutActuallyEscaping(write) { write in
                try source.copy(path, size: entry.size) { chunk in
                    // One copy of the chunk: the hashing queue reads it later.
                    hashing.update(hasher, with: chunk.baseAddress.map { Data(bytes: $0, count: chunk.count) } ?? Data())
                    try write(chunk)
                }
            }
        }
        let expected = entry.sha256, damaged = damaged
        hashing.finish(hasher) { hex in if hex != expected && damaged[0] == nil { damaged[0] = (archive.path, path) } }
    }

    /// The files a stream makes, each written and hashed as it comes.
    /// While the stream runs (libvips making tiles, the build's peak of
    /// memory) each file leaves behind only its size and its digest's 32
    /// bytes: its entry, path and hex are made once the stream has ended.
    package func add(_ stream: any PayloadStream) throws -> [Bag.Entry] {
        var sizes: [Int] = []
        sizes.reserveCapacity(stream.count)
        let digests = DigestTable(count: stream.count)
        try stream.make { path, data in
            let index = sizes.count
            // Its digest and size are kept by place: a stream that broke
            // its order would put them under another file's name.
            guard index < stream.count, path == stream.path(at: index) else {
                throw FileError(path: path, message: "was handed over where \(index < stream.count ? stream.path(at: index) : "no file") "
                                + "was due: a fault of mcpack's own, not of the project; please report it")
            }
            try writer.add(path: "\(top)/data/\(path)", data: data, mtime: mtime, compress: PayloadFile.compressedByDefault(path))
            let hasher = Digest()
            hashing.update(hasher, with: data)
            hashing.finish(hasher, into: digests, at: index)
            sizes.append(data.count)
        }
        hashing.drain()
        return sizes.indices.map { index in
            let path = stream.path(at: index)
            return Bag.Entry(path: "data/" + path, source: .streamed, sha256: digests.hex(at: index), size: sizes[index],
                             compress: PayloadFile.compressedByDefault(path))
        }
    }
}

extension WrittenBag {
    /// Reads the written archive back and confirms it holds exactly the
    /// entries of this bag, in order, at their sizes, with the tag files and
    /// every in-memory file byte for byte. Files streamed from disk or from
    /// libvips were hashed as they were written; reading them again would
    /// only re-read the page cache, at a fifth of a rebuild's time.
    package func check(archive path: String) throws {
        let expectedEntries = payload.map { entry -> (String, Int, String?) in
                if case .bytes = entry.source { return ("\(top)/\(entry.path)", entry.size, entry.sha256) }
                return ("\(top)/\(entry.path)", entry.size, nil)
            }
            + tagFiles.map { ("\(top)/\($0.path)", $0.data.count, Optional(Digest.hex($0.data))) }
        let hashed = Set(expectedEntries.filter { $0.2 != nil }.map(\.0))
        var expected = expectedEntries[...]
        func failure(_ error: Error) -> Error {
            switch error {
            case let issue as BagReader.Issue: return issue.cause ?? FileError(path: path, message: issue.description)
            case let cannot as BagReader.CannotOpen: return cannot.cause
            default: return error
            }
        }
        do {
            // Its own archive, written a moment ago: no limit applies, and
            // anything the reader would refuse to hand over is a failure.
            // Names differing only in case are the payload's own (verify
            // warns of them), and a warning of libarchive's with bytes that
            // read back well is no failure.
            let reader = try BagReader(path, limits: .unlimited, refusing: { $0.kind != .caseCollision && $0.kind != .entryWarning }) { entry in
                hashed.contains(entry.name) ? BagReader.Keep(.digestsOnly, digests: [.sha256]) : .skip
            }
            while let file = try reader.next() {
                let name = file.entry.name
                guard let want = expected.popFirst() else {
                    throw FileError(path: path, message: "unexpected entry \(name) after the last file")
                }
                guard name == want.0 else {
                    throw FileError(path: path, message: "entry \(name) where \(want.0) was written")
                }
                if let sha = want.2 {
                    guard file.size == Int64(want.1), file.digests[.sha256] == sha else {
                        throw FileError(path: path, message: "\(want.0) does not read back as written")
                    }
                } else if let size = file.entry.size, size != Int64(want.1) {
                    throw FileError(path: path, message: "\(want.0) reads back as \(size) bytes, not \(want.1)")
                }
            }
        } catch {
            throw failure(error)
        }
        if let missing = expected.first {
            throw FileError(path: path, message: "\(missing.0) is missing when read back")
        }
    }
}

/// The archives built before that a write copies entries from, each read
/// once, in step with the write: both list those entries in the same order.
private final class ArchiveCopies {
    private var open: [String: EntryCopier] = [:]

    package func source(_ archive: PreviousArchive, payload: [Bag.Entry]) throws -> EntryCopier {
        if let copier = open[archive.path] { return copier }
        let wanted = Set(payload.compactMap { entry -> String? in
            if case .archived(let from, let path) = entry.source, from === archive { return path }
            return nil
        })
        let copier = try EntryCopier(archive, only: wanted)
        open[archive.path] = copier
        return copier
    }
}

/// Hands on the bytes of one archive's entries, one after another.
private final class EntryCopier {
    private let archive: PreviousArchive
    private let reader: BagReader

    package init(_ archive: PreviousArchive, only: Set<String>) throws {
        self.archive = archive
        let box = SinkBox()
        do {
            // Any issue at all ends the copy: a previous archive is a source
            // only while it reads back exactly as mcpack wrote it. Its CRCs
            // go unchecked: every byte is hashed against its manifest's
            // SHA-256 as it is copied, and a second check of 340 MB cost a
            // sixth of a one-clause rebuild's time.
            reader = try BagReader(archive.path, only: only, checkCRC: false, refusing: { _ in true }) { _ in
                BagReader.Keep.stream { chunk in try box.sink?(chunk) }
            }
        } catch {
            throw PreviousArchive.Damaged(archive: archive.path, entry: "", reason: "cannot be opened (\(error))")
        }
        self.box = box
    }

    private let box: SinkBox

    /// Copies the entry `path`, which must be the next one of those wanted.
    package func copy(_ path: String, size: Int, into body: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        var copied = 0
        box.sink = { chunk in
            copied += chunk.count
            guard copied <= size else {
                throw PreviousArchive.Damaged(archive: self.archive.path, entry: path, reason: "is larger than its manifest's entry")
            }
            try body(chunk)
        }
        defer { box.sink = nil }
        let file: BagReader.File?
        do {
            file = try reader.next()
        } catch let error as PreviousArchive.Damaged {
            throw error
        } catch let issue as BagReader.Issue {
            throw PreviousArchive.Damaged(archive: archive.path, entry: path, reason: "cannot be read: \(issue.message)")
        }
        guard let file, file.entry.path == path else {
            throw PreviousArchive.Damaged(archive: archive.path, entry: path, reason: "is not where its manifest's order puts it")
        }
        if let damage = file.damage {
            throw PreviousArchive.Damaged(archive: archive.path, entry: path, reason: "is damaged (\(damage))")
        }
        guard file.size == Int64(size) else {
            throw PreviousArchive.Damaged(archive: archive.path, entry: path, reason: "reads as \(file.size) bytes, not \(size)")
        }
    }
}

private final class SinkBox {
    package var sink: ((UnsafeRawBufferPointer) throws -> Void)?
}

extension ArchiveFormat {
    /// libarchive's writer for it; nil for a plain tar, which mcpack reads
    /// but does not write (`ArchiveFormat.built`).
    package var writerFormat: ArchiveWriter.Format? {
        switch compression {
        case .gzip: return .tarGz
        case .zstd: return .tarZst
        case .none: return self == .zip ? .zip : nil
        }
    }
}
