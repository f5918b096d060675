import Foundation

/// The trusted comment of `index.json.minisig`: `channel:NAME sequence:N
/// expires:TIME`. minisign's global signature covers it, so `minisign -V`
/// shows a person what a channel's index claims, and a reader can hold the
/// index to it: an index whose name, sequence or expiry differ from its
/// signature's comment is refused.
public struct ChannelTrustedComment: Sendable, Equatable, CustomStringConvertible {
    public var channel: String
    public var sequence: Int
    public var expires: String

    public init(channel: String, sequence: Int, expires: String) {
        self.channel = channel
        self.sequence = sequence
        self.expires = expires
    }

    public init(_ index: ChannelIndex) {
        self.init(channel: index.name, sequence: index.sequence, expires: index.expires)
    }

    public var description: String { "channel:\(channel) sequence:\(sequence) expires:\(expires)" }

    /// Nil for a comment of any other shape.
    public static func parse(_ text: String) -> ChannelTrustedComment? {
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count == 3, words[0].hasPrefix("channel:"), words[1].hasPrefix("sequence:"), words[2].hasPrefix("expires:"),
              let sequence = Int(words[1].dropFirst("sequence:".count)) else { return nil }
        let comment = ChannelTrustedComment(channel: String(words[0].dropFirst("channel:".count)), sequence: sequence,
                                            expires: String(words[2].dropFirst("expires:".count)))
        return comment.description == text ? comment : nil
    }

    /// Whether the index says what its signature's comment says.
    public func matches(_ index: ChannelIndex) -> Bool { self == ChannelTrustedComment(index) }
}

/// Semantic Versioning 2.0.0's precedence (§11), which orders a channel's
/// versions and decides which is newer: numbers by value, a pre-release
/// before its release, build metadata ignored.
public enum SemanticOrder {
    /// SemVer 2.0.0's own pattern: no leading zeros, identifiers of
    /// letters, digits and hyphens.
    public static func isVersion(_ text: String) -> Bool {
        text.range(of: #"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-((0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(\.(0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?(\+([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?$"#,
                   options: .regularExpression) != nil
    }

    /// `.orderedSame` for versions that differ only in build metadata;
    /// nil when either is not a semantic version.
    public static func compare(_ a: String, _ b: String) -> ComparisonResult? {
        guard isVersion(a), isVersion(b) else { return nil }
        let (aCore, aPre) = parts(a), (bCore, bPre) = parts(b)
        for (x, y) in zip(aCore, bCore) {
            let order = compareNumbers(x, y)
            if order != .orderedSame { return order }
        }
        switch (aPre.isEmpty, bPre.isEmpty) {
        case (true, true): return .orderedSame
        case (true, false): return .orderedDescending
        case (false, true): return .orderedAscending
        case (false, false): break
        }
        for (x, y) in zip(aPre, bPre) {
            let order = compareIdentifiers(x, y)
            if order != .orderedSame { return order }
        }
        return aPre.count == bPre.count ? .orderedSame : aPre.count < bPre.count ? .orderedAscending : .orderedDescending
    }

    /// The three numbers and the pre-release identifiers; build metadata dropped.
    private static func parts(_ text: String) -> ([Substring], [Substring]) {
        let withoutBuild = text.split(separator: "+", maxSplits: 1)[0]
        let dash = withoutBuild.firstIndex(of: "-")
        let core = withoutBuild[..<(dash ?? withoutBuild.endIndex)].split(separator: ".")
        let pre = dash.map { withoutBuild[withoutBuild.index(after: $0)...].split(separator: ".") } ?? []
        return (core, pre)
    }

    /// Numbers of any length (no leading zeros, so the longer is larger).
    private static func compareNumbers(_ a: Substring, _ b: Substring) -> ComparisonResult {
        if a.count != b.count { return a.count < b.count ? .orderedAscending : .orderedDescending }
        return a == b ? .orderedSame : a < b ? .orderedAscending : .orderedDescending
    }

    /// Numeric identifiers below alphanumeric ones; those by ASCII.
    private static func compareIdentifiers(_ a: Substring, _ b: Substring) -> ComparisonResult {
        let aNumber = a.allSatisfy(\.isASCIIDigit), bNumber = b.allSatisfy(\.isASCIIDigit)
        switch (aNumber, bNumber) {
        case (true, true): return compareNumbers(a, b)
        case (true, false): return .orderedAscending
        case (false, true): return .orderedDescending
        case (false, false):
            if a == b { return .orderedSame }
            return a.utf8.lexicographicallyPrecedes(b.utf8) ? .orderedAscending : .orderedDescending
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
