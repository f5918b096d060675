import Archiving
import FileIO
import Foundation
import Hashing

public struct BuildOptions: Sendable {
    public var configPath: String
    /// Overrides bundle.toml's `output` (relative to the working folder).
    public var output: String?
    /// Replace an existing archive of this version even if it differs.
    public var overwrite: Bool
    public var environment: [String: String]
    /// Hears progress (tiling) and notes (a damaged cache entry remade).
    public var events: (@Sendable (BuildEvent) -> Void)?

    public init(configPath: String = "bundle.toml", output: String? = nil, overwrite: Bool = false,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                events: (@Sendable (BuildEvent) -> Void)? = nil) {
        self.configPath = configPath
        self.output = output
        self.overwrite = overwrite
        self.environment = environment
        self.events = events
    }
}

public struct BuildResult: Sendable, Encodable {
    public enum Outcome: String, Sendable, Encodable {
        /// A new archive was written.
        case written
        /// This version's archive already held exactly these bytes.
        case unchanged
        /// An archive with different bytes was replaced (--overwrite).
        case replaced
    }

    public var archive: String
    public var sha256: String
    public var name: String
    public var version: String
    public var format: String
    /// Payload files in the bag.
    public var files: Int
    /// Size of the archive file.
    public var bytes: Int
    public var payloadBytes: Int
    public var outcome: Outcome
    public var removedTemporaryFiles: [String]

    enum CodingKeys: String, CodingKey {
        case archive, sha256, name, version, format, files, bytes, outcome
        case payloadBytes = "payload_bytes"
        case removedTemporaryFiles = "removed_temporary_files"
    }
}

/// This version's archive exists with other bytes: versions never change.
public struct VersionExists: Error, CustomStringConvertible, Sendable {
    public let archive: String
    public let version: String

    public var description: String {
        "\(archive) already exists with different content; a built version never changes. Bump [bundle] version in bundle.toml, or pass --overwrite to replace it on purpose."
    }
}

/// `mcpack build`: check every input, assemble the bag, write the archive
/// and its .sha256 so that nothing partial is ever at the final path.
public enum Builder {
    /// The time stamped on every entry when neither SOURCE_DATE_EPOCH nor
    /// bundle.toml gives one: 15 June 2015, the charter's 800th year.
    public static let defaultSourceDate = 1_434_326_400

    static var inputs: [any BundleInput.Type] { [DocumentInput.self, ClausesInput.self, CategoriesInput.self, IconsInput.self, LaunchInput.self] }

    public static func build(_ options: BuildOptions) throws -> BuildResult {
        // A work-cache file missing or changed stops the archive's write:
        // that entry goes, is made again, and the archive is written once
        // more. Each entry is remade at most once, so this ends.
        var remade = Set<String>()
        while true {
            do {
                return try buildOnce(options)
            } catch let changed as SourceFileChanged {
                guard let entry = WorkCache.entry(holding: changed.path), remade.insert(entry.folder.path).inserted else { throw changed }
                options.events?(.note("cache entry \(entry.name) has a file missing or changed (first: \(entry.file)); making it again"))
                try? FileManager.default.removeItem(at: entry.folder)
            }
        }
    }

