import Foundation

/// A Swift file as a search sees it: comments and the text of string
/// literals blanked to spaces, line and column kept, so that a name in a doc
/// comment or a message is never taken for code. What `\( )` interpolates is
/// code and stays. Regex literals are not recognised (none in the package).
struct SwiftSource {
    /// The path shown in failures, relative to the folder scanned.
    let path: String
    /// One entry per line of the file, code only.
    let lines: [String]

    init(path: String, text: String) {
        self.path = path
        lines = SwiftSource.codeOnly(text).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Every `.swift` file under a folder, paths relative to it, in a stable order.
    static func files(under link: URL) throws -> [SwiftSource] {
        // The walker does not enter a folder given as a symbolic link.
        let folder = link.resolvingSymlinksInPath()
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        let base = folder.standardizedFileURL.path + "/"
        return try walker.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" }
            .map { url in
                let relative = url.standardizedFileURL.path.replacingOccurrences(of: base, with: "")
                return SwiftSource(path: relative, text: try String(contentsOf: url, encoding: .utf8))
            }
            .sorted { $0.path < $1.path }
    }

    /// What the lexer is inside of: code (the file, or an interpolation and
    /// the parentheses open in it), a string literal, or a block comment.
    private enum Context {
        case code(parentheses: Int)
        case string(escape: [Unicode.Scalar], closing: [Unicode.Scalar])
        case comment(depth: Int)
    }

    static func codeOnly(_ text: String) -> String {
        let s = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var stack: [Context] = [.code(parentheses: 0)]
        var i = 0
        func starts(_ literal: [Unicode.Scalar]) -> Bool {
            guard i + literal.count <= s.count else { return false }
            for k in literal.indices where s[i + k] != literal[k] { return false }
            return true
        }
        func blank(_ count: Int) {
            for k in i..<min(i + count, s.count) { out.append(s[k] == "\n" ? "\n" : " ") }
            i += count
        }
        func keep(_ count: Int) {
            for k in i..<min(i + count, s.count) { out.append(s[k]) }
            i += count
        }
        while i < s.count {
            switch stack[stack.count - 1] {
            case .code(let parentheses):
                if starts(["/", "/"]) {
                    while i < s.count, s[i] != "\n" { blank(1) }
                } else if starts(["/", "*"]) {
                    stack.append(.comment(depth: 1)); blank(2)
                } else if let opening = stringOpening(s, at: i) {
                    let hashes = [Unicode.Scalar](repeating: "#", count: opening.hashes)
                    stack.append(.string(escape: ["\\"] + hashes, closing: (opening.multiline ? ["\"", "\"", "\""] : ["\""]) + hashes))
                    keep(opening.length)
                } else if s[i] == "(", stack.count > 1 {
                    stack[stack.count - 1] = .code(parentheses: parentheses + 1); keep(1)
                } else if s[i] == ")", stack.count > 1 {
                    // The `)` that closes an interpolation belongs to the string.
                    if parentheses == 0 { stack.removeLast(); blank(1) } else { stack[stack.count - 1] = .code(parentheses: parentheses - 1); keep(1) }
                } else {
                    keep(1)
                }
            case .comment(let depth):
                if starts(["/", "*"]) { stack[stack.count - 1] = .comment(depth: depth + 1); blank(2) }
                else if starts(["*", "/"]) { if depth == 1 { stack.removeLast() } else { stack[stack.count - 1] = .comment(depth: depth - 1) }; blank(2) }
                else { blank(1) }
            case .string(let escape, let closing):
                if starts(escape) {
                    // `\(` opens an interpolation; any other escape covers one scalar more.
                    if i + escape.count < s.count, s[i + escape.count] == "(" { stack.append(.code(parentheses: 0)) }
                    blank(escape.count + 1)
                } else if starts(closing) {
                    stack.removeLast(); keep(closing.count)
                } else {
                    blank(1)
                }
            }
        }
        return String(out)
    }

    /// A string literal opening at `i`: `"`, `"""`, or either after `#`s.
    private static func stringOpening(_ s: [Unicode.Scalar], at i: Int) -> (hashes: Int, multiline: Bool, length: Int)? {
        var j = i
        while j < s.count, s[j] == "#" { j += 1 }
        guard j < s.count, s[j] == "\"" else { return nil }
        // `#if`, `#available` and the like are not strings: a `#` run must end at the quote.
        let hashes = j - i
        let multiline = j + 2 < s.count && s[j + 1] == "\"" && s[j + 2] == "\""
        return (hashes, multiline, hashes + (multiline ? 3 : 1))
    }
}
