import Foundation

/// The checkout these tests read, found from this file's own path so that
/// they need no working directory and no dependency on any target.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// The Swift targets under Sources/, each with its files; C-only targets have none and drop out.
    static func swiftTargets() throws -> [(name: String, files: [SwiftSource])] {
        let sources = url("Sources")
        return try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted().compactMap { name in
            let files = try SwiftSource.files(under: sources.appendingPathComponent(name))
            return files.isEmpty ? nil : (name, files)
        }
    }

    /// A text file's lines with `#` comments and blank lines gone.
    static func dataLines(_ relative: String) throws -> [String] {
        try String(contentsOf: url(relative), encoding: .utf8)
            .split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
