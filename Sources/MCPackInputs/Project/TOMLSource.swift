import Foundation
import Hashing
import TOMLKit

/// A TOML file parsed by TOMLKit, with the line of each key and table so
/// that every diagnostic can point at a line.
package final class TOMLSource {
    package let displayPath: String
    package let root: TOMLTable
    package let sink: DiagnosticSink
    /// The file's own hash and size, from the one read that parsed it.
    package let sha256: String
    package let byteCount: Int
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
    package static func load(_ file: URL, displayPath: String, sink: DiagnosticSink) -> TOMLSource? {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            let exists = FileManager.default.fileExists(atPath: file.path)
            sink.add(Diagnostic(file: displayPath, message: exists ? "cannot read the file" : "no such file"))
            return nil
        }
        guard let text = String(data: data, encoding: .utf8) else {
            let (line, column) = firstInvalidUTF8(data)
            sink.add(Diagnostic(
                file: displayPath, line: line,
                message: "not UTF-8 text: the byte at column \(column) is not UTF-8 (Latin-1 or Windows-1252?); TOML files must be saved as UTF-8"))
            return nil
        }
        return parse(text, displayPath: displayPath, sink: sink)
    }

    package static func parse(_ text: String, displayPath: String, sink: DiagnosticSink) -> TOMLSource? {
        // TOMLKit hands toml++ a C string, which ends at a NUL: the rest of
        // the file would silently vanish and its keys be "missing".
        if let nul = text.utf8.firstIndex(of: 0) {
            let (line, column) = position(of: nul, in: text)
            sink.add(Diagnostic(
                file: displayPath, line: line,
                message: "TOML syntax: a NUL byte (U+0000) at column \(column); TOML text cannot contain one (is this a binary file?)"))
            return nil
        }
        // Malformed shapes on which TOMLKit's toml++ would abort mcpack.
        if let finding = TOMLPreflight.check(text) {
            sink.add(Diagnostic(file: displayPath, line: finding.line,
                                message: "TOML syntax: \(finding.message) (column \(finding.column))"))
            return nil
        }
        let lines = KeyLines(text)
        do {
            let root = try TOMLTable(string: text)
            return TOMLSource(displayPath: displayPath, root: root, lines: lines, sink: sink, data: Data(text.utf8))
        } catch let error as TOMLParseError {
            let (line, column) = (error.source.begin.line, error.source.begin.column)
            var message = error.description
            // toml++ calls the line break that ends an unclosed string "an
            // unescaped control character", which sends people looking for
            // one that is not there.
            if message.contains("control characters"), let length = lineLength(line, in: text), column == length + 1 {
                message = "a string is not closed: the line ends before its closing quote; for text over several lines use \"\"\" ... \"\"\""
            }
            sink.add(Diagnostic(file: displayPath, line: line, message: "TOML syntax: \(message) (column \(column))"))
            return nil
        } catch {
            sink.add(Diagnostic(file: displayPath, message: "TOML syntax: \(error)"))
            return nil
        }
    }

    /// The 1-based line and column (in characters) of the byte at `index`.
    private static func position(of index: String.UTF8View.Index, in text: String) -> (line: Int, column: Int) {
        let before = text.utf8[..<index]
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { text.utf8.index(after: $0) } ?? text.utf8.startIndex
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        return (line, text.unicodeScalars[lineStart..<index].count + 1)
    }

    /// The line and column of the first byte that is not UTF-8.
    private static func firstInvalidUTF8(_ data: Data) -> (line: Int, column: Int) {
        var iterator = data.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var (line, column) = (1, 1)
        while case .valid(let scalar) = parser.parseScalar(from: &iterator) {
            if scalar.count == 1 && scalar.first == UInt8(ascii: "\n") { (line, column) = (line + 1, 1) } else { column += 1 }
        }
        return (line, column)
    }

    /// The length in Unicode scalars of a 1-based line, without its line
    /// break (by scalars: "\r\n" is a single Character).
    private static func lineLength(_ number: Int, in text: String) -> Int? {
        let lines = text.unicodeScalars.split(separator: "\n", maxSplits: number, omittingEmptySubsequences: false)
        guard number >= 1, number <= lines.count else { return nil }
        let line = lines[number - 1]
        return line.count - (line.last == "\r" ? 1 : 0)
    }

    package var rootReader: TableReader { TableReader(source: self, table: root, path: "", location: "") }

    package func line(_ location: String) -> Int? { lines.line(for: location) }
}

