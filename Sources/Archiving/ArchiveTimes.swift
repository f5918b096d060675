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

    /// `seconds` (a Unix time) in UTC as ISO 8601 writes it,
    /// `2026-11-28T21:03:37Z`, or its date alone, `2026-11-28`: the dates
    /// bag-info.txt and bundle.json state. From the C library's calendar,
    /// not Foundation's formatters, which start ICU for them (its code and
    /// data then stay resident for the rest of a build).
    public static func iso8601(_ seconds: Int, time: Bool) -> String {
        var clock = time_t(seconds), parts = tm()
        _ = gmtime_r(&clock, &parts)
        func digits(_ value: Int32, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        let day = "\(digits(parts.tm_year + 1900, 4))-\(digits(parts.tm_mon + 1, 2))-\(digits(parts.tm_mday, 2))"
        guard time else { return day }
        return day + "T\(digits(parts.tm_hour, 2)):\(digits(parts.tm_min, 2)):\(digits(parts.tm_sec, 2))Z"
    }

    /// The Unix time of a date and time of the Gregorian calendar, `offset`
    /// minutes east of UTC; the fields are taken as valid (a TOML parser's).
    /// Through the C library, as `iso8601`.
    public static func unixTime(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0,
                                offset: Int = 0) -> Int {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Int(timegm(&parts)) - offset * 60
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