    private static func buildOnce(_ options: BuildOptions) throws -> BuildResult {
        let sink = DiagnosticSink()
        guard let project = Project.load(configPath: options.configPath, sink: sink) else { throw InputError(sink.all) }
        let mtime = sourceDate(project, options: options, sink: sink)
        let context = GatherContext(project: project, sink: sink, events: options.events)
        // Check every input first, so a mistake anywhere is reported before
        // minutes of tiling; then make each one.
        for input in inputs { input.startAhead(context) }
        let checked = inputs.map { $0.gather(context) }
        context.collectDeferred()
        try sink.throwIfErrors()
        context.making = true
        // One input at a time: making the launch layers beside the tiling
        // saved 2 s of a 34,000 px build but took it 95 MB past its memory
        // budget. One screen size at a time beside it saved about 1 s but
        // peaked at 261-275 MB; streamed, 235-251 MB and no saving seen
        // (all measured 2026-11-22; the budget is 256 MB). Inputs whose
        // check already made everything (clauses, categories) are not read
        // twice.
        var components: [Component] = []
        for (input, done) in zip(inputs, checked) {
            if let component = input.checkMakesAll ? done : input.gather(context) { components.append(component) }
        }
        try sink.throwIfErrors()
        guard let mtime, let master = context.master, let clauses = context.clauses else { throw InputError(sink.all) }

        let config = project.config
        let sources = sortedSources(project, components)
        var payload = components.flatMap(\.payload)
        let rendered = try TemplateSet.load("bundle").render(
            templateContext(project, clauses: clauses, master: master, sources: sources, mtime: mtime))
        payload += rendered.map { PayloadFile(path: $0.path, bytes: $0.data) }
        payload.append(PayloadFile(path: "bundle.json", bytes: bundleJSON(project, components: components, sources: sources, mtime: mtime)))

        let bag = try Bag.assemble(top: config.stem, payload: payload, info: [
            ("Bag-Software-Agent", "mcpack \(MCPackVersion.current)"),
            ("Bagging-Date", isoDate(mtime, time: false)),
            ("Bundle-Name", config.name),
            ("Bundle-Version", config.version.text),
            ("External-Description", config.title),
            ("Source-Date", isoDate(mtime, time: true)),
        ])

        let finalURL = archiveURL(project, output: options.output)
        let folder = finalURL.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw FileError(path: folder.path, message: "cannot create the output folder")
        }
        let removed = OutputFile.removeAbandoned(in: folder)
        if let existing = unchangedArchive(finalURL, bag: bag) {
            return BuildResult(
                archive: display(finalURL), sha256: existing.sha256, name: config.name, version: config.version.text,
                format: config.format.rawValue, files: bag.payload.count, bytes: existing.bytes, payloadBytes: bag.payloadBytes,
                outcome: .unchanged, removedTemporaryFiles: removed)
        }
        let output = OutputFile(final: finalURL)
        let (sha256, bytes) = try bag.write(to: output.temporary.path, format: config.format, mtime: mtime)
        try bag.check(archive: output.temporary.path)
        if options.environment["MCPACK_TEST_STOP_BEFORE_COMMIT"] == "1" {
            // Lets a test kill the build at its most delicate moment.
            raise(SIGSTOP)
        }

