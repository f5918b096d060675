import Foundation

/// `--expires`: how long an index stays valid, as a whole number of
/// minutes, hours, days or weeks (`90m`, `12h`, `30d`, `2w`).
package enum ChannelDuration {
    /// Long enough for a channel published to monthly to need no renewal
    /// in between; short enough that a frozen channel is found within it.
    package static let defaultLifetime: TimeInterval = 30 * 86_400
    /// Past ten years an expiry stops a freeze from nothing.
    package static let maximum: TimeInterval = 3_650 * 86_400

    package static func parse(_ text: String) -> TimeInterval? {
        let units: [Character: TimeInterval] = ["m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
        guard let unit = text.last.flatMap({ units[$0] }), text.count <= 12,
              let count = Int(text.dropLast()), count > 0, text.dropLast().allSatisfy(\.isASCII) else { return nil }
        let seconds = TimeInterval(count) * unit
        return seconds <= maximum ? seconds : nil
    }
}
