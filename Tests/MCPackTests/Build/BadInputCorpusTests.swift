import Foundation
import MCPackSchema
import Testing
@testable import MCPackInputs
@testable import MCPackKit

/// One broken project of Tests/BadInputCorpus/ (see its README.md): the
/// fixture project of TestProject, with the case's files laid over it and
/// its generated files made, must make `mcpack build` exit 2 with exactly
/// the messages the case expects, write nothing, and not crash.
struct BadInputCorpusCase: CustomTestStringConvertible, Sendable {
    var name: String
    var folder: URL
    var testDescription: String { name }

    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("BadInputCorpus")

    static var all: [BadInputCorpusCase] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
        return names.sorted().compactMap { name in
            var isDirectory: ObjCBool = false
            let folder = corpus.appendingPathComponent(name)
            guard !name.hasPrefix("."), FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
                  isDirectory.boolValue else { return nil }
            return BadInputCorpusCase(name: name, folder: folder)
        }
    }
}

/// A case's case.toml.
struct BadInputCaseFile {
    static let name = "case.toml"

    var about: String
    /// Every error the build must report, each the start of its line after
    /// "error: ", with placeholders (see `resolve`).
    var expect: [String]
    /// Files or folders of the fixture project to delete first.
    var remove: [String]
    /// Files to write with a named generator (`BadInputGenerators`).
    var generate: [(path: String, generator: String)]
    /// CPU seconds mcpack may use (a debug build); more kills it.
    var maxSeconds: Int

    static func read(_ folder: URL) throws -> BadInputCaseFile {
        let url = folder.appendingPathComponent(name)
        let sink = DiagnosticSink()
        let fail = { CorpusError(description: "\(folder.lastPathComponent)/\(name): " + sink.all.map(\.description).joined(separator: "\n")) }
        guard let source = TOMLSource.load(url, displayPath: name, sink: sink) else { throw fail() }
        let root = source.rootReader
        let about = root.string("about")
        let expect = root.strings("expect")
        let remove = root.strings("remove", required: false) ?? []
        let maxSeconds = root.int("max_seconds", in: 1...600, required: false) ?? 10
        var generate: [(String, String)] = []
        for table in root.tables("generate") {
            if let path = table.string("path"), let generator = table.string("with") {
                if BadInputGenerators.all[generator] == nil {
                    table.error("with", "no generator \"\(generator)\"; there are: \(BadInputGenerators.all.keys.sorted().joined(separator: ", "))")
                }
                generate.append((path, generator))
            }
            table.rejectUnknownKeys(known: ["path", "with"])
        }
        root.rejectUnknownKeys(known: ["about", "expect", "remove", "max_seconds", "generate"])
        if let expect, expect.isEmpty { root.error("expect", "a case expects at least one message") }
        guard !sink.hasErrors, let about, let expect else { throw fail() }
        return BadInputCaseFile(about: about, expect: expect, remove: remove, generate: generate, maxSeconds: maxSeconds)
    }
}

struct CorpusError: Error, CustomStringConvertible {
    var description: String
}

@Suite struct BadInputCorpusTests {
    @Test func corpusIsThere() {
        #expect(BadInputCorpusCase.all.count >= 20, "too few cases under \(BadInputCorpusCase.corpus.path)")
    }

    @Test(.timeLimit(.minutes(2)), arguments: BadInputCorpusCase.all)
    func reportsTheMistakeAndWritesNothing(_ testCase: BadInputCorpusCase) throws {
        let spec = try BadInputCaseFile.read(testCase.folder)
        let project = try TestProject.make()
        defer { project.destroy() }
        try lay(testCase, spec, over: project)
        let before = try files(in: project.root)

        // `ulimit -t` kills a run that spins, and measures CPU time, which a
        // busy machine does not stretch the way it stretches the wall clock.
        let result = try MCPackBinary.run(["build"], in: project.root, shellPrefix: "ulimit -t \(spec.maxSeconds);")

        let context = "\(testCase.name): \(spec.about)\n\(result.stderr)"
        #expect(!result.signalled, "killed by signal \(result.status) (9 or 24 if over its \(spec.maxSeconds) CPU seconds): \(context)")
        #expect(!result.stderr.contains("Fatal error"), "\(context)")
        #expect(result.status == 2, "exit \(result.status): \(context)")
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)")

