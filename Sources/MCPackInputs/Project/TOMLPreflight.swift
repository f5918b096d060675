/// The two shapes of malformed TOML on which the toml++ inside TOMLKit 0.6.0
/// stops the whole process with a failed assertion instead of returning a
/// parse error (found by `make fuzz`; tomlplusplus issue 294, fixed upstream
/// after the version TOMLKit bundles):
///
/// - a table header whose name does not start as a key must: `[#`, `[ `
///   at the end of a line, `[[[1]]]`;
/// - a `}` where an array expects a value: `l = [}`, `a = [1, }`.
///
/// This scan finds them first, so they become ordinary syntax errors. It only
/// tracks what decides where toml++ would be (strings, comments, arrays,
/// inline tables, the start of a line); it reads no values, and any file it
/// passes is parsed by TOMLKit as before.
package enum TOMLPreflight {
    package struct Finding: Equatable {
        package var line: Int
        package var column: Int
        package var message: String
    }

    package static func check(_ text: String) -> Finding? {
        let bytes = Array(text.utf8)
        var scanner = Scanner(bytes: bytes)
        return scanner.run()
    }

    private struct Scanner {
        package let bytes: [UInt8]
        package var i = 0
        package var line = 1
        package var lineStart = 0
        /// `[` for each open array, `{` for each open inline table.
        var open: [UInt8] = []
        /// Nothing but blanks so far on this line, outside any value.
        package var atLineStart = true

        package init(bytes: [UInt8]) { self.bytes = bytes }

        package mutating func run() -> Finding? {
            while i < bytes.count {
                let c = bytes[i]
                switch c {
                case UInt8(ascii: "\n"):
                    newLine()
                    if open.isEmpty { atLineStart = true }
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                    i += 1
                case UInt8(ascii: "#"):
                    skipComment()
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    skipString()
                    atLineStart = false
                case UInt8(ascii: "["):
                    if open.isEmpty && atLineStart {
                        if let finding = header() { return finding }
                    } else {
                        open.append(c)
                        i += 1
                        if let finding = valueExpected() { return finding }
                    }
                    atLineStart = false
                case UInt8(ascii: ","):
                    i += 1
                    if open.last == UInt8(ascii: "["), let finding = valueExpected() { return finding }
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if let last = open.last, (last == UInt8(ascii: "[")) == (c == UInt8(ascii: "]")) { open.removeLast() }
                    i += 1
                case UInt8(ascii: "{"):
                    open.append(c)
                    i += 1
                    atLineStart = false
                default:
                    i += 1
                    atLineStart = false
                }
            }
            return nil
        }

        /// After an array's `[` or `,`: blanks, line breaks and comments,
        /// then a value or `]`; toml++ asserts on a `}` there.
        package mutating func valueExpected() -> Finding? {
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): i += 1
                case UInt8(ascii: "\n"): newLine()
                case UInt8(ascii: "#"): skipComment()
                case UInt8(ascii: "}"):
                    return finding("an array holds values between [ and ]; saw \"}\" where a value should be")
                default: return nil
                }
            }
            return nil
        }

        /// `[` or `[[`, blanks, then a key's first character or `]`.
        package mutating func header() -> Finding? {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "[") { i += 1 }
            while i < bytes.count, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") { i += 1 }
            guard i < bytes.count else { return nil }  // toml++ reports the end of the file itself
            let c = bytes[i]
            let startsKey = (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
                || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
                || c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") || c == UInt8(ascii: "]")
            if !startsKey {
                let saw: String
                switch c {
                case UInt8(ascii: "\n"), UInt8(ascii: "\r"): saw = "the end of the line"
                case 0..<0x20, 0x7F: saw = "U+" + String(c, radix: 16, uppercase: true).leftPadded(to: 4)
                default: saw = "\"" + String(decoding: bytes[i..<sequenceEnd(i)], as: UTF8.self) + "\""
                }
                return finding("a table header needs a name after \"[\" (a letter, digit, _, - or a quote), saw \(saw)")
            }
            // The rest of the header: its name (quoted parts skipped) up to `]`.
            while i < bytes.count, bytes[i] != UInt8(ascii: "]"), bytes[i] != UInt8(ascii: "\n") {
                if bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") { skipString() } else { i += 1 }
            }
            while i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1 }
            return nil
        }

        package mutating func skipComment() {
            while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
        }

        /// A basic or literal string, one-line or multi-line; `i` at its
        /// first quote, left after its last.
        package mutating func skipString() {
            let quote = bytes[i]
            let basic = quote == UInt8(ascii: "\"")
            if i + 2 < bytes.count, bytes[i + 1] == quote, bytes[i + 2] == quote {
                i += 3
                while i < bytes.count {
                    let c = bytes[i]
                    if basic && c == UInt8(ascii: "\\") {
                        i += 1
                        if i < bytes.count, bytes[i] == UInt8(ascii: "\n") { newLine() } else { i += 1 }
                        continue
                    }
                    if c == UInt8(ascii: "\n") { newLine(); continue }
                    if c == quote {
                        var run = 0
                        while i + run < bytes.count, bytes[i + run] == quote { run += 1 }
                        i += run
                        if run >= 3 { return }  // up to two quotes may end the content
                        continue
                    }
                    i += 1
                }
                return
            }
            i += 1
            while i < bytes.count {
                let c = bytes[i]
                if c == quote { i += 1; return }
                if c == UInt8(ascii: "\n") { return }  // unclosed: toml++ reports it
                if basic && c == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] != UInt8(ascii: "\n") { i += 2 } else { i += 1 }
            }
        }

        package mutating func newLine() {
            i += 1
            line += 1
            lineStart = i
        }

        /// The end of the UTF-8 sequence starting at `start`.
        package func sequenceEnd(_ start: Int) -> Int {
            var end = start + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            return end
        }

        /// Columns count characters, as toml++'s do.
        package func finding(_ message: String) -> Finding {
            let column = bytes[lineStart..<i].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
            return Finding(line: line, column: column, message: message)
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
