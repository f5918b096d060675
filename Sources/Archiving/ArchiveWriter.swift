import CArchive
import FileIO
import Foundation

/// Writes a zip, tar.gz or tar.zst through libarchive, the same bytes for
/// the same entries: fixed times and owners, no host details, and zip times
/// that do not follow the local time zone (see `ArchiveTimes`). Whoever
/// needs the archive's own hash gets its bytes as they go out (`observe`),
/// so it costs no second read.
public final class ArchiveWriter {
    public enum Format: Sendable { case zip, tarGz, tarZst }

    private let archive: OpaquePointer
    private let format: Format
    public let path: String
    private let sink: Sink
    private var closed = false
    /// The last entry time found to give the same DOS fields in UTC.
    private var timeChecked: Int?

    /// Where libarchive's output goes: the observer, then the file.
    ///
    /// Blocks are written on a thread of their own, so the kernel's copy
    /// into the page cache runs beside the reading and CRC on this one and
    /// the hashing on a third: on a VM that must fault in each fresh page,
    /// that copy is a large part of writing a new archive. At most
    /// `slots` blocks wait at once, so memory stays bounded.
    private final class Sink: @unchecked Sendable {
        let file: FileWriter
        let observe: (Data) -> Void
        var bytes = 0
        private let writing = DispatchQueue(label: "mcpack.archive-write")
        private let slots = DispatchSemaphore(value: 8)
        private let lock = NSLock()
        private var firstFailure: String?

        init(file: FileWriter, observe: @escaping (Data) -> Void) {
            self.file = file
            self.observe = observe
        }

        /// The first write error, once one happened.
        var failure: String? { lock.withLock { firstFailure } }

        /// Keeps the first error only: the later ones follow from it.
        private func record(_ message: String) {
            lock.withLock { if firstFailure == nil { firstFailure = message } }
        }

        /// Takes libarchive's bytes; false once a write has failed.
        func take(_ buffer: UnsafeRawBufferPointer) -> Bool {
            guard failure == nil else { return false }
            let block = Data(buffer)
            observe(block)
            bytes += block.count
            slots.wait()
            writing.async {
                defer { self.slots.signal() }
                guard self.failure == nil else { return }
                do {
                    try block.withUnsafeBytes { try self.file.write($0) }
                } catch let error as FileError {
                    self.record(error.message)
                } catch {
                    self.record("\(error)")
                }
            }
            return true
        }

        /// Returns once every block taken is written (or has failed).
        func drain() { writing.sync {} }
    }

    /// Creates (or truncates) `path`. `observe` is given every block of
    /// the archive's bytes, in order, on the calling thread, before the
    /// block is written.
    public init(path: String, format: Format, observe: @escaping (Data) -> Void = { _ in }) throws {
        guard let archive = archive_write_new() else { throw FileError(path: path, message: "libarchive: out of memory") }
        let file: FileWriter
        do {
            file = try FileWriter(path: path)
        } catch {
            archive_write_free(archive)
            throw error
        }
        self.archive = archive
        self.format = format
        self.path = path
        self.sink = Sink(file: file, observe: observe)
        switch format {
        case .zip:
            try check(archive_write_set_format_zip(archive))
        case .tarGz:
            try check(archive_write_set_format_pax_restricted(archive))
            try check(archive_write_add_filter_gzip(archive))
            // gzip stores the current time unless told not to.
            try check(archive_write_set_filter_option(archive, "gzip", "timestamp", nil))
        case .tarZst:
            try check(archive_write_set_format_pax_restricted(archive))
            try check(archive_write_add_filter_zstd(archive))
        }
        // No padding after the last block: what libarchive's own file
        // writer does for regular files.
        archive_write_set_bytes_in_last_block(archive, 1)
        // Larger blocks, fewer write calls; with no last-block padding the
        // bytes written are the same.
        archive_write_set_bytes_per_block(archive, 1 << 20)
        try check(archive_write_open(archive, Unmanaged.passUnretained(sink).toOpaque(), nil, { _, context, buffer, length in
            let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
            return sink.take(UnsafeRawBufferPointer(start: buffer, count: length)) ? la_ssize_t(length) : -1
        }, nil))
    }

    /// Frees libarchive's handle; the file is closed once the last block
    /// queued is written and the sink is released.
    deinit {
        if !closed { archive_write_close(archive) }
        archive_write_free(archive)
        sink.drain()
    }

    /// Adds a regular file; `compress` chooses deflate or store in a zip
    /// (already-compressed images gain nothing from deflate).
    public func add(path entryPath: String, size: Int, mtime: Int, compress: Bool, body: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        if format == .zip {
            if timeChecked != mtime {
                guard ArchiveTimes.localMatchesUTC(mtime) else {
                    throw FileError(path: path, message: "zip times would follow the local time zone; call ArchiveTimes.useUTC() at start")
                }
                timeChecked = mtime
            }
            try check(compress ? archive_write_zip_set_compression_deflate(archive) : archive_write_zip_set_compression_store(archive))
        }
        guard let entry = archive_entry_new() else { throw FileError(path: path, message: "libarchive: out of memory") }
        defer { archive_entry_free(entry) }
        archive_entry_set_pathname_utf8(entry, entryPath)
        archive_entry_set_filetype(entry, 0o100000)  // AE_IFREG
        archive_entry_set_perm(entry, 0o644)
        archive_entry_set_size(entry, la_int64_t(size))
        archive_entry_set_mtime(entry, time_t(mtime), 0)
        archive_entry_set_uid(entry, 0)
        archive_entry_set_gid(entry, 0)
        try check(archive_write_header(archive, entry))
        var written = 0
        try body { chunk in
            guard chunk.count > 0 else { return }
            let n = archive_write_data(archive, chunk.baseAddress, chunk.count)
            guard n == chunk.count else { throw self.failure() }
            written += chunk.count
        }
        guard written == size else {
            throw FileError(path: path, message: "\(entryPath): wrote \(written) bytes, expected \(size)")
        }
        try check(archive_write_finish_entry(archive))
    }

    public func add(path entryPath: String, data: Data, mtime: Int, compress: Bool) throws {
        try add(path: entryPath, size: data.count, mtime: mtime, compress: compress) { write in
            try data.withUnsafeBytes { try write($0) }
        }
    }

    /// Finishes the archive and flushes it to disk; returns its size.
    public func finish() throws -> Int {
        closed = true
        let status = archive_write_close(archive)
        sink.drain()
        try check(status)
        if sink.failure != nil { throw failure() }
        try sink.file.sync()
        return sink.bytes
    }

    private func check(_ status: Int32) throws {
        if status < ARCHIVE_WARN { throw failure() }
    }

    private func failure() -> FileError {
        let text = sink.failure ?? libarchiveError(archive) ?? "unknown libarchive error"
        return FileError(path: path, message: text)
    }
}

extension ArchiveWriter {
    /// libarchive's version and those of the compressors it was built with
    /// ("libarchive 3.6.2 zlib/1.2.13 ... libzstd/1.5.4"), as it reports
    /// them: a zip's deflated bytes and a tar's zstd or gzip stream depend
    /// on them.
    public static let libraryVersion = String(cString: archive_version_details())
}
