import FileIO
import Foundation

/// `DIR/.lock`, held for as long as one publisher changes the channel, so
/// that two never interleave their objects and indexes (FileLock: flock(2),
/// released by the kernel however the publisher ends).
final class ChannelLock {
    static let name = ".lock"

    private let lock: FileLock

    /// Blocks until the lock is this process's; `waiting` is told first
    /// when another publisher holds it, with its pid if it wrote it.
    init(folder: URL, waiting: (String?) -> Void) throws {
        lock = try FileLock(path: folder.appendingPathComponent(Self.name).path, waiting: waiting)
    }
}
