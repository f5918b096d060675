import Foundation

/// Times as ssh-keygen reads them in allowed_signers options and
/// `-Overify-time` (misc.c, parse_absolute_time): YYYYMMDD, YYYYMMDDHHMM or
/// YYYYMMDDHHMMSS, UTC with a `Z` (or `UTC`) after it, else local time.
enum SSHTime {
    /// Seconds since 1970; nil when the text is no such time, or is 1970's
    /// first second (which OpenSSH takes for "not set").
    static func parse(_ text: String) -> UInt64? {
        var digits = Substring(text)
        var utc = false
        if digits.count > 1, digits.last == "Z" || digits.last == "z" {
            utc = true
            digits = digits.dropLast()
        } else if digits.count > 3, digits.suffix(3).uppercased() == "UTC" {
            utc = true
            digits = digits.dropLast(3)
        }
        guard [8, 12, 14].contains(digits.count), digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        let characters = Array(digits)
        func field(_ at: Int, _ width: Int) -> Int { at + width <= characters.count ? Int(String(characters[at..<at + width]))! : 0 }
        let (year, month, day) = (field(0, 4), field(4, 2), field(6, 2))
        let (hour, minute, second) = (field(8, 2), field(10, 2), field(12, 2))
        // strptime's ranges; a day past the month's end rolls over, as mktime rolls it.
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else {
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let asUTC = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)) else {
            return nil
        }
        var seconds = Int64(asUTC.timeIntervalSince1970)
        if !utc {
            // OpenSSH zeroes the struct tm, so mktime reads the fields as
            // standard time (tm_isdst 0) even in summer: the same here.
            let zone = UserTimeZone.zone
            seconds -= Int64(zone.secondsFromGMT(for: asUTC)) - Int64(zone.daylightSavingTimeOffset(for: asUTC))
        }
        return seconds > 0 ? UInt64(seconds) : nil
    }

    /// As ssh-keygen prints a time: local, `YYYY-MM-DDTHH:MM:SS`.
    static func text(_ seconds: UInt64) -> String {
        guard seconds < UInt64(Int64.max / 2) else { return "forever" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = UserTimeZone.zone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    static var now: UInt64 { UInt64(max(0, Date().timeIntervalSince1970)) }
}

/// The user's time zone, as TZ (or else the system) named it before
/// MCPackProcess set TZ to UTC for libarchive: allowed_signers times
/// without a Z are the user's local time, as ssh-keygen reads them.
package enum UserTimeZone {
    /// Written once, by `capture()` in `main` before any thread starts.
    nonisolated(unsafe) private static var captured: String??

    /// Call before TZ is changed. Only TZ's text is kept: asking Foundation
    /// for the zone now would fix its default zone for the whole process.
    package static func capture() {
        captured = .some(ProcessInfo.processInfo.environment["TZ"])
    }

    static var zone: TimeZone {
        guard let captured else { return TimeZone.current }
        guard let name = captured else {
            // No TZ: the system's zone, which /etc/localtime links to.
            let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime")) ?? ""
            let identifier = link.components(separatedBy: "zoneinfo/").last ?? ""
            return TimeZone(identifier: identifier) ?? TimeZone(identifier: "UTC")!
        }
        // A POSIX rule ("CET-1CEST...") Foundation cannot read counts as UTC.
        return TimeZone(identifier: name.hasPrefix(":") ? String(name.dropFirst()) : name) ?? TimeZone(identifier: "UTC")!
    }
}