        let expected = try spec.expect.map { try resolve($0, in: project) }
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }.map { String($0.dropFirst(7)) }
        for text in expected {
            #expect(errors.contains { $0.hasPrefix(text) }, "expected a line starting \"error: \(text)\" in:\n\(context)")
        }
        for line in errors where !expected.contains(where: { line.hasPrefix($0) }) {
            Issue.record("a message the case does not expect: \"\(line)\"; \(context)")
        }
        let count = expected.count
        #expect(result.stderr.hasSuffix("\(count) problem\(count == 1 ? "" : "s") found; nothing was written.\n"), "\(context)")

        // Nothing written anywhere in the project: no archive, no temporary
        // file, no output folder, no cache entry.
        #expect(project.outputFiles().isEmpty, "the output folder holds \(project.outputFiles())")
        let after = try files(in: project.root)
        #expect(after == before, "written: \(after.subtracting(before).sorted()), removed: \(before.subtracting(after).sorted())")
    }

    /// Removes, overlays and generates the case's files in the project.
    private func lay(_ testCase: BadInputCorpusCase, _ spec: BadInputCaseFile, over project: TestProject) throws {
        let fm = FileManager.default
        for path in spec.remove {
            try fm.removeItem(at: project.url(path))
        }
        for path in try files(in: testCase.folder).sorted() where path != BadInputCaseFile.name {
            try project.write(path, Data(contentsOf: testCase.folder.appendingPathComponent(path)))
        }
        for (path, name) in spec.generate {
            guard let generator = BadInputGenerators.all[name] else { throw CorpusError(description: "no generator \(name)") }
            try project.write(path, generator(project))
        }
    }

    /// Every file and folder under `root`, relative to it.
    private func files(in root: URL) throws -> Set<String> {
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else {
            throw CorpusError(description: "cannot list \(root.path)")
        }
        var paths = Set<String>()
        while let path = enumerator.nextObject() as? String {
            if enumerator.fileAttributes?[.type] as? FileAttributeType != .typeDirectory { paths.insert(path) }
        }
        return paths
    }

    /// Fills in the placeholders of an expected message:
    /// `{line:FILE:TEXT}` the line of the first line of FILE holding TEXT,
    /// `{bytes:FILE}` the size of FILE, `{root}` the project folder.
    private func resolve(_ text: String, in project: TestProject) throws -> String {
        guard let open = text.range(of: "{"), let close = text.range(of: "}", range: open.upperBound..<text.endIndex) else { return text }
        let parts = text[open.upperBound..<close.lowerBound].split(separator: ":", maxSplits: 2).map(String.init)
        let value: String
        switch (parts.first, parts.count) {
        case ("line", 3): value = String(try project.line(of: parts[2], in: parts[1]))
        case ("bytes", 2): value = String(try Data(contentsOf: project.url(parts[1])).count)
        case ("root", 1): value = project.root.standardizedFileURL.resolvingSymlinksInPath().path
        default: return String(text[..<close.upperBound]) + (try resolve(String(text[close.upperBound...]), in: project))
        }
        return try resolve(text.replacingCharacters(in: open.lowerBound..<close.upperBound, with: value), in: project)
    }
}

