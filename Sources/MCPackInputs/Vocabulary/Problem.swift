/// One finding of `mcpack verify`: where, which rule, what.
package struct Problem: Sendable, Codable, Equatable, CustomStringConvertible {
    package enum Severity: String, Sendable, Codable { case error, warning }

    /// The entry (path inside the bag) or file the problem is about.
    package var path: String
    /// A stable short name, e.g. `fixity`, `unsafe-path`, `pyramid-complete`.
    package var rule: String
    package var message: String
    package var severity: Severity
    /// The section of RFC 8493 the rule comes from ("2.2.3"), for BagIt
    /// rules; nil for mcpack's own (archive safety, content).
    package var section: String?
    /// The 1-based line of `path` the problem is on, for findings about one
    /// line of a tag file (a manifest line, a fetch.txt line).
    package var line: Int?

    package init(_ path: String, _ rule: String, _ message: String, severity: Severity = .error, section: String? = nil, line: Int? = nil) {
        self.path = path
        self.rule = rule
        self.message = message
        self.severity = severity
        self.section = section
        self.line = line
    }

    package var description: String { "\(path): \(rule): \(message)" + (section.map { " (RFC 8493 §\($0))" } ?? "") }
}
