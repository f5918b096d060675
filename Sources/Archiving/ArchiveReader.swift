import CArchive
import FileIO
import Foundation

/// Streams the entries of a zip or tar (plain, gzip, zstd) through
/// libarchive, one pass, nothing written to disk. Only the formats mcpack
/// writes are enabled, so nothing else is parsed.
///
/// A zip is read through its central directory, as unzip and every other
/// tool reads it: libarchive's streaming zip reader would accept a zip whose
/// directory is cut off or damaged, which no one else can open (the
/// corruption campaign found that). `.stream` is for saying what such a
/// damaged zip still holds.
public final class ArchiveReader {
    public enum ZipReading: Sendable { case directory, stream }

    public struct Entry: Sendable {
        /// The name as stored, bytes and all; `path` is nil if not UTF-8.
        public var rawPath: [UInt8]
        public var path: String?
        /// The file type bits (0o100000 regular, 0o040000 folder, ...).
        public var fileType: UInt32
        public var size: Int64?
        /// Set for a hard link (tar), whatever its file type says.
        public var hardlinkTarget: String?
        /// libarchive's warning for this entry, e.g. a zip local header whose
        /// sizes or CRC disagree with the central directory.
        public var warning: String?
        public var isRegular: Bool { fileType == 0o100000 && hardlinkTarget == nil }
        public var isDirectory: Bool { fileType == 0o040000 }
    }