/// Where each key and table header sits in a TOML text. TOMLKit keeps no
/// source positions for values, so this scans the lines for `[table]`,
/// `[[array]]` and `key =`, skipping multi-line strings and arrays. It only
/// locates; the values always come from TOMLKit.
package struct KeyLines {
    private var map: [String: Int] = [:]

    /// Works on the UTF-8 bytes: with Foundation's string calls once per
    /// line, a 10 MB clauses.toml took over ten seconds to locate.
    package init(_ text: String) {
        let bytes = Array(text.utf8)
        var table = ""
        var arrayCounts: [String: Int] = [:]
        var openString: [UInt8]?
        var depth = 0
        var number = 0
        var lineStart = 0
        while lineStart <= bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            defer { lineStart = lineEnd + 1 }
            number += 1
            var rawEnd = lineEnd
            if rawEnd > lineStart && bytes[rawEnd - 1] == UInt8(ascii: "\r") { rawEnd -= 1 }
            let line = Self.trimmed(bytes[lineStart..<rawEnd], Self.spaces)
            if let delimiter = openString {
                if Self.occurrences(of: delimiter, in: line) % 2 == 1 { openString = nil }
                continue
            }
            if depth > 0 {
                depth += Self.bracketBalance(line)
                continue
            }
            guard let first = line.first, first != UInt8(ascii: "#") else { continue }
            if line.starts(with: Self.arrayOpen), let end = Self.find(Self.arrayClose, in: line) {
                let name = Self.normalise(line[(line.startIndex + 2)..<end])
                let count = arrayCounts[name, default: 0]
                arrayCounts[name] = count + 1
                table = "\(name)#\(count)"
                map[table] = number
                continue
            }
            if first == UInt8(ascii: "["), let end = line.firstIndex(of: UInt8(ascii: "]")) {
                table = Self.normalise(line[(line.startIndex + 1)..<end])
                map[table] = number
                continue
            }
            guard let equals = Self.assignment(in: line) else { continue }
            let key = Self.normalise(line[..<equals])
            map[table.isEmpty ? key : "\(table).\(key)"] = number
            let value = line[(equals + 1)...]
            for delimiter in Self.multiLineQuotes where Self.occurrences(of: delimiter, in: value) == 1 {
                openString = delimiter
            }
            if openString == nil { depth = max(0, Self.bracketBalance(value)) }
        }
    }

    /// The line of `location` (`bundle.name`, `clause#3.overlays`), else of
    /// its nearest enclosing table.
    package func line(for location: String) -> Int? {
        var candidate = location
        while !candidate.isEmpty {
            if let line = map[candidate] { return line }
            guard let dot = candidate.lastIndex(of: ".") else { break }
            candidate = String(candidate[..<dot])
        }
        return nil
    }

    private static let spaces: [UInt8] = [UInt8(ascii: " "), UInt8(ascii: "\t")]
    private static let quotes: [UInt8] = [UInt8(ascii: "\""), UInt8(ascii: "'")]
    private static let arrayOpen: [UInt8] = Array("[[".utf8)
    private static let arrayClose: [UInt8] = Array("]]".utf8)
    private static let multiLineQuotes: [[UInt8]] = [Array("\"\"\"".utf8), Array("'''".utf8)]

    private static func normalise(_ key: ArraySlice<UInt8>) -> String {
        key.split(separator: UInt8(ascii: "."))
            .map { String(decoding: trimmed(trimmed($0, spaces), quotes), as: UTF8.self) }
            .joined(separator: ".")
    }

    /// Without the given bytes at either end.
    private static func trimmed(_ text: ArraySlice<UInt8>, _ drop: [UInt8]) -> ArraySlice<UInt8> {
        var (lower, upper) = (text.startIndex, text.endIndex)
        while lower < upper && drop.contains(text[lower]) { lower += 1 }
        while upper > lower && drop.contains(text[upper - 1]) { upper -= 1 }
        return text[lower..<upper]
    }

    /// Where `needle` first starts in `text`.
    private static func find(_ needle: [UInt8], in text: ArraySlice<UInt8>) -> Int? {
        guard let head = needle.first, text.count >= needle.count else { return nil }
        var index = text.startIndex
        while index <= text.endIndex - needle.count {
            if text[index] == head {
                var matched = 1
                while matched < needle.count && text[index + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return index }
            }
            index += 1
        }
        return nil
    }

    /// How many times `needle` occurs in `text`, not overlapping.
    private static func occurrences(of needle: [UInt8], in text: ArraySlice<UInt8>) -> Int {
        var count = 0
        var rest = text
        while let index = find(needle, in: rest) {
            count += 1
            rest = rest[(index + needle.count)...]
        }
        return count
    }

    /// The `=` of a `key = value` line, outside quoted keys.
    private static func assignment(in line: ArraySlice<UInt8>) -> Int? {
        var quote: UInt8?
        for index in line.indices {
            let c = line[index]
            if let q = quote { if c == q { quote = nil }; continue }
            if quotes.contains(c) { quote = c; continue }
            if c == UInt8(ascii: "=") { return index }
            if c == UInt8(ascii: "#") { return nil }
        }
        return nil
    }

    /// Opening minus closing brackets outside strings and comments.
    private static func bracketBalance(_ text: ArraySlice<UInt8>) -> Int {
        var balance = 0
        var quote: UInt8?
        var escaped = false
        for c in text {
            if let q = quote {
                if escaped { escaped = false } else if c == UInt8(ascii: "\\") && q == UInt8(ascii: "\"") { escaped = true } else if c == q { quote = nil }
                continue
            }
            switch c {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = c
            case UInt8(ascii: "["), UInt8(ascii: "{"): balance += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"): balance -= 1
            case UInt8(ascii: "#"): return balance
            default: break
            }
        }
        return balance
    }
}

