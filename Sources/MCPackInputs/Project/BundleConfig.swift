import Archiving
import Foundation
import MCPackSchema
import TOMLKit

/// bundle.toml, typed. Paths are project-relative, already checked to exist
/// inside the project folder.
package struct BundleConfig: Sendable {
    package var name: String
    package var version: SemanticVersion
    package var title: String
    package var output: String
    package var format: ArchiveFormat
    /// The fixed time written into the archive, when bundle.toml sets one.
    package var sourceDate: Date?
    /// Each input's own table, read by the input (Inputs/*/).
    package var inputs: InputSettings
    package var copies: [CopyPair]

    /// The archive's top folder and file stem: `<name>-<version>`.
    package var stem: String { "\(name)-\(version)" }

    /// What `[bundle] name` must match: lower-case ASCII letters and digits
    /// in words joined by single hyphens, so the name is a file name and a
    /// URL path segment everywhere. Templates/init's comment quotes it.
    package static let namePattern = "^[a-z0-9]+(-[a-z0-9]+)*$"

    /// Whether `text` matches `namePattern`, through Swift's own regex
    /// engine: Foundation's would start ICU's for it.
    package static func isName(_ text: String) -> Bool {
        // A constant pattern, which the tests of bundle names parse.
        text.wholeMatch(of: try! Regex(namePattern)) != nil
    }
}

package struct CopyPair: Sendable, Codable, Equatable {
    package var assets: String
    package var app: String
}

/// A semantic version (semver.org 2.0.0).
package struct SemanticVersion: Sendable, Hashable, CustomStringConvertible, Codable {
    package let text: String

    package init?(_ text: String) {
        // semver.org's pattern with each \d spelled [0-9], since \d takes the
        // digits of every script.
        let pattern = #/(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-((0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)(\.(0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*))*))?(\+([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?/#
        guard text.wholeMatch(of: pattern) != nil else { return nil }
        self.text = text
    }

    package var description: String { text }

    package init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let version = SemanticVersion(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a semantic version: \(text)"))
        }
        self = version
    }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

extension BundleConfig {
    /// Reads bundle.toml. Every problem goes to `sink`; the config is nil
    /// if any key is wrong or missing. The settings of each input whose own
    /// table is sound are returned either way, for a check of those inputs.
    package static func read(_ source: TOMLSource, paths: ProjectPaths) -> (config: BundleConfig?, inputs: InputSettings) {
        let root = source.rootReader
        let sink = source.sink
        let before = sink.all.count

        let bundle = root.table("bundle")
        let name = bundle?.string("name")
        if let name, !isName(name) {
            bundle?.error("name", "\"\(name)\" is not a bundle name; use lower-case letters, digits and single hyphens, e.g. \"magna-carta\"")
        }
        let versionText = bundle?.string("version")
        let version = versionText.flatMap(SemanticVersion.init)
        if let versionText, version == nil {
            bundle?.error("version", "\"\(versionText)\" is not a semantic version; expected MAJOR.MINOR.PATCH such as \"1.0.0\"")
        }
        let title = bundle?.string("title")
        let output = bundle?.string("output", required: false) ?? "dist"
        if let bundle, bundle.has("output") { _ = paths.check(bundle, "output", kind: .outputFolder) }
        let format = (bundle?.choice("format", of: ArchiveFormat.built.map(\.rawValue), required: false))
            .flatMap(ArchiveFormat.init(rawValue:)) ?? .zip
        var sourceDate: Date?
        if let bundle, let value = bundle.table["source_date"] {
            sourceDate = Self.date(value)
            if sourceDate == nil {
                bundle.error("source_date", "expected a TOML date or date-time no earlier than 1980-01-01, such as 2026-05-01, got \(TableReader.describe(value))")
            }
        }
        bundle?.rejectUnknownKeys(known: ["name", "version", "title", "output", "format", "source_date"])

        var inputs = InputSettings()
        var inputsRead = true
        var tables: [String] = []
        var declared = false
        for input in Inputs.all {
            inputsRead = input.readSettings(root, paths: paths, into: &inputs) && inputsRead
            // One made by default (the preview page) needs the others.
            if input.defaultSettings == nil, !tables.contains(input.table) { tables.append(input.table) }
            declared = declared || root.has(input.table)
        }
        // Every input may be left out, but not all of them: a bundle of
        // bundle.json alone is a mistake, not a handover.
        if !declared, let bundle {
            bundle.error(nil, "the project declares no input; add at least one of \(tables.map { "[\($0)]" }.joined(separator: ", "))")
            inputsRead = false
        }

        var copies: [CopyPair] = []
        for (index, t) in root.tables("copies").enumerated() {
            let named = t.named("copies[\(index + 1)]")
            let assets = paths.check(named, "assets", kind: .any)
            let app = paths.check(named, "app", kind: .outputFolder)
            named.rejectUnknownKeys(known: ["assets", "app"])
            if let assets, let app { copies.append(CopyPair(assets: assets, app: app)) }
        }

        root.rejectUnknownKeys(known: ["bundle"] + Inputs.all.map { $0.table } + ["copies"])

        guard sink.all[before...].allSatisfy({ $0.severity != .error }),
              inputsRead, let name, let version, let title
        else { return (nil, inputs) }
        return (BundleConfig(
            name: name, version: version, title: title, output: output, format: format, sourceDate: sourceDate,
            inputs: inputs, copies: copies), inputs)
    }

    /// A date, or a date and time (UTC unless it gives its offset), from
    /// 1980 on: zip stores DOS times.
    private static func date(_ value: TOMLValueConvertible) -> Date? {
        let seconds: Int
        if let date = value.date {
            seconds = ArchiveTimes.unixTime(year: Int(date.year), month: Int(date.month), day: Int(date.day))
        } else if let dateTime = value.dateTime {
            let (date, time) = (dateTime.date, dateTime.time)
            seconds = ArchiveTimes.unixTime(year: Int(date.year), month: Int(date.month), day: Int(date.day),
                                            hour: Int(time.hour), minute: Int(time.minute), second: Int(time.second),
                                            offset: Int(dateTime.offset?.offset ?? 0))
        } else {
            return nil
        }
        guard seconds >= 315_532_800 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