    private let archive: OpaquePointer
    public let path: String
    /// Whether this reader walks a zip through its central directory, the
    /// only way `storedSpan` can say where an entry's bytes lie.
    private var zipThroughDirectory = false
    /// The entry `next()` read last (libarchive's, valid until the next).
    private var current: OpaquePointer?
    /// One buffer for every entry: a new zeroed 64 KiB for each of 17,000
    /// entries was a gigabyte of memset per verify.
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)

    /// Opens `path`. Entry times are not read, but libarchive converts
    /// every zip entry's DOS time all the same: see `ArchiveTimes.useUTC()`.
    /// `checkCRC: false` leaves a zip entry's CRC-32 unchecked, for a
    /// reader that checks every byte against a stronger hash of its own.
    /// `blockSize`: how much libarchive reads at a time; a reader that
    /// leaves stored entries' bytes unread (`storedSpan`) reads less of
    /// them with small blocks, as libarchive passes by what it has not read.
    public init(path: String, zip: ZipReading = .directory, checkCRC: Bool = true, blockSize: Int = 1 << 20) throws {
        self.path = path
        guard let archive = archive_read_new() else { throw FileError(path: path, message: "libarchive: out of memory") }
        self.archive = archive
        archive_read_support_format_tar(archive)
        switch zip {
        case .directory:
            archive_read_support_format_zip_seekable(archive)
            zipThroughDirectory = true
        case .stream: archive_read_support_format_zip_streamable(archive)
        }
        if !checkCRC {
            guard archive_read_set_options(archive, "zip:ignorecrc32") == ARCHIVE_OK else { throw failure() }
        }
        archive_read_support_filter_gzip(archive)
        archive_read_support_filter_zstd(archive)
        // On failure deinit frees the handle (every property is set by now).
        let source = try Source(path: path, blockSize: blockSize)
        self.source = source
        archive_read_set_callback_data(archive, Unmanaged.passUnretained(source).toOpaque())
        archive_read_set_read_callback(archive) { archive, data, block in
            let source = Unmanaged<Source>.fromOpaque(data!).takeUnretainedValue()
            let size = source.nextRead
            guard let count = source.file.read(at: UInt64(source.position), into: UnsafeMutableRawBufferPointer(rebasing: source.buffer[..<size])) else {
                mcpack_archive_set_error(archive, errno, "Error reading '\(source.file.path)'")
                return -1
            }
            block?.pointee = UnsafeRawPointer(source.buffer.baseAddress)
            source.position += Int64(count)
            source.nextRead = min(size * 2, source.buffer.count)
            return la_ssize_t(count)
        }
        // As lseek(2) moves a file's offset, past its end too: reads there
        // find nothing, and libarchive says the archive is cut short.
        archive_read_set_skip_callback(archive) { _, data, request in
            let source = Unmanaged<Source>.fromOpaque(data!).takeUnretainedValue()
            guard request > 0, request <= Int64.max - source.position else { return 0 }
            source.position += request
            source.nextRead = Source.firstRead
            return request
        }
        archive_read_set_seek_callback(archive) { archive, data, offset, whence in
            let source = Unmanaged<Source>.fromOpaque(data!).takeUnretainedValue()
            let base: Int64? = switch whence {
            case SEEK_SET: 0
            case SEEK_CUR: source.position
            case SEEK_END: source.file.size.flatMap { Int64(exactly: $0) }
            default: nil
            }
            guard let base, offset <= Int64.max - base, base + offset >= 0 else {
                mcpack_archive_set_error(archive, EINVAL, "Error seeking in '\(source.file.path)'")
                return la_int64_t(ARCHIVE_FATAL)
            }
            source.position = base + offset
            source.nextRead = Source.firstRead
            return source.position
        }
        guard archive_read_open1(archive) == ARCHIVE_OK else { throw failure() }
    }

    /// The file libarchive reads, by offset, in blocks of the size asked
    /// for. `archive_read_open_filename` takes a regular file for a disk
    /// and reads it in blocks of 64 KiB at least: a walk past the stored
    /// entries of a zip of 20 KB tiles read most of their bytes all the
    /// same, and each pass by cost it two lseek calls.
    ///
    /// After a skip or a seek the first read is small, and each read that
    /// follows another is twice the last, up to the block size: a zip's
    /// local header (some hundred bytes) is read without 4 KiB of the tile
    /// after it, which copied 75 MB in a walk of 17,000 entries, and a
    /// stream read through still reaches the block size in a few reads.
    private final class Source {
        static let firstRead = 512
        let file: FileReader
        let buffer: UnsafeMutableRawBufferPointer
        /// Where the next read starts (past the end of the file, once
        /// libarchive passes by more than the file holds).
        var position: Int64 = 0
        /// How much the next read asks for.
        var nextRead: Int

        init(path: String, blockSize: Int) throws {
            file = try FileReader(path: path)
            buffer = .allocate(byteCount: max(blockSize, Self.firstRead), alignment: 16)
            nextRead = Self.firstRead
        }

        deinit { buffer.deallocate() }
    }

    /// What libarchive reads a file opened by path through; released after
    /// the handle.
    private var source: Source?

    /// Reads a zip as it arrives on the open descriptor `fd` (a pipe's
    /// end), front to back through its local headers: there is no central
    /// directory to seek to. `name` names it in errors. The descriptor is
    /// left open.
    public init(streamingZipFrom fd: Int32, name: String) throws {
        path = name
        guard let archive = archive_read_new() else { throw FileError(path: name, message: "libarchive: out of memory") }
        self.archive = archive
        archive_read_support_format_zip_streamable(archive)
        guard archive_read_open_fd(archive, fd, 1 << 16) == ARCHIVE_OK else { throw failure() }
    }

    /// Reads a zip's entries from the local header at `offset` on, front
    /// to back, up to its central directory: the last few entries of a
    /// large zip (where a bag's tag files are) without walking the others.
    /// The offset comes from `ZipDirectory`.
    public convenience init(zipPath: String, from offset: UInt64) throws {
        guard let handle = FileHandle(forReadingAtPath: zipPath) else { throw FileError(path: zipPath, message: "cannot open the file") }
        do {
            try handle.seek(toOffset: offset)
        } catch {
            throw FileError(path: zipPath, message: "cannot seek to byte \(offset)")
        }
        try self.init(streamingZipFrom: handle.fileDescriptor, name: zipPath)
        self.handle = handle
    }

    /// The file a reader from an offset reads, closed with it.
    private var handle: FileHandle?

    deinit {
        archive_read_free(archive)
        buffer.deallocate()
    }

    /// The next entry's header, or nil after the last.
    public func next() throws -> Entry? {
        var pointer: OpaquePointer?
        let status = archive_read_next_header(archive, &pointer)
        if status == ARCHIVE_EOF { return nil }
        current = nil
        guard status >= ARCHIVE_WARN, let entry = pointer else { throw failure() }
        current = entry
        var raw: [UInt8] = []
        if let name = archive_entry_pathname(entry) {
            let bytes = UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self)
            var count = 0
            while bytes[count] != 0 { count += 1 }
            raw = Array(UnsafeBufferPointer(start: bytes, count: count))
        }
        let size: Int64? = archive_entry_size_is_set(entry) != 0 ? Int64(archive_entry_size(entry)) : nil
        return Entry(
            rawPath: raw, path: ArchiveNames.text(raw),
            fileType: UInt32(archive_entry_filetype(entry)), size: size,
            hardlinkTarget: archive_entry_hardlink(entry).map { String(cString: $0) },
            warning: status == ARCHIVE_WARN ? libarchiveError(archive) ?? "libarchive warned" : nil)
    }

    /// Where the current entry's bytes lie in the file, when they lie there
    /// as they are: a zip entry read through the central directory, stored
    /// (no compression), not encrypted, with a declared size. `offset` is
    /// where libarchive stands once it has read the entry's local header,
    /// the first byte of its data; `count` the size it will read. The caller
    /// reads them by offset (and may leave them unread here: the next
    /// `next()` passes them by); nil for every other entry, to be read with
    /// `readData` or `readBlocks`.
    public func storedSpan() -> (offset: Int64, count: Int64)? {
        guard zipThroughDirectory, let entry = current, archive_format(archive) == ARCHIVE_FORMAT_ZIP,
              archive_entry_is_encrypted(entry) == 0, archive_entry_size_is_set(entry) != 0,
              archive_entry_filetype(entry) == 0o100000,
              // libarchive names each zip entry's method in the format's name
              // (from the entry's local header, which it reads by): "ZIP 2.0
              // (uncompressed)"; it has no other call that tells it.
              let name = archive_format_name(archive), Self.endsInUncompressed(name)
        else { return nil }
        let offset = Int64(archive_filter_bytes(archive, 0))
        let count = Int64(archive_entry_size(entry))
        guard offset >= 0, count >= 0 else { return nil }
        return (offset, count)
    }

    /// Whether a format name ends "(uncompressed)", read in place: asked
    /// of every entry of a zip.
    private static func endsInUncompressed(_ name: UnsafePointer<CChar>) -> Bool {
        let suffix = "(uncompressed)"
        let length = strlen(name)
        guard length >= suffix.utf8.count else { return false }
        let tail = UnsafeRawBufferPointer(start: name + (length - suffix.utf8.count), count: suffix.utf8.count)
        return tail.elementsEqual(suffix.utf8)
    }

    /// Bytes of the archive file consumed so far (before decompression).
    public var compressedBytesRead: Int64 { Int64(archive_filter_bytes(archive, -1)) }

    /// This entry's data is damaged (a zip CRC or size that does not
    /// match), but the archive can still be read from the next entry on.
    public struct EntryDamaged: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Hands the current entry's data to `body` in chunks. `body` may stop
    /// the read early by throwing. Throws `EntryDamaged` when only this entry
    /// is bad, anything else when the archive cannot be read further.
    public func readData(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        while true {
            let n = archive_read_data(archive, buffer.baseAddress, buffer.count)
            if n == 0 { return }
            if n == Int(ARCHIVE_WARN) || n == Int(ARCHIVE_FAILED) {
                throw EntryDamaged(description: libarchiveError(archive) ?? "the entry's data is damaged")
            }
            guard n > 0 else { throw failure() }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }

    /// Hands the current entry's data to `body` in the blocks libarchive
    /// holds it in, not copied out: a stored zip entry's bytes as read from
    /// the file, a tar entry's as unpacked. `holes`: a tar's sparse entry
    /// comes as blocks with holes between them, and its end's offset with
    /// the end (after a last hole); its holes are handed on as zeros, as
    /// `readData` fills them in. Without it (a zip, which has none), a hole
    /// is damage.
    /// Throws as `readData` does.
    public func readBlocks(holes: Bool = false, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var block: UnsafeRawPointer?
        var size = 0
        var offset: la_int64_t = 0
        var expected: la_int64_t = 0
        while true {
            let status = archive_read_data_block(archive, &block, &size, &offset)
            if status == ARCHIVE_EOF {
                if holes, offset > expected { try zeros(offset - expected, body) }
                return
            }
            if status == ARCHIVE_WARN || status == ARCHIVE_FAILED {
                throw EntryDamaged(description: libarchiveError(archive) ?? "the entry's data is damaged")
            }
            guard status == ARCHIVE_OK else { throw failure() }
            if offset != expected {
                guard holes else { throw EntryDamaged(description: "the entry's data has a gap at byte \(expected)") }
                // archive_read_data's own words for a block before the last.
                guard offset > expected else { throw FileError(path: path, message: "Encountered out-of-order sparse blocks") }
                try zeros(offset - expected, body)
                expected = offset
            }
            if size > 0, let block { try body(UnsafeRawBufferPointer(start: block, count: size)) }
            expected += la_int64_t(size)
        }
    }

    /// `count` zero bytes to `body`, from the reader's buffer.
    private func zeros(_ count: la_int64_t, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var left = count
        let zeroed = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<Int(min(left, la_int64_t(buffer.count)))])
        zeroed.initializeMemory(as: UInt8.self, repeating: 0)
        while left > 0 {
            let now = Int(min(left, la_int64_t(zeroed.count)))
            try body(UnsafeRawBufferPointer(rebasing: zeroed[0..<now]))
            left -= la_int64_t(now)
        }
    }

    private func failure() -> FileError {
        let text = libarchiveError(archive) ?? "not a readable zip or tar archive"
        return FileError(path: path, message: text)
    }
}

/// What libarchive last said of `archive`, without the line end some of its
/// messages carry ("ZIP uncompressed data is wrong size (...)\n"), which
/// left a blank line in verify's report.
func libarchiveError(_ archive: OpaquePointer) -> String? {
    archive_error_string(archive).map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
}
