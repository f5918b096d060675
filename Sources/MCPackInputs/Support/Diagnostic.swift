import Foundation

/// One problem found in a user's input: where it is, what is wrong, and
/// what would be right. Rendered as `file:line: key: message`.
package struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible, Codable {
    package enum Severity: String, Sendable, Codable { case error, warning }

    /// The file, as the user would name it (relative to the working folder).
    package var file: String
    /// The line, where the TOML source gives one.
    package var line: Int?
    /// The dotted key path, e.g. `document.tile_size` or `clause "39".colour`.
    package var key: String?
    package var message: String
    package var severity: Severity

    package init(file: String, line: Int? = nil, key: String? = nil, message: String, severity: Severity = .error) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
        self.severity = severity
    }

    private enum CodingKeys: String, CodingKey { case file, line, key, message, severity }
    private enum AliasKeys: String, CodingKey { case path }

    /// JSON output names the file `path`, as verify's problems do; `file`,
    /// the same value, stays for readers written before (deprecated).
    package func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encodeIfPresent(line, forKey: .line)
        try container.encodeIfPresent(key, forKey: .key)
        try container.encode(message, forKey: .message)
        try container.encode(severity, forKey: .severity)
        var alias = encoder.container(keyedBy: AliasKeys.self)
        try alias.encode(file, forKey: .path)
    }

    /// One line, with any control character in a name or value shown as
    /// `\u0007`: a file name holding ESC must not drive the terminal.
    package var description: String {
        var text = printable(file)
        if let line { text += ":\(line)" }
        text += ": "
        if severity == .warning { text += "warning: " }
        if let key { text += printable(key) + ": " }
        return text + printable(message)
    }
}

/// `text` with each control character written as a TOML escape, `\u0007`.
package func printable(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
        if isControl(scalar) { result += String(format: "\\u%04X", scalar.value) } else { result.unicodeScalars.append(scalar) }
    }
    return result
}

/// The first control character in `text`, as "U+0007", for messages.
package func firstControlCharacter(_ text: String) -> String? {
    text.unicodeScalars.first(where: isControl).map { String(format: "U+%04X", $0.value) }
}

/// Cc and Cf, as Foundation's `controlCharacters`: C0, DEL, C1, and the
/// invisible format characters such as U+202E, which reverses the text
/// after it.
private func isControl(_ scalar: Unicode.Scalar) -> Bool {
    [.control, .format].contains(scalar.properties.generalCategory)
}

/// Every problem found in one run, thrown together so the user can fix them
/// all at once instead of one per run.
package struct InputError: Error, Sendable, CustomStringConvertible {
    package var diagnostics: [Diagnostic]

    package init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    package var description: String {
        let errors = diagnostics.filter { $0.severity == .error }.count
        let lines = diagnostics.map(\.description)
        return (lines + ["\(errors) error\(errors == 1 ? "" : "s") found; nothing was written"]).joined(separator: "\n")
    }
}

/// Collects diagnostics while a loader walks its input; inputs made on
/// two threads may add at once.
package final class DiagnosticSink: @unchecked Sendable {
    private var items: [Diagnostic] = []
    private let lock = NSLock()

    package init() {}

    package var all: [Diagnostic] { lock.withLock { items } }

    package var hasErrors: Bool { errorCount > 0 }

    package var errorCount: Int { all.count { $0.severity == .error } }

    package func add(_ diagnostic: Diagnostic) { lock.withLock { items.append(diagnostic) } }

    package func add(contentsOf other: [Diagnostic]) { lock.withLock { items.append(contentsOf: other) } }

    /// Throws everything collected so far if any of it is an error.
    package func throwIfErrors() throws {
        if hasErrors { throw InputError(all) }
    }
}

/// The closest candidate by edit distance, for "did you mean" hints.
package func closestMatch(to word: String, in candidates: [String]) -> String? {
    func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, cb) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
    let target = Array(word.lowercased())
    let scored = candidates.map { ($0, distance(target, Array($0.lowercased()))) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    return best.1 <= max(2, word.count / 3) ? best.0 : nil
}
