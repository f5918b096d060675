import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
private let systemWrite = Glibc.write
#else
private let systemWrite = Darwin.write
#endif

/// A file created (or truncated) for writing, written in full or not at
/// all, flushed to disk on request, closed when released. Not thread-safe:
/// one thread writes at a time.
public final class FileWriter {
    public let path: String
    private let fd: Int32

    public init(path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(path: path, message: "cannot create: \(lastSystemMessage())") }
    }

    deinit { close(fd) }

    /// Writes every byte, retrying short writes and interruptions.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let n = systemWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, message: lastSystemMessage())
            }
            offset += n
        }
    }

    /// Returns once the bytes written are on disk (`syncToDisk`).
    public func sync() throws {
        guard syncToDisk(fd) == 0 else { throw FileError(path: path, message: "cannot flush to disk: \(lastSystemMessage())") }
    }
}