/// The files a case cannot hold as small text: binary, large, or named in
/// ways a repository should not hold. Each is made from the fixture project
/// as it stands once the case's own files are laid over it.
enum BadInputGenerators {
    static let all: [String: @Sendable (TestProject) throws -> Data] = [
        // A valid 32 x 32 RGBA icon.
        "icon": { _ in StoredPNG.make(width: 32, height: 32, bands: 4) },
        // The fixture's master, byte for byte.
        "master": { try Data(contentsOf: $0.url("assets/document/master.png")) },
        // A 32 x 32 RGBA PNG that stops half-way through its IDAT chunk.
        "png-cut-in-image-data": { _ in cutInImageData(StoredPNG.make(width: 32, height: 32, bands: 4)) },
        // A 600 x 400 RGB PNG that stops half-way through its first IDAT chunk.
        "master-cut-in-image-data": { _ in cutInImageData(StoredPNG.make(width: 600, height: 400, bands: 3)) },
        // The PNG signature and IHDR chunk of a 32 x 32 RGBA PNG, nothing more.
        "png-cut-after-header": { _ in StoredPNG.make(width: 32, height: 32, bands: 4).prefix(33) },
        // A valid 32 x 32 RGBA PNG whose IHDR says 100,000 x 100,000 px,
        // with the chunk's CRC made right, so only the size is a lie.
        "png-claims-100000-px": { _ in
            var png = [UInt8](StoredPNG.make(width: 32, height: 32, bands: 4))
            png.replaceSubrange(16..<24, with: StoredPNG.bigEndian(100_000) + StoredPNG.bigEndian(100_000))
            png.replaceSubrange(29..<33, with: StoredPNG.bigEndian(StoredPNG.crc32(png[12..<29])))
            return Data(png)
        },
        // The fixture's clauses.toml grown past 10 MiB with valid clauses,
        // then one more whose colour is "red".
        "clauses-10mb-bad-colour-at-end": { project in
            try Data((largeClauses(project) + lastClause(title: "\"The last clause\"", colour: "\"red\"")).utf8)
        },
        // The same, but the last clause's title has no closing quote.
        "clauses-10mb-unclosed-string-at-end": { project in
            try Data((largeClauses(project) + lastClause(title: "\"The last clause", colour: "\"#1E3A8B\"")).utf8)
        },
        // The fixture's bundle.toml with a NUL byte after `overlap = 1`.
        "bundle-toml-with-nul-byte": { project in
            try Data(project.read("bundle.toml").replacingOccurrences(of: "overlap = 1", with: "overlap = 1\u{0}").utf8)
        },
        // The fixture's clauses.toml with "café" in Latin-1 in clause 40's context.
        "clauses-toml-in-latin-1": { project in
            let text = try project.read("assets/clauses.toml")
                .replacingOccurrences(of: #"context = "Also still law.""#, with: #"context = "Also still law, café.""#)
            guard let latin1 = text.data(using: .isoLatin1) else { throw CorpusError(description: "not Latin-1") }
            return latin1
        },
    ]

    /// Cut in the middle of the first IDAT chunk's data.
    private static func cutInImageData(_ png: Data) -> Data {
        let bytes = [UInt8](png)
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if bytes[offset + 4..<offset + 8] == Array("IDAT".utf8)[...] { return Data(bytes.prefix(offset + 8 + length / 2)) }
            offset += 12 + length
        }
        return png
    }

    private static func largeClauses(_ project: TestProject) throws -> String {
        var text = try project.read("assets/clauses.toml")
        var id = 1000
        while text.utf8.count < 10 * 1024 * 1024 {
            text += """

                [[clause]]
                id = "\(id)"
                title = "Clause \(id)"
                categories = ["Justice"]
                colour = "#1E3A8B"
                translation = "To no one will we sell, to no one deny or delay right or justice; filler to make the file large."
                context = "Clause \(id) of a clauses.toml made large on purpose."
                overlays = [[130, 44, 400, 24]]

                """
            id += 1
        }
        return text
    }

    private static func lastClause(title: String, colour: String) -> String {
        """

        [[clause]]
        id = "last"
        title = \(title)
        categories = ["Justice"]
        colour = \(colour)
        translation = "The last one."
        context = "After ten megabytes."
        overlays = [[130, 44, 400, 24]]

        """
    }
}

/// A PNG made by hand, with its image data in stored (uncompressed)
/// deflate blocks, so its bytes are the same with any libvips or zlib and
/// a case can name exact sizes.
enum StoredPNG {
    static func make(width: Int, height: Int, bands: Int) -> Data {
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)  // filter: none
            for x in 0..<width {
                for band in 0..<bands { raw.append(band == 3 ? 200 : UInt8(truncatingIfNeeded: x * 7 + y * 3 + band * 50)) }
            }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let count = min(65_535, raw.count - start)
            let last: UInt8 = start + count == raw.count ? 1 : 0
            zlib += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[start..<start + count]
            start += count
        } while start < raw.count
        zlib += bigEndian(adler32(raw))
        let colourType: UInt8 = [1: 0, 2: 4, 3: 2, 4: 6][bands]!
        let header = bigEndian(width) + bigEndian(height) + [8, colourType, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", []))
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(data.count) + body + bigEndian(crc32(body[...]))
    }

    static func bigEndian(_ value: Int) -> [UInt8] {
        [UInt8((value >> 24) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func crc32(_ bytes: ArraySlice<UInt8>) -> Int {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return Int(~crc)
    }

    static func adler32(_ bytes: [UInt8]) -> Int {
        var (a, b) = (1, 0)
        for byte in bytes {
            a = (a + Int(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
