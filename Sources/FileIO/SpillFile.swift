import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes set aside on disk instead of in memory, read back once by offset.
/// The file is unlinked as soon as it is open: only this process can reach
/// it, and a crash or kill leaves nothing behind for a later run to find.
/// Not thread-safe: one thread appends and reads.
public final class SpillFile {
    /// Where it was made, for messages; the name itself is gone at once.
    public let folder: String
    private let fd: Int32
    private var end: UInt64 = 0

    public init(in folder: String) throws {
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/.spill-\(getpid())-\(UUID().uuidString)"
        fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileError(path: path, message: "cannot create: \(lastSystemMessage())") }
        unlink(path)
    }

    deinit { close(fd) }

    /// Writes `data` after what was written before; returns where it lies.
    public func append(_ data: Data) throws -> (offset: UInt64, count: Int) {
        let offset = end
        try data.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw FileError(path: folder, message: "cannot set bytes aside: \(lastSystemMessage())")
                }
                done += n
            }
        }
        end += UInt64(data.count)
        return (offset, data.count)
    }

    /// Drops everything appended so far (its offsets are no longer good),
    /// giving the disk space back.
    public func empty() throws {
        guard ftruncate(fd, 0) == 0 else { throw FileError(path: folder, message: "cannot empty the bytes set aside: \(lastSystemMessage())") }
        end = 0
    }

    /// The `count` bytes appended at `offset`.
    public func read(at offset: UInt64, count: Int) throws -> Data {
        var data = Data(count: count)
        try data.withUnsafeMutableBytes { buffer in
            var done = 0
            while done < count {
                let n = pread(fd, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    throw FileError(path: folder, message: "cannot read back bytes set aside: \(n < 0 ? lastSystemMessage() : "file cut short")")
                }
                done += n
            }
        }
        return data
    }
}