/// Reads one table with typed accessors; every mistake becomes a diagnostic
/// with the key path and line, and reading goes on so all are found.
package final class TableReader {
    package let source: TOMLSource
    package let table: TOMLTable
    /// The key path shown to people, e.g. `document` or `clause "39"`.
    package let path: String
    /// The key path used to find lines, e.g. `clause#38`.
    package let location: String

    package init(source: TOMLSource, table: TOMLTable, path: String, location: String) {
        self.source = source
        self.table = table
        self.path = path
        self.location = location
    }

    package func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    package func line(_ key: String?) -> Int? {
        guard let key else { return source.line(location) }
        return source.line(location.isEmpty ? key : "\(location).\(key)")
    }

    package func error(_ key: String?, _ message: String) {
        source.sink.add(Diagnostic(
            file: source.displayPath, line: line(key), key: key.map(keyPath) ?? (path.isEmpty ? nil : path),
            message: message))
    }

    package func warning(_ key: String?, _ message: String) {
        source.sink.add(Diagnostic(
            file: source.displayPath, line: line(key), key: key.map(keyPath) ?? (path.isEmpty ? nil : path),
            message: message, severity: .warning))
    }

    package func has(_ key: String) -> Bool { table[key] != nil }

    private func value(_ key: String, required: Bool, expected: String) -> TOMLValueConvertible? {
        guard let value = table[key] else {
            if required { error(key, "missing; expected \(expected)") }
            return nil
        }
        return value
    }

    package func string(_ key: String, required: Bool = true) -> String? {
        guard let value = value(key, required: required, expected: "a string") else { return nil }
        guard let string = value.string else {
            error(key, "expected a string, got \(Self.describe(value))")
            return nil
        }
        return string
    }

    package func int(_ key: String, in range: ClosedRange<Int>, required: Bool = true) -> Int? {
        let expected = "an integer \(range.lowerBound)...\(range.upperBound)"
        guard let value = value(key, required: required, expected: expected) else { return nil }
        guard value.type == .int, let int = value.int, range.contains(int) else {
            error(key, "expected \(expected), got \(Self.describe(value))")
            return nil
        }
        return int
    }

    package func bool(_ key: String, required: Bool = true) -> Bool? {
        guard let value = value(key, required: required, expected: "true or false") else { return nil }
        guard value.type == .bool, let bool = value.bool else {
            error(key, "expected true or false, got \(Self.describe(value))")
            return nil
        }
        return bool
    }

    package func choice(_ key: String, of choices: [String], required: Bool = true) -> String? {
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

    package func strings(_ key: String, required: Bool = true) -> [String]? {
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

    package func table(_ key: String, required: Bool = true) -> TableReader? {
        guard let value = value(key, required: required, expected: "a table [\(keyPath(key))]") else { return nil }
        guard let sub = value.table else {
            error(key, "expected a table [\(keyPath(key))], got \(Self.describe(value))")
            return nil
        }
        return TableReader(source: source, table: sub, path: keyPath(key), location: location.isEmpty ? key : "\(location).\(key)")
    }

    /// The tables of a `[[key]]` array. `name` gives each one its display
    /// path once its identifying key is known.
    package func tables(_ key: String, required: Bool = false) -> [TableReader] {
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
    package func named(_ path: String) -> TableReader {
        TableReader(source: source, table: table, path: path, location: location)
    }

    /// Reports every key this table holds that the schema does not know.
    package func rejectUnknownKeys(known: [String]) {
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

    package static func describe(_ value: TOMLValueConvertible) -> String {
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
