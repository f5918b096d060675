import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written beside its final path under a temporary name and renamed
/// into place only when complete: a crash, kill or Ctrl-C leaves nothing at
/// the final path. Temporary names carry the writer's pid, so a later run
/// can tell an abandoned one from one still being written.
public final class OutputFile {
    public static let marker = ".partial-"

    public let final: URL
    public let temporary: URL
    private var committed = false

    public init(final: URL) {
        self.final = final
        temporary = Self.temporary(for: final)
        InterruptCleanup.register(temporary.path)
    }

    /// The temporary name this process gives `final` while making it
    /// (`.<name>.partial-<pid>` beside it): a file, or a folder renamed
    /// into place whole, which `removeAbandoned` cleans up after a crash.
    public static func temporary(for final: URL) -> URL {
        final.deletingLastPathComponent().appendingPathComponent(".\(final.lastPathComponent)\(marker)\(getpid())")
    }

    deinit {
        if !committed { try? FileManager.default.removeItem(at: temporary) }
        InterruptCleanup.unregister()
    }

    public func commit() throws {
        guard rename(temporary.path, final.path) == 0 else {
            throw FileError(path: final.path, message: "cannot move the finished file into place: \(lastSystemMessage())")
        }
        committed = true
        // The rename is durable only once the folder itself is on disk.
        let folder = open(final.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        if folder >= 0 { _ = syncToDisk(folder); close(folder) }
    }

    /// Removes temporary files left by runs that died (their pid is gone).
    public static func removeAbandoned(in folder: URL) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(".") {
            guard let range = name.range(of: marker, options: .backwards),
                  let pid = Int32(name[range.upperBound...]) else { continue }
            if pid != getpid() && kill(pid, 0) == -1 && errno == ESRCH {
                if (try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))) != nil {
                    removed.append(name)
                }
            }
        }
        return removed
    }

    /// Writes small data (a .sha256 file) the same careful way.
    /// Not FileManager.createFile: on Linux it writes a temporary file of its
    /// own (`.dat.nosync…`), whose name no later run could tell abandoned.
    public static func write(_ data: Data, to url: URL) throws {
        let file = OutputFile(final: url)
        let fd = open(file.temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(path: url.path, message: "cannot write: \(lastSystemMessage())") }
        defer { close(fd) }
        do {
            try FileHandle(fileDescriptor: fd, closeOnDealloc: false).write(contentsOf: data)
        } catch {
            throw FileError(path: url.path, message: "cannot write: \(error.localizedDescription)")
        }
        guard syncToDisk(fd) == 0 else { throw FileError(path: url.path, message: "cannot write: \(lastSystemMessage())") }
        try file.commit()
    }
}

/// On SIGINT or SIGTERM, removes the temporary file being written, then
/// exits as the signal would have. Only async-signal-safe calls in there.
enum InterruptCleanup {
    nonisolated(unsafe) private static var path: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var installed = false

    static func register(_ temporary: String) {
        let old = path
        path = strdup(temporary)
        free(old)
        if !installed {
            installed = true
            signal(SIGINT, handler)
            signal(SIGTERM, handler)
        }
    }

    static func unregister() {
        let old = path
        path = nil
        free(old)
    }

    private static let handler: @convention(c) (Int32) -> Void = { signal in
        if let path = InterruptCleanup.path { unlink(path) }
        _exit(128 + signal)
    }
}
