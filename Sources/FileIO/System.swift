#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The only place above which no one sees errno: every failed call is turned
// into a FileError here, with the system's words for it.

/// The system's text for an errno value.
func systemMessage(_ code: Int32) -> String {
    String(cString: strerror(code))
}

/// The current errno's text.
func lastSystemMessage() -> String {
    systemMessage(errno)
}

/// Opens `path` read-only (and with `flags`), or throws a FileError naming it.
func openForReading(_ path: String, flags: Int32 = 0) throws -> Int32 {
    let fd = open(path, O_RDONLY | O_CLOEXEC | flags)
    guard fd >= 0 else { throw FileError(path: path, message: "cannot open for reading: \(lastSystemMessage())") }
    return fd
}

/// Shell-style wildcards (`*`, `?`, `[...]`) as the C library's fnmatch
/// matches them with no flags: `*` crosses `/`, as Python's fnmatch (which
/// bagit-profile uses) and OpenSSH's pattern lists do.
public enum Wildcard {
    public static func matches(_ text: String, pattern: String) -> Bool {
        fnmatch(pattern, text, 0) == 0
    }
}

/// Puts what was written to `fd` on the disk itself: fsync(2), except on
/// Darwin, whose fsync leaves the bytes in the drive's cache, where a power
/// loss can still take them; there `F_FULLFSYNC` asks the drive to flush,
/// with fsync kept for the file systems that refuse it (network volumes).
func syncToDisk(_ fd: Int32) -> Int32 {
    #if canImport(Darwin)
    if fcntl(fd, F_FULLFSYNC) == 0 { return 0 }
    #endif
    return fsync(fd)
}
