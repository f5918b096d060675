import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
private let systemRead = Glibc.read
#else
private let systemRead = Darwin.read
#endif

/// Reads a file in chunks with plain read(2) into one reused buffer: over
/// tens of thousands of tiles, FileHandle's Data per read and URL building
/// showed up as a fifth of a rebuild.
public enum FileChunks {
    /// The largest chunk `readOwned` hands over.
    public static let chunkSize = 1 << 20

    /// The size of a read whose bytes are hashed or checked at once, and of
    /// the buffer a reading thread reuses: small enough to stay in the
    /// core's L2 cache between the kernel's copy out of the page cache and
    /// the hash, with the core's other hardware thread busy too. Through a
    /// megabyte, the copy went out to memory and the hash read it back,
    /// which on every core at once cost more than the hashing saved by
    /// fewer reads.
    public static let readSize = 64 << 10

    /// Calls `body` with each chunk; returns the byte count.
    @discardableResult
    public static func read(_ path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        let fd = try openForReading(path)
        defer { close(fd) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 16)
        defer { buffer.deallocate() }
        return try read(fd, path, through: buffer, body)
    }

    /// `read` of a regular file through the caller's `buffer`, for one that
    /// reads many small files in turn on a thread of its own. Anything else
    /// is refused unread: opened without waiting, since a FIFO put where a
    /// listed file was would block the read for ever.
    @discardableResult
    public static func read(regular path: String, through buffer: UnsafeMutableRawBufferPointer,
                            _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        precondition(buffer.count > 0, "an empty buffer would read every file as empty")
        // O_NONBLOCK changes nothing in how a regular file is read.
        let fd = try openForReading(path, flags: O_NONBLOCK)
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw FileError(path: path, message: "not a regular file")
        }
        return try read(fd, path, through: buffer, body)
    }

    private static func read(_ fd: Int32, _ path: String, through buffer: UnsafeMutableRawBufferPointer,
                             _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        var total = 0
        while true {
            let n = systemRead(fd, buffer.baseAddress, buffer.count)
            if n == 0 { return total }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, message: "read failed: \(lastSystemMessage())")
            }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            total += n
        }
    }

    /// Like `read`, but each chunk is a Data of its own, so that it can be
    /// handed to another thread without a copy; `expected` (the size the
    /// file should have) sizes the first chunk, so a tile is one read into
    /// one buffer of its size.
    @discardableResult
    public static func readOwned(_ path: String, expected: Int, _ body: (Data) throws -> Void) throws -> Int {
        let fd = try openForReading(path)
        defer { close(fd) }
        var total = 0
        while true {
            // One byte more than expected, so a file that grew is seen.
            let capacity = min(max(expected - total, 0) + 1, chunkSize)
            let memory = malloc(capacity)!
            let n = systemRead(fd, memory, capacity)
            if n <= 0 {
                let error = errno
                free(memory)
                if n == 0 { return total }
                if error == EINTR { continue }
                throw FileError(path: path, message: "read failed: \(systemMessage(error))")
            }
            try body(Data(bytesNoCopy: memory, count: n, deallocator: .free))
            total += n
        }
    }
}

/// A file read at given offsets (pread(2)), for formats read from their
/// end, such as a zip's central directory. Closed when released. Its reads
/// may run on several threads at once (pread(2) moves no shared offset).
public final class FileReader: @unchecked Sendable {
    public let path: String
    private let fd: Int32

    public init(path: String) throws {
        self.path = path
        fd = try openForReading(path)
    }

    deinit { close(fd) }

    /// The file's size in bytes, or nil if it cannot be told.
    public var size: UInt64? {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size >= 0 else { return nil }
        return UInt64(info.st_size)
    }

    /// Exactly `count` bytes from `offset`, or nil where the file holds
    /// fewer there or cannot be read.
    public func read(at offset: UInt64, count: Int) -> [UInt8]? {
        guard count >= 0, offset <= UInt64(Int64.max) else { return nil }
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let n = pread(fd, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                done += n
            }
            failed = done < count
            initialized = done
        }
        return failed ? nil : bytes
    }

    /// Fills `buffer` from `offset` on: the count of bytes read, fewer only
    /// where the file ends; nil where it cannot be read.
    public func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard offset <= UInt64(Int64.max), let base = buffer.baseAddress else { return buffer.isEmpty ? 0 : nil }
        var done = 0
        while done < buffer.count {
            let n = pread(fd, base + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { break }
            done += n
        }
        return done
    }
}
