import Foundation
import TOMLKit

/// A TOML file parsed by TOMLKit, with the line of each key and table so
/// that every diagnostic can point at a line.
final class TOMLSource {
    let displayPath: String
    let root: TOMLTable
    let sink: DiagnosticSink
    /// The file's own hash and size, from the one read that parsed it.
    let sha256: String
    let byteCount: Int
    private let lines: KeyLines

    private init(displayPath: String, root: TOMLTable, lines: KeyLines, sink: DiagnosticSink, data: Data) {
        self.displayPath = displayPath
        self.root = root
        self.lines = lines
        self.sink = sink
        self.sha256 = Digest.hex(data)
        self.byteCount = data.count
    }

    /// Reads and parses a file; on failure records why and returns nil.
    static func load(_ file: URL, displayPath: String, sink: DiagnosticSink) -> TOMLSource? {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            let exists = FileManager.default.fileExists(atPath: file.path)
            sink.add(Diagnostic(file: displayPath, message: exists ? "cannot read the file" : "no such file"))
            return nil
        }
        guard let text = String(data: data, encoding: .utf8) else {
            sink.add(Diagnostic(file: displayPath, message: "not UTF-8 text; TOML files must be UTF-8"))
            return nil
        }
        return parse(text, displayPath: displayPath, sink: sink)
    }

    static func parse(_ text: String, displayPath: String, sink: DiagnosticSink) -> TOMLSource? {
        do {
            let root = try TOMLTable(string: text)
            return TOMLSource(displayPath: displayPath, root: root, lines: KeyLines(text), sink: sink, data: Data(text.utf8))
        } catch let error as TOMLParseError {
            sink.add(Diagnostic(
                file: displayPath, line: error.source.begin.line,
                message: "TOML syntax: \(error.description) (column \(error.source.begin.column))"))
            return nil
        } catch {
            sink.add(Diagnostic(file: displayPath, message: "TOML syntax: \(error)"))
            return nil
        }
    }

    var rootReader: TableReader { TableReader(source: self, table: root, path: "", location: "") }

    func line(_ location: String) -> Int? { lines.line(for: location) }
}

/// Where each key and table header sits in a TOML text. TOMLKit keeps no
/// source positions for values, so this scans the lines for `[table]`,
/// `[[array]]` and `key =`, skipping multi-line strings and arrays. It only
/// locates; the values always come from TOMLKit.
struct KeyLines {
    private var map: [String: Int] = [:]

    init(_ text: String) {
        var table = ""
        var arrayCounts: [String: Int] = [:]
        var openString: String?
        var depth = 0
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if let delimiter = openString {
                if line.components(separatedBy: delimiter).count % 2 == 0 { openString = nil }
                continue
            }
            if depth > 0 {
                depth += Self.bracketBalance(line)
                continue
            }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[[") , let end = line.range(of: "]]") {
                let name = Self.normalise(String(line[line.index(line.startIndex, offsetBy: 2)..<end.lowerBound]))
                let count = arrayCounts[name, default: 0]
                arrayCounts[name] = count + 1
                table = "\(name)#\(count)"
                map[table] = number
                continue
            }
            if line.hasPrefix("["), let end = line.firstIndex(of: "]") {
                table = Self.normalise(String(line[line.index(after: line.startIndex)..<end]))
                map[table] = number
                continue
            }
            guard let equals = Self.assignment(in: line) else { continue }
            let key = Self.normalise(String(line[..<equals]))
            map[table.isEmpty ? key : "\(table).\(key)"] = number
            let value = String(line[line.index(after: equals)...])
            for delimiter in ["\"\"\"", "'''"] where value.components(separatedBy: delimiter).count == 2 {
                openString = delimiter
            }
            if openString == nil { depth = max(0, Self.bracketBalance(value)) }
        }
    }

    /// The line of `location` (`bundle.name`, `clause#3.overlays`), else of
    /// its nearest enclosing table.
    func line(for location: String) -> Int? {
        var candidate = location
        while !candidate.isEmpty {
            if let line = map[candidate] { return line }
            guard let dot = candidate.lastIndex(of: ".") else { break }
            candidate = String(candidate[..<dot])
        }
        return nil
    }

    private static func normalise(_ key: String) -> String {
        key.split(separator: ".").map {
            $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }.joined(separator: ".")
    }

    /// The `=` of a `key = value` line, outside quoted keys.
    private static func assignment(in line: String) -> String.Index? {
        var quote: Character?
        for index in line.indices {
            let c = line[index]
            if let q = quote { if c == q { quote = nil }; continue }
            if c == "\"" || c == "'" { quote = c; continue }
            if c == "=" { return index }
            if c == "#" { return nil }
        }
        return nil
    }

    /// Opening minus closing brackets outside strings and comments.
    private static func bracketBalance(_ text: String) -> Int {
        var balance = 0
        var quote: Character?
        var escaped = false
        for c in text {
            if let q = quote {
                if escaped { escaped = false } else if c == "\\" && q == "\"" { escaped = true } else if c == q { quote = nil }
                continue
            }
            switch c {
            case "\"", "'": quote = c
            case "[", "{": balance += 1
            case "]", "}": balance -= 1
            case "#": return balance
            default: break
            }
        }
        return balance
    }
}