        var outcome = BuildResult.Outcome.written
        if FileManager.default.fileExists(atPath: finalURL.path) {
            let existing = try Digest.hexOfFile(finalURL).sha256
            if existing == sha256 {
                outcome = .unchanged
            } else if options.overwrite {
                outcome = .replaced
            } else {
                throw VersionExists(archive: display(finalURL), version: config.version.text)
            }
        }
        // `sha256sum -c` reads "<hex>  <name>" relative to the file's folder.
        let checksumURL = finalURL.appendingPathExtension("sha256")
        let checksum = Data("\(sha256)  \(finalURL.lastPathComponent)\n".utf8)
        let checksumIsCurrent = FileManager.default.contents(atPath: checksumURL.path) == checksum
        if outcome != .unchanged {
            // An old .sha256 goes first: a kill between the two renames then
            // leaves a new archive alone (which verifies, and which the next
            // build completes), never beside a checksum that calls it damaged.
            if !checksumIsCurrent { unlink(checksumURL.path) }
            try output.commit()
        }
        if options.environment["MCPACK_TEST_STOP_BEFORE_CHECKSUM"] == "1" { raise(SIGSTOP) }
        if !checksumIsCurrent { try OutputFile.write(checksum, to: checksumURL) }
        return BuildResult(
            archive: display(finalURL), sha256: sha256, name: config.name, version: config.version.text,
            format: config.format.rawValue, files: bag.payload.count, bytes: bytes, payloadBytes: bag.payloadBytes,
            outcome: outcome, removedTemporaryFiles: removed)
    }

    /// Checks every input without making anything; returns the input files
    /// read, with their hashes. Problems are in the context's sink.
    static func check(_ context: GatherContext) -> [SourceFile] {
        sortedSources(context.project, inputs.compactMap { $0.gather(context) })
    }

    /// bundle.toml and every input file read, in byte order of their paths.
    static func sortedSources(_ project: Project, _ components: [Component]) -> [SourceFile] {
        ([project.configSource] + components.flatMap(\.sources))
            .sorted { $0.path.precedesInByteOrder($1.path) }
    }

    /// The archive this project's current version builds to.
    static func archiveURL(_ project: Project, output: String? = nil) -> URL {
        let folder = output.map { URL(fileURLWithPath: $0).standardizedFileURL } ?? project.outputFolder
        return folder.appendingPathComponent("\(project.config.stem).\(project.config.format.fileExtension)")
    }

    /// The existing archive, when it is the one this bag would write: its
    /// tag files (which pin every payload hash, the version, the date and
    /// mcpack's version) are the bag's, and its bytes still match its
    /// .sha256. Then nothing is written again; otherwise nil, and the build
    /// writes and compares in full.
    static func unchangedArchive(_ url: URL, bag: Bag) -> (sha256: String, bytes: Int)? {
        guard let sums = FileManager.default.contents(atPath: url.path + ".sha256"),
              let reader = try? ArchiveReader(path: url.path) else { return nil }
        for tag in bag.tagFiles {
            guard let entry = try? reader.next(), entry.path == "\(bag.top)/\(tag.path)" else { return nil }
            var data = Data()
            guard (try? reader.readData({ data.append(contentsOf: $0) })) != nil, data == tag.data else { return nil }
        }
        guard let (sha, bytes) = try? Digest.hexOfFile(url.path),
              String(decoding: sums, as: UTF8.self) == "\(sha)  \(url.lastPathComponent)\n" else { return nil }
        return (sha, bytes)
    }

    /// SOURCE_DATE_EPOCH, else bundle.toml's source_date, else the default.
    static func sourceDate(_ project: Project, options: BuildOptions, sink: DiagnosticSink) -> Int? {
        if let text = options.environment["SOURCE_DATE_EPOCH"], !text.isEmpty {
            // Zip stores DOS times, which start in 1980.
            guard let seconds = Int(text), (315_532_800...4_102_444_800).contains(seconds) else {
                sink.add(Diagnostic(file: "SOURCE_DATE_EPOCH", message: "\"\(text)\" is not a time mcpack can stamp; expected whole seconds since 1970 between 1980 and 2099"))
                return nil
            }
            return seconds
        }
        if let date = project.config.sourceDate { return Int(date.timeIntervalSince1970) }
        return defaultSourceDate
    }

    static func isoDate(_ seconds: Int, time: Bool) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = time ? [.withInternetDateTime] : [.withFullDate]
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    static func display(_ url: URL) -> String {
        let here = FileManager.default.currentDirectoryPath
        return url.path.hasPrefix(here + "/") ? String(url.path.dropFirst(here.count + 1)) : url.path
    }

    static func bundleJSON(_ project: Project, components: [Component], sources: [SourceFile], mtime: Int) -> Data {
        let config = project.config
        var records: [String: JSON] = [:]
        for component in components { records[component.name] = component.record }
        let json: JSON = [
            "schema": 1,
            "mcpack": .string(MCPackVersion.current),
            "bundle": [
                "name": .string(config.name),
                "version": .string(config.version.text),
                "title": .string(config.title),
                "source_date": .string(isoDate(mtime, time: true)),
            ],
            "components": .object(records),
            "inputs": .array(sources.map(\.json)),
        ]
        return JSON.encode(json)
    }

    static func templateContext(_ project: Project, clauses: ClauseFile, master: (width: Int, height: Int),
                                sources: [SourceFile], mtime: Int) -> [String: Any] {
        let config = project.config
        let categories: [[String: Any]] = clauses.categories.map { category in
            [
                "name": category.name, "icon": category.icon,
                "nameLiteral": swiftLiteral(category.name),
                "filterLiteral": category.filter.map(swiftLiteral) ?? "nil",
                "filterText": category.filter ?? "",
            ]
        }
        let clauseList: [[String: Any]] = clauses.clauses.map { clause in
            let hex = clause.colour.dropFirst()
            return [
                "idLiteral": swiftLiteral(clause.id),
                "titleLiteral": swiftLiteral(clause.title),
                "categoriesLiteral": clause.categories.map(swiftLiteral).joined(separator: ", "),
                "colourHex": "0x" + (hex.count == 6 ? hex + "FF" : hex),
                "translationLiteral": swiftLiteral(clause.translation),
                "contextLiteral": swiftLiteral(clause.context),
                "overlays": clause.overlays.enumerated().map { index, rect -> [String: Any] in
                    ["x": rect.x, "y": rect.y, "width": rect.width, "height": rect.height,
                     "separator": index == clause.overlays.count - 1 ? "" : ", "]
                },
            ]
        }
        return [
            "name": config.name, "version": config.version.text, "title": config.title,
            "extension": config.format.fileExtension,
            "mcpackVersion": MCPackVersion.current,
            "sourceDate": isoDate(mtime, time: true),
            "clausesFile": config.clauses.file,
            "masterWidth": master.width, "masterHeight": master.height,
            "clauseCount": clauses.clauses.count, "categoryCount": clauses.categories.count,
            "categories": categories, "clauses": clauseList,
            "inputs": sources.map { ["path": $0.path, "sha256": $0.sha256] },
        ]
    }
}
