import CArchive
import Foundation

/// Writes a zip, tar.gz or tar.zst through libarchive, the same bytes for
/// the same entries: fixed times and owners, no host details. The archive
/// file's own SHA-256 is computed (on the hashing queue's core) as its
/// bytes go out, so the .sha256 costs no second read.
final class ArchiveWriter {
    private let archive: OpaquePointer
    private let format: ArchiveFormat
    private let path: String
    private let sink: Sink
    private var closed = false

    /// Where libarchive's output goes: the file, and the hash of its bytes.
    ///
    /// Blocks are written on a thread of their own, so the kernel's copy
    /// into the page cache runs beside the reading and CRC on this one and
    /// the hashing on a third. On a VM that must fault in each fresh page
    /// the copy was over half of a rebuild's write (2026-11-22). At most
    /// `slots` blocks wait at once, so memory stays bounded.
    private final class Sink: @unchecked Sendable {
        let fd: Int32
        let hasher = Digest()
        let hashing: HashingQueue
        var bytes = 0
        private let writing = DispatchQueue(label: "mcpack.archive-write")
        private let slots = DispatchSemaphore(value: 8)
        private let lock = NSLock()
        private var firstFailure: String?

        init(fd: Int32, hashing: HashingQueue) {
            self.fd = fd
            self.hashing = hashing
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
            hashing.update(hasher, with: block)
            bytes += block.count
            slots.wait()
            writing.async {
                defer { self.slots.signal() }
                guard self.failure == nil else { return }
                block.withUnsafeBytes { self.writeAll($0) }
            }
            return true
        }

        /// Returns once every block taken is written (or has failed).
        func drain() { writing.sync {} }

        private func writeAll(_ bytes: UnsafeRawBufferPointer) {
            var offset = 0
            while offset < bytes.count {
                let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    record(String(cString: strerror(errno)))
                    return
                }
                offset += n
            }
        }
    }

    init(path: String, format: ArchiveFormat, hashing: HashingQueue = HashingQueue()) throws {
        // libarchive's zip writer turns times into DOS fields through the
        // local time zone; pin it so TZ cannot change the bytes.
        setenv("TZ", "UTC0", 1)
        tzset()
        guard let archive = archive_write_new() else { throw FileError(path: path, message: "libarchive: out of memory") }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            archive_write_free(archive)
            throw FileError(path: path, message: "cannot create: \(String(cString: strerror(errno)))")
        }
        self.archive = archive
        self.format = format
        self.path = path
        self.sink = Sink(fd: fd, hashing: hashing)
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

    deinit {
        if !closed { archive_write_close(archive) }
        archive_write_free(archive)
        sink.drain()
        close(sink.fd)
    }

    /// Adds a regular file; `compress` chooses deflate or store in a zip
    /// (already-compressed images gain nothing from deflate).
    func add(path entryPath: String, size: Int, mtime: Int, compress: Bool, body: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        if format == .zip {
            try check(compress ? archive_write_zip_set_compression_deflate(archive) : archive_write_zip_set_compression_store(archive))
        }
        let entry = archive_entry_new()!
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

    func add(path entryPath: String, data: Data, mtime: Int, compress: Bool) throws {
        try add(path: entryPath, size: data.count, mtime: mtime, compress: compress) { write in
            try data.withUnsafeBytes { try write($0) }
        }
    }

    /// Finishes the archive; returns its SHA-256 and size.
    func finish() throws -> (sha256: String, bytes: Int) {
        closed = true
        let status = archive_write_close(archive)
        sink.drain()
        try check(status)
        if sink.failure != nil { throw failure() }
        guard fsync(sink.fd) == 0 else { throw FileError(path: path, message: "cannot flush to disk: \(String(cString: strerror(errno)))") }
        sink.hashing.drain()
        return (sink.hasher.finish(), sink.bytes)
    }

    private func check(_ status: Int32) throws {
        if status < ARCHIVE_WARN { throw failure() }
    }

    private func failure() -> FileError {
        let text = sink.failure ?? archive_error_string(archive).map { String(cString: $0) } ?? "unknown libarchive error"
        return FileError(path: path, message: text)
    }
}
