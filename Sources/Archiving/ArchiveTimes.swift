import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libarchive turns times into a zip's DOS date fields through the C
/// library's local time zone, both ways. That is process-wide state, so it
/// is set by the program at start, not by the readers and writers:
///
/// - Writing: the same entries must give the same bytes under any TZ.
///   `ArchiveWriter` refuses to write a zip entry whose DOS time would
///   differ from its UTC time, so a process that forgot `useUTC()` fails
///   loudly instead of writing other bytes.
/// - Reading: with TZ unset, glibc's mktime stats /etc/localtime for every
///   entry's DOS time, one system call per file of the bag; with TZ set it
///   does not. mcpack never uses entry times.
public enum ArchiveTimes {
    /// Sets TZ to UTC for the whole process. Call first thing in `main`,
    /// before any thread starts (setenv is not thread-safe).
    public static func useUTC() {
        setenv("TZ", "UTC0", 1)
        tzset()
    }

    /// True when a DOS time made from `time` (a Unix time) through the
    /// local zone holds that time's UTC fields.
    static func localMatchesUTC(_ time: Int) -> Bool {
        var seconds = time_t(time)
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else { return false }
        return local.tm_gmtoff == 0
    }
}
