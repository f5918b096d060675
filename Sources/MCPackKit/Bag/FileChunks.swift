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

/// Reads a file in 1 MiB chunks with plain read(2) into one reused buffer:
/// over tens of thousands of tiles, FileHandle's Data per read and URL
/// building showed up as a fifth of a rebuild.
enum FileChunks {
    static let chunkSize = 1 << 20

    /// Calls `body` with each chunk; returns the byte count.
    @discardableResult
    static func read(_ path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        let fd = try openForReading(path)
        defer { close(fd) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var total = 0
        while true {
            let n = systemRead(fd, buffer.baseAddress, chunkSize)
            if n == 0 { return total }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, message: "read failed: \(String(cString: strerror(errno)))")
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
    static func readOwned(_ path: String, expected: Int, _ body: (Data) throws -> Void) throws -> Int {
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
                throw FileError(path: path, message: "read failed: \(String(cString: strerror(error)))")
            }
            try body(Data(bytesNoCopy: memory, count: n, deallocator: .free))
            total += n
        }
    }

    private static func openForReading(_ path: String) throws -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: path, message: "cannot open for reading: \(String(cString: strerror(errno)))") }
        return fd
    }
}
