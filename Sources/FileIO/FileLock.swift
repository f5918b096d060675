import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive flock(2) on a file, held for the object's life. The kernel
/// lets go of it when the process ends however it ends, so a killed holder
/// never leaves it locked. The file holds the holder's pid, for the message
/// of one that waits.
public final class FileLock {
    private let fd: Int32

    /// Blocks until the lock is this process's; `waiting` is told first
    /// when another holds it, with that one's pid if it wrote it.
    public init(path: String, waiting: (String?) -> Void) throws {
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(path: path, message: "cannot open the lock: \(lastSystemMessage())") }
        if Self.lock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK else {
                let message = lastSystemMessage()
                close(fd)
                throw FileError(path: path, message: "cannot lock: \(message)")
            }
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            waiting(holder?.isEmpty == false ? holder : nil)
            guard Self.lock(fd, LOCK_EX) == 0 else {
                let message = lastSystemMessage()
                close(fd)
                throw FileError(path: path, message: "cannot lock: \(message)")
            }
        }
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 { _ = pwrite(fd, pid, pid.count, 0) }
    }

    deinit {
        _ = ftruncate(fd, 0)
        close(fd)
    }

    private static func lock(_ fd: Int32, _ operation: Int32) -> Int32 {
        while true {
            let result = flock(fd, operation)
            if result == 0 || errno != EINTR { return result }
        }
    }
}