/// Reads one table with typed accessors; every mistake becomes a diagnostic
/// with the key path and line, and reading goes on so all are found.
final class TableReader {
    let source: TOMLSource
    let table: TOMLTable
    /// The key path shown to people, e.g. `document` or `clause "39"`.
    let path: String
    /// The key path used to find lines, e.g. `clause#38`.
    let location: String

    init(source: TOMLSource, table: TOMLTable, path: String, location: String) {
        self.source = source
        self.table = table
        self.path = path
        self.location = location
    }

    func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func line(_ key: String?) -> Int? {
        guard let key else { return source.line(location) }
        return source.line(location.isEmpty ? key : "\(location).\(key)")
    }

    func error(_ key: String?, _ message: String) {
        source.sink.add(Diagnostic(
            file: source.displayPath, line: line(key), key: key.map(keyPath) ?? (path.isEmpty ? nil : path),
            message: message))
    }

    func warning(_ key: String?, _ message: String) {
        source.sink.add(Diagnostic(
            file: source.displayPath, line: line(key), key: key.map(keyPath) ?? (path.isEmpty ? nil : path),
            message: message, severity: .warning))
    }

    func has(_ key: String) -> Bool { table[key] != nil }

    private func value(_ key: String, required: Bool, expected: String) -> TOMLValueConvertible? {
        guard let value = table[key] else {
            if required { error(key, "missing; expected \(expected)") }
            return nil
        }
        return value
    }

    func string(_ key: String, required: Bool = true) -> String? {
        guard let value = value(key, required: required, expected: "a string") else { return nil }
        guard let string = value.string else {
            error(key, "expected a string, got \(Self.describe(value))")
            return nil
        }
        return string
    }

    func int(_ key: String, in range: ClosedRange<Int>, required: Bool = true) -> Int? {
        let expected = "an integer \(range.lowerBound)...\(range.upperBound)"
        guard let value = value(key, required: required, expected: expected) else { return nil }
        guard value.type == .int, let int = value.int, range.contains(int) else {
            error(key, "expected \(expected), got \(Self.describe(value))")
            return nil
        }
        return int
    }

    func choice(_ key: String, of choices: [String], required: Bool = true) -> String? {
        let expected = "one of " + choices.map { "\"\($0)\"" }.joined(separator: ", ")
        guard let value = value(key, required: required, expected: expected) else { return nil }
        guard let string = value.string, choices.contains(string) else {
            var message = "expected \(expected), got \(Self.describe(value))"
            if let string = value.string, let near = closestMatch(to: string, in: choices) {
                message += " (did you mean \"\(near)\"?)"
            }
            error(key, message)
            return nil
        }
        return string
    }

    func strings(_ key: String, required: Bool = true) -> [String]? {
        guard let value = value(key, required: required, expected: "an array of strings") else { return nil }
        guard let array = value.array else {
            error(key, "expected an array of strings, got \(Self.describe(value))")
            return nil
        }
        var result: [String] = []
        for (index, element) in array.enumerated() {
            guard let string = element.string else {
                error(key, "element \(index + 1): expected a string, got \(Self.describe(element))")
                return nil
            }
            result.append(string)
        }
        return result
    }

    func table(_ key: String, required: Bool = true) -> TableReader? {
        guard let value = value(key, required: required, expected: "a table [\(keyPath(key))]") else { return nil }
        guard let sub = value.table else {
            error(key, "expected a table [\(keyPath(key))], got \(Self.describe(value))")
            return nil
        }
        return TableReader(source: source, table: sub, path: keyPath(key), location: location.isEmpty ? key : "\(location).\(key)")
    }

    /// The tables of a `[[key]]` array. `name` gives each one its display
    /// path once its identifying key is known.
    func tables(_ key: String, required: Bool = false) -> [TableReader] {
        guard let value = value(key, required: required, expected: "one or more [[\(key)]] tables") else { return [] }
        guard let array = value.array else {
            error(key, "expected [[\(key)]] tables, got \(Self.describe(value))")
            return []
        }
        var readers: [TableReader] = []
        for (index, element) in array.enumerated() {
            let location = "\(key)#\(index)"
            guard let sub = element.table else {
                error(key, "entry \(index + 1): expected a table, got \(Self.describe(element))")
                continue
            }
            readers.append(TableReader(source: source, table: sub, path: "\(key)[\(index + 1)]", location: location))
        }
        return readers
    }

    /// The same table under a clearer display name, e.g. `clause "39"`.
    func named(_ path: String) -> TableReader {
        TableReader(source: source, table: table, path: path, location: location)
    }

    /// Reports every key this table holds that the schema does not know.
    func rejectUnknownKeys(known: [String]) {
        for key in table.keys.sorted() where !known.contains(key) {
            var message = "unknown key"
            if let near = closestMatch(to: key, in: known) {
                message += "; did you mean \"\(near)\"?"
            } else {
                message += "; expected one of: " + known.joined(separator: ", ")
            }
            error(key, message)
        }
    }

    static func describe(_ value: TOMLValueConvertible) -> String {
        switch value.type {
        case .string: return "\"\(value.string ?? "")\" (a string)"
        case .int: return "\(value.int ?? 0) (an integer)"
        case .double: return "\(value.double ?? 0) (a float)"
        case .bool: return "\(value.bool ?? false) (a boolean)"
        case .array: return "an array"
        case .table: return "a table"
        case .date, .time, .dateTime: return "\(value.debugDescription) (a date or time)"
        }
    }
}
