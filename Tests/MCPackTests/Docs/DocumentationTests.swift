import Foundation
import Imaging
import ImagingTestSupport
import MCPackInputs
import MCPackReader
import Testing

/// The README and the pages beside it, held to what mcpack does: pages are
/// read by people who cannot tell a stale link, flag or key from a real
/// one, and nothing else would notice one going stale.
@Suite(.serialized) struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every page a reader is sent to, relative to the repository's root.
    static func pages() throws -> [String] {
        var pages = ["README.md", "CONTRIBUTING.md", "RELEASING.md", "bench/README.md"]
        let docs = root.appendingPathComponent("docs")
        guard let walk = FileManager.default.enumerator(atPath: docs.path) else { return pages }
        for case let path as String in walk where path.hasSuffix(".md") { pages.append("docs/" + path) }
        return pages.sorted()
    }

    static func read(_ page: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
    }

    // MARK: - Links

    @Test func everyRelativeLinkLeadsToAFileAndHeading() throws {
        var broken: [String] = []
        for page in try Self.pages() {
            let text = Markdown.outsideFences(try Self.read(page))
            for target in Markdown.linkTargets(text) {
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let path = parts[0].removingPercentEncoding ?? parts[0]
                let file = path.isEmpty ? Self.root.appendingPathComponent(page)
                    : Self.root.appendingPathComponent(page).deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                guard FileManager.default.fileExists(atPath: file.path) else {
                    broken.append("\(page): \(target): no such file")
                    continue
                }
                if parts.count == 2, file.pathExtension == "md" {
                    let anchors = Markdown.anchors(try String(contentsOf: file, encoding: .utf8))
                    if !anchors.contains(parts[1]) {
                        broken.append("\(page): \(target): no heading with that anchor (there are: \(anchors.sorted().joined(separator: ", ")))")
                    }
                }
            }
        }
        // One issue a link, so that each is named in full.
        for link in broken { Issue.record(Comment(rawValue: link)) }
    }

    // MARK: - Command lines

    /// Each subcommand's option names, as the binary's own argument parser
    /// describes them (swift-argument-parser's dump of its definitions,
    /// from which --help, the man pages and the completions are made too).
    static func commandLine() throws -> (root: Set<String>, subcommands: [String: Set<String>]) {
        let dump = try MCPackBinary.run(["--experimental-dump-help"], in: root)
        try #require(dump.status == 0, "\(dump.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let command = try #require(object["command"] as? [String: Any])
        func options(_ command: [String: Any]) -> Set<String> {
            var names: Set<String> = []
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                for name in argument["names"] as? [[String: Any]] ?? [] {
                    guard let kind = name["kind"] as? String, let text = name["name"] as? String else { continue }
                    names.insert(kind == "short" ? "-" + text : kind == "longWithSingleDash" ? "-" + text : "--" + text)
                }
            }
            return names
        }
        var subcommands: [String: Set<String>] = [:]
        for sub in command["subcommands"] as? [[String: Any]] ?? [] {
            if let name = sub["commandName"] as? String { subcommands[name] = options(sub) }
        }
        return (options(command), subcommands)
    }

    @Test func everyCommandLineNamesARealSubcommandAndItsOptions() throws {
        let parser = try Self.commandLine()
        try #require(parser.subcommands["build"] != nil, "the dump lists no subcommands: \(parser)")
        var wrong: [String] = []
        var checked = 0
        for page in try Self.pages() {
            for line in Markdown.commandLines(try Self.read(page)) {
                checked += 1
                if let problem = Self.check(line, against: parser) {
                    wrong.append("\(page): mcpack \(line.joined(separator: " ")): \(problem)")
                }
            }
        }
        #expect(checked > 50, "too few command lines found (\(checked)): is the extraction broken?")
        for command in wrong { Issue.record(Comment(rawValue: command)) }
    }

    /// What is wrong with one `mcpack ...` command, or nil.
    static func check(_ words: [String], against parser: (root: Set<String>, subcommands: [String: Set<String>])) -> String? {
        guard let first = words.first else { return "no subcommand" }
        var allowed = parser.root
        var rest = words[...]
        if !first.hasPrefix("-") {
            guard let options = parser.subcommands[first] else {
                return "no subcommand \"\(first)\"; mcpack has \(parser.subcommands.keys.sorted().joined(separator: ", "))"
            }
            allowed = options
            rest = words.dropFirst()
        }
        for word in rest where word.hasPrefix("-") && word.count > 1 && !word.allSatisfy({ $0 == "-" }) {
            if word.first(where: { $0 != "-" })?.isNumber == true { continue }
            let name = String(word.prefix { $0 != "=" })
            let names = name.hasPrefix("--") || name.count == 2 ? [name] : name.dropFirst().map { "-\($0)" }
            for name in names where !allowed.contains(name) {
                return "\(first.hasPrefix("-") ? "mcpack" : first) has no option \(name); it has \(allowed.sorted().joined(separator: " "))"
            }
        }
        return nil
    }

    // MARK: - JSON keys

    /// docs/reference/json.md: for each `## `mcpack X --json`` section, the
    /// key paths of its JSON examples and the names its tables give.
    static func documentedJSON() throws -> [String: (paths: Set<String>, names: Set<String>)] {
        var sections: [String: (paths: Set<String>, names: Set<String>)] = [:]
        var current: String?
        var fence: [String]?
        for line in try read("docs/reference/json.md").components(separatedBy: "\n") {
            if var lines = fence {
                if line.hasPrefix("```") {
                    if let current, let data = lines.joined(separator: "\n").data(using: .utf8) {
                        let object = try JSONSerialization.jsonObject(with: data)
                        sections[current, default: ([], [])].paths.formUnion(JSONPaths.of(object))
                    }
                    fence = nil
                } else {
                    lines.append(line)
                    fence = lines
                }
                continue
            }
            if line.hasPrefix("## ") {
                let words = line.replacingOccurrences(of: "`", with: "").split(separator: " ").map(String.init)
                current = words.count >= 4 && words[1] == "mcpack" && words.last == "--json" ? words[2] : nil
                if let current { sections[current, default: ([], [])] = sections[current] ?? ([], []) }
            } else if line.hasPrefix("```json") {
                fence = []
            } else if let current, line.hasPrefix("| `") {
                let cell = line.dropFirst(2).prefix { $0 != "|" }
                for name in Markdown.codeSpans(String(cell)) {
                    sections[current, default: ([], [])].names.insert(name.replacingOccurrences(of: "[]", with: ""))
                }
            }
        }
        return sections
    }

    @Test func everyDocumentedJSONKeyIsInTheRealOutput() throws {
        let documented = try Self.documentedJSON()
        let withJSON = Set(try Self.commandLine().subcommands.filter { $0.value.contains("--json") }.keys)
        for command in withJSON.subtracting(documented.keys).sorted() {
            Issue.record("docs/reference/json.md has no section \"## `mcpack \(command) --json`\" with an example of its output")
        }
        for command in Set(documented.keys).subtracting(withJSON).sorted() {
            Issue.record("docs/reference/json.md has a section for mcpack \(command) --json, which mcpack does not have")
        }

        let real = try Self.realJSON()
        for (command, doc) in documented.sorted(by: { $0.key < $1.key }) {
            let paths = real[command] ?? []
            #expect(!paths.isEmpty, "no run of mcpack \(command) --json in this test: add one to realJSON()")
            let missing = doc.paths.subtracting(paths).sorted()
            #expect(missing.isEmpty, "mcpack \(command) --json: docs/reference/json.md shows \(missing), which no real output has; real: \(paths.sorted())")
            let names = Set(paths.map { $0.split(separator: ".").last.map { String($0).replacingOccurrences(of: "[]", with: "") } ?? $0 })
            let unknown = doc.names.subtracting(names).sorted()
            #expect(unknown.isEmpty, "mcpack \(command) --json: docs/reference/json.md's table names \(unknown), which no real output has")
        }
    }

    /// Every key path each command's --json gives, over runs that between
    /// them reach every optional key the reference shows.
    static func realJSON() throws -> [String: Set<String>] {
        let publishing = try Publishing.make()
        let project = publishing.project
        defer { project.destroy() }
        var real: [String: Set<String>] = [:]
        @discardableResult
        func run(_ command: String, _ arguments: [String], in folder: URL? = nil, allowing statuses: Set<Int32> = [0]) throws -> Any {
            let result = try MCPackBinary.run([command] + arguments + ["--json"], in: folder ?? project.root)
            try #require(statuses.contains(result.status), "mcpack \(command) \(arguments): \(result.status) \(result.stdout) \(result.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
            real[command, default: []].formUnion(JSONPaths.of(object))
            return object
        }

        // An archive, a signature of it, and a bag with a file taken out.
        try run("build", [])
        try run("sign", [Publishing.v2, "--key", "k.key"])
        try run("verify", [Publishing.v2, "--public-key", "k.pub"])
        #expect(try publishing.shell("minisign -G -W -p o.pub -s o.key").status == 0)
        try run("verify", [Publishing.v2, "--public-key", "o.pub"], allowing: [1])
        #expect(try publishing.shell("python3 -m zipfile -e \(Publishing.v1) unpacked && rm unpacked/test-bundle-1.0.0/data/HANDOVER.md").status == 0)
        try run("verify", ["unpacked/test-bundle-1.0.0"], allowing: [1])
        try run("verify", [])
        let preview = try run("preview", [Publishing.v1, "--no-open"]) as? [String: Any]
        if let bag = preview?["bag"] as? String {
            try? FileManager.default.removeItem(at: URL(fileURLWithPath: bag).deletingLastPathComponent())
        }
        try run("publish", [Publishing.v1, "--channel", "channel", "--sign-key", "k.key", "--expires", "30d"])
        try run("publish", [Publishing.v2, "--channel", "channel", "--sign-key", "k.key", "--expires", "30d", "--prune", "1"])
        // An install, then an update, then a refusal, from the channel served.
        do {
            let server = try WebServer(root: project.url("channel"))
            try run("pull", [server.url, "--into", "kiosk-a", "--public-key", "k.pub"])
            try run("publish", [Publishing.v1, "--channel", "channel-two", "--sign-key", "k.key"])
            let second = try WebServer(root: project.url("channel-two"))
            try run("pull", [second.url, "--into", "kiosk-b", "--public-key", "k.pub"])
            try run("pull", [server.url, "--into", "kiosk-b", "--public-key", "k.pub"])
            // Rolled back as the app does it: the version left is held back.
            try BundleStore(folder: project.url("kiosk-b.mcpack"), link: project.url("kiosk-b")).rollBack()
            try run("pull", [server.url, "--into", "kiosk-b", "--public-key", "k.pub"])
            try run("pull", [server.url, "--into", "kiosk-c", "--public-key", "o.pub"], allowing: [1])
        }
        try run("diff", ["1.0.0", "1.1.0"], allowing: [1])

        // 1.2.0: another master, a category icon painted over, a rectangle moved.
        try project.edit("bundle.toml", #"version = "1.0.0""#, #"version = "1.2.0""#)
        try project.write("assets/document/master.png",
                          Image.noise(width: TestProject.masterWidth, height: TestProject.masterHeight, bands: 3, seed: 8).pngData())
        try project.write("assets/categories/2.png", TestProject.icon(5))
        try project.edit("assets/clauses.toml", "[[130, 44, 400, 24]]", "[[130, 50, 400, 24]]")
        try run("build", [])
        try run("diff", ["1.1.0", "1.2.0", "--pixels"], allowing: [1])

        // Mistakes in the inputs, as build and verify report them.
        try project.edit("bundle.toml", #"image = "assets/document/master.png""#, #"image = "assets/document/gone.png""#)
        try run("build", [], allowing: [2])
        try run("verify", [], allowing: [1, 2])
        try project.edit("bundle.toml", #"image = "assets/document/gone.png""#, #"image = "assets/document/master.png""#)

        // The app folder's copies: one drifted, one missing; then fixed.
        try project.write("bundle.toml", try project.read("bundle.toml") + "\n[[copies]]\nassets = \"assets/categories\"\napp = \"App/Images\"\n")
        try project.write("App/Images/1.png", try Data(contentsOf: project.url("assets/categories/1.png")))
        try project.write("App/Images/2.png", TestProject.icon(7))
        try run("drift", [], allowing: [1])
        try run("drift", ["--fix", "--prefer", "assets"])

        let folder = project.url("new")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try run("init", ["fresh"], in: folder)
        return real
    }

    // MARK: - Configuration keys

    /// docs/reference/configuration.md's tables: for each file, each table's keys.
    static func documentedKeys() throws -> [String: [String: Set<String>]] {
        var keys: [String: [String: Set<String>]] = [:]
        var file = "bundle.toml"
        for line in try read("docs/reference/configuration.md").components(separatedBy: "\n") {
            if line.hasPrefix("## ") { file = line.contains("clauses.toml") ? "clauses.toml" : "bundle.toml" }
            guard line.hasPrefix("| `[") else { continue }
            let spans = Markdown.codeSpans(String(line.dropFirst(2).prefix { $0 != "|" }))
            guard let first = spans.first, let close = first.lastIndex(of: "]") else { continue }
            let table = first[..<close].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            let key = first[first.index(after: close)...].trimmingCharacters(in: .whitespaces)
            keys[file, default: [:]][table, default: []].insert(key)
            for other in spans.dropFirst() { keys[file, default: [:]][table, default: []].insert(other) }
        }
        return keys
    }

    /// The keys the parser accepts, from the parser itself: a key it does not
    /// know, and near no key it knows, is refused with the list of those it does.
    static func acceptedKeys() throws -> [String: [String: Set<String>]] {
        let probe = "zzzzzzzzzz"
        let project = try TestProject.make()
        defer { project.destroy() }
        var accepted: [String: [String: Set<String>]] = [:]
        func collect() throws {
            let result = try MCPackBinary.run(["build", "--json"], in: project.root)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
            let lead = "unknown key; expected one of: "
            for problem in object["problems"] as? [[String: Any]] ?? [] {
                guard let message = problem["message"] as? String, message.hasPrefix(lead),
                      let key = problem["key"] as? String, key == probe || key.hasSuffix("." + probe),
                      let file = (problem["file"] as? String).map({ ($0 as NSString).lastPathComponent }) else { continue }
                let table = String(key.prefix { $0.isLetter || $0 == "_" })
                let names = message.dropFirst(lead.count).components(separatedBy: ", ")
                accepted[file, default: [:]][key == probe ? "" : table, default: []].formUnion(names)
            }
        }
        // bundle.toml: every table, each with the probe (a table in error
        // keeps clauses.toml from being read, so that file comes second).
        var tables = ["bundle"]
        for input in Inputs.all where !tables.contains(input.table) { tables.append(input.table) }
        var toml = "\(probe) = 0\n"
        for table in tables {
            let body = try project.read("bundle.toml").components(separatedBy: "[\(table)]\n").dropFirst().first?
                .components(separatedBy: "\n\n").first ?? ""
            toml += "[\(table)]\n\(body)\n\(probe) = 0\n"
        }
        toml += "[[copies]]\n\(probe) = 0\n"
        try project.write("bundle.toml", toml)
        try collect()
        try project.write("bundle.toml", TestProject.bundleTOML)
        let clauses = try project.read("assets/clauses.toml")
            .replacingOccurrences(of: "[[category]]\n", with: "[[category]]\n\(probe) = 0\n")
            .replacingOccurrences(of: "[[clause]]\n", with: "[[clause]]\n\(probe) = 0\n")
        try project.write("assets/clauses.toml", "\(probe) = 0\n" + clauses)
        try collect()
        return accepted
    }

    @Test func configurationReferenceListsExactlyTheKeysTheParserAccepts() throws {
        let documented = try Self.documentedKeys()
        var accepted = try Self.acceptedKeys()
        for file in ["bundle.toml", "clauses.toml"] {
            let tables = try #require(accepted[file]?[""], "\(file): the parser listed no top-level keys: \(accepted)")
            accepted[file]?[""] = nil
            let doc = documented[file] ?? [:]
            #expect(Set(doc.keys) == tables, "\(file): the reference's tables \(doc.keys.sorted()) are not the parser's \(tables.sorted())")
            for table in tables.sorted() {
                let parser = accepted[file]?[table] ?? []
                #expect(!parser.isEmpty, "\(file): [\(table)] was not probed")
                let undocumented = parser.subtracting(doc[table] ?? []).sorted()
                let unknown = (doc[table] ?? []).subtracting(parser).sorted()
                #expect(undocumented.isEmpty, "\(file): [\(table)] accepts \(undocumented), which docs/reference/configuration.md does not list")
                #expect(unknown.isEmpty, "\(file): docs/reference/configuration.md lists [\(table)] \(unknown), which the parser refuses")
            }
        }
    }

    // MARK: - The readers themselves

    @Test func theMarkdownReadersFindWhatTheyShould() {
        let page = """
            # Title, with `code` and a [link](x.md)
            ## Title, with `code` and a [link](x.md)
            See [a](b.md#c) and ![pic
            over two lines](p.png).
            ```sh
            $ mcpack build --json   # a comment
            MCPACK_TEMPLATES=t mcpack init x && cd x; .build/debug/mcpack verify \\
                --strict
            [not](a-link.md)
            ```
            Run `mcpack diff A B --stat` here.
            """
        #expect(Markdown.linkTargets(Markdown.outsideFences(page)) == ["x.md", "x.md", "b.md#c", "p.png"])
        #expect(Markdown.anchors(page) == ["title-with-code-and-a-link", "title-with-code-and-a-link-1"])
        #expect(Markdown.commandLines(page) == [["build", "--json"], ["init", "x"], ["verify", "--strict"], ["diff", "A", "B", "--stat"]])
        let parser: (root: Set<String>, subcommands: [String: Set<String>]) = (["--version"], ["build": ["--json"], "verify": ["--strict", "-h"]])
        #expect(Self.check(["build", "--json"], against: parser) == nil)
        #expect(Self.check(["biuld"], against: parser) != nil)
        #expect(Self.check(["build", "--jsn"], against: parser) != nil)
        #expect(Self.check(["verify", "-h", "-1"], against: parser) == nil)
        #expect(JSONPaths.of(["a": [["b": 1]], "c": ["d": true]] as [String: Any]) == ["a", "a[].b", "c", "c.d"])
    }
}

/// Just enough Markdown for the checks above: GitHub's headings and
/// anchors, inline links, fenced code blocks and code spans.
enum Markdown {
    /// The text with every fenced code block's lines blanked.
    static func outsideFences(_ text: String) -> String {
        var inside = false
        return text.components(separatedBy: "\n").map { line in
            if isFence(line) { inside.toggle(); return "" }
            return inside ? "" : line
        }.joined(separator: "\n")
    }

    static func isFence(_ line: String) -> Bool {
        let trimmed = line.drop { $0 == " " }
        return trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~")
    }

    /// The targets of `[text](target)` and `![alt](target)`, link text over
    /// several lines too, and of `[label]: target` definitions.
    static func linkTargets(_ text: String) -> [String] {
        matches(#"\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)"#, in: text)
            + matches(#"(?m)^ {0,3}\[[^\]]+\]:\s*(\S+)"#, in: text)
    }

    /// The anchors GitHub gives the headings: lower case, punctuation but
    /// hyphens and underscores dropped, spaces made hyphens, repeats numbered.
    static func anchors(_ text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors: Set<String> = []
        for line in outsideFences(text).components(separatedBy: "\n") {
            guard let hashes = line.firstIndex(where: { $0 != "#" }), line.hasPrefix("#"),
                  line.distance(from: line.startIndex, to: hashes) <= 6, line[hashes] == " " else { continue }
            var heading = String(line[hashes...]).trimmingCharacters(in: .whitespaces)
            heading = heading.replacingOccurrences(of: #"!?\[([^\]]*)\]\([^)]*\)"#, with: "$1", options: .regularExpression)
            var slug = ""
            for character in heading.lowercased() {
                if character.isLetter || character.isNumber || character == "-" || character == "_" { slug.append(character) }
                else if character == " " { slug.append("-") }
            }
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return anchors
    }

    /// The contents of the code spans in `text`.
    static func codeSpans(_ text: String) -> [String] {
        matches("`([^`]+)`", in: text)
    }

    /// The words after `mcpack` of every mcpack command: each line of a
    /// fenced code block (a `$ ` prompt, `\` continuations, `#` comments,
    /// `&&`, `;` and `|` understood), and each code span that starts so.
    static func commandLines(_ text: String) -> [[String]] {
        var commands: [[String]] = []
        var inside = false
        var pending = ""
        for line in text.components(separatedBy: "\n") {
            if isFence(line) { inside.toggle(); pending = ""; continue }
            guard inside else { continue }
            var line = pending + line
            pending = ""
            if line.hasSuffix("\\") {
                line.removeLast()
                pending = line + " "
                continue
            }
            commands += mcpackCommands(in: line)
        }
        for span in codeSpans(outsideFences(text)) where span.hasPrefix("mcpack ") {
            commands += mcpackCommands(in: span.replacingOccurrences(of: "\n", with: " "))
        }
        return commands
    }

    static func mcpackCommands(in line: String) -> [[String]] {
        var text = line.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("$ ") { text.removeFirst(2) }
        var commands: [[String]] = []
        var current: [String] = []
        func finish() {
            var words = current[...]
            while let first = words.first, first.contains("="), !first.hasPrefix("-") { words = words.dropFirst() }
            if let first = words.first, first == "mcpack" || first.hasSuffix("/mcpack") { commands.append(Array(words.dropFirst())) }
            current = []
        }
        for word in shellWords(text) {
            if ["&&", "||", ";", "|"].contains(word) { finish() } else { current.append(word) }
        }
        finish()
        return commands
    }

    /// A line split as a shell splits it, quotes removed, stopping at a
    /// comment; `;` is a word of its own.
    static func shellWords(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quote: Character?
        var started = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                started = true
            } else if character == " " || character == "\t" {
                if started || !word.isEmpty { words.append(word) }
                word = ""
                started = false
            } else if character == "#" && word.isEmpty && !started {
                break
            } else if character == ";" {
                if !word.isEmpty { words.append(word) }
                words.append(";")
                word = ""
            } else {
                word.append(character)
            }
        }
        if started || !word.isEmpty { words.append(word) }
        return words
    }

    /// The first capture group of every match.
    static func matches(_ pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}

/// Key paths of a JSON value: `a.b` for an object's key in an object,
/// `a[].b` for a key of the objects in an array.
enum JSONPaths {
    static func of(_ value: Any, at prefix: String = "") -> Set<String> {
        var paths: Set<String> = []
        if let object = value as? [String: Any] {
            for (key, inner) in object {
                let path = prefix.isEmpty ? key : prefix + "." + key
                paths.insert(path)
                paths.formUnion(of(inner, at: path))
            }
        } else if let array = value as? [Any] {
            for inner in array { paths.formUnion(of(inner, at: prefix + "[]")) }
        }
        return paths
    }
}
