import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// flock(2) is the one POSIX call the kit makes itself: FileIO has no lock
// yet. It belongs there (a FileLock beside OutputFile); moved, this file
// keeps only the waiting message.

/// `DIR/.lock`, held with flock(2) for as long as one publisher changes the
/// channel, so that two never interleave their objects and indexes. The
/// kernel lets go of it when the process ends however it ends, so a killed
/// publisher never leaves the channel locked. The file holds the holder's
/// pid, for the message of the one that waits.
final class ChannelLock {
    static let name = ".lock"

    private let fd: Int32

    /// Blocks until the lock is this process's; `waiting` is told first
    /// when another holds it, with that one's pid if it wrote it.
    init(folder: URL, waiting: (String?) -> Void) throws {
        let path = folder.appendingPathComponent(Self.name).path
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(path: path, message: "cannot open the channel's lock: \(String(cString: strerror(errno)))") }
        if Self.lock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK else {
                let message = String(cString: strerror(errno))
                close(fd)
                throw FileError(path: path, message: "cannot lock the channel: \(message)")
            }
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            waiting(holder?.isEmpty == false ? holder : nil)
            guard Self.lock(fd, LOCK_EX) == 0 else {
                let message = String(cString: strerror(errno))
                close(fd)
                throw FileError(path: path, message: "cannot lock the channel: \(message)")
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
