/// One finding of `mcpack verify`: where, which rule, what.
public struct Problem: Sendable, Codable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable { case error, warning }

    /// The entry (path inside the bag) or file the problem is about.
    public var path: String
    /// A stable short name, e.g. `fixity`, `unsafe-path`, `pyramid-complete`.
    public var rule: String
    public var message: String
    public var severity: Severity
    /// The section of RFC 8493 the rule comes from ("2.2.3"), for BagIt
    /// rules; nil for mcpack's own (archive safety, content).
    public var section: String?
    /// The 1-based line of `path` the problem is on, for findings about one
    /// line of a tag file (a manifest line, a fetch.txt line).
    public var line: Int?

    public init(_ path: String, _ rule: String, _ message: String, severity: Severity = .error, section: String? = nil, line: Int? = nil) {
        self.path = path
        self.rule = rule
        self.message = message
        self.severity = severity
        self.section = section
        self.line = line
    }

    public var description: String { "\(path): \(rule): \(message)" + (section.map { " (RFC 8493 §\($0))" } ?? "") }
}
