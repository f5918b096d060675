import MCPackInputs
import MCPackBag
import Archiving
import FileIO
import Foundation
import MCPackSchema
import Hashing
import Imaging

package struct BuildOptions: Sendable {
    package var configPath: String
    /// Overrides bundle.toml's `output` (relative to the working folder).
    package var output: String?
    /// Replace an existing archive of this version even if it differs.
    package var overwrite: Bool
    /// A warning about the inputs stops the build as an error does.
    package var strict: Bool
    package var environment: [String: String]
    /// Hears progress (tiling) and notes (a damaged cache entry remade).
    package var events: (@Sendable (BuildEvent) -> Void)?
    /// Called at the build's most delicate moments, for tests that stop it there.
    package var hooks: BuildHooks

    package init(configPath: String = "bundle.toml", output: String? = nil, overwrite: Bool = false, strict: Bool = false,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                events: (@Sendable (BuildEvent) -> Void)? = nil, hooks: BuildHooks = BuildHooks()) {
        self.configPath = configPath
        self.output = output
        self.overwrite = overwrite
        self.strict = strict
        self.environment = environment
        self.events = events
        self.hooks = hooks
    }
}

/// Points in a build where a test may stop or kill it: a kill there must
/// leave nothing at the final path, and an archive that verifies.
package struct BuildHooks: Sendable {
    /// The new archive is written and read back, not yet renamed into place.
    package var beforeCommit: (@Sendable () -> Void)?
    /// The archive is in place; its .sha256 is not yet written.
    package var beforeChecksum: (@Sendable () -> Void)?

    package init(beforeCommit: (@Sendable () -> Void)? = nil, beforeChecksum: (@Sendable () -> Void)? = nil) {
        self.beforeCommit = beforeCommit
        self.beforeChecksum = beforeChecksum
    }
}

package struct BuildResult: Sendable, Encodable {
    package enum Outcome: String, Sendable, Encodable {
        /// A new archive was written.
        case written
        /// This version's archive already held exactly these bytes.
        case unchanged
        /// An archive with different bytes was replaced (--overwrite).
        case replaced
    }

    package var archive: String
    package var sha256: String
    package var name: String
    package var version: String
    package var format: String
    /// Payload files in the bag.
    package var files: Int
    /// Size of the archive file.
    package var bytes: Int
    package var payloadBytes: Int
    package var outcome: Outcome
    package var removedTemporaryFiles: [String]
    /// Detached signatures (ARCHIVE.minisig, ARCHIVE.sig) of the archive
    /// this build replaced: they signed other bytes.
    package var removedSignatures: [String] = []
    /// What the checks found doubtful but not wrong (e.g. overlays that
    /// look measured on a reduced copy); the archive was written anyway.
    package var warnings: [Diagnostic] = []

    enum CodingKeys: String, CodingKey {
        case archive, sha256, name, version, format, files, bytes, outcome, warnings
        case payloadBytes = "payload_bytes"
        case removedTemporaryFiles = "removed_temporary_files"
        case removedSignatures = "removed_signatures"
    }
}

/// This version's archive exists with other bytes: versions never change.
package struct VersionExists: Error, CustomStringConvertible, Sendable {
    package let archive: String
    package let version: String

    package var description: String {
        "\(archive) already exists with different content; a built version never changes. Bump [bundle] version in bundle.toml, or pass --overwrite to replace it on purpose."
    }
}

/// `mcpack build`: check every input, assemble the bag, write the archive
/// and its .sha256 so that nothing partial is ever at the final path.
package enum Builder {
    /// The time stamped on every entry when neither SOURCE_DATE_EPOCH nor
    /// bundle.toml gives one: 15 June 2015, the charter's 800th year.
    package static let defaultSourceDate = 1_434_326_400

    /// Readies a process that runs a build and nothing else (the `mcpack
    /// build` command) before anything opens a picture: libvips starts
    /// without the optional loaders no input of a build may use, and large
    /// blocks are mapped on their own from the start. Not for a process
    /// that verifies too, which may meet a PDF in an asset catalog and
    /// reads an unpacked bag's files faster with glibc's own threshold.
    package static func prepareProcess() {
        OptionalLoaders.leaveOut()
        mapLargeBlocksFromNowOn()
    }

    package static func build(_ options: BuildOptions) async throws -> BuildResult {
        // A work-cache file missing or changed stops the archive's write:
        // that entry goes, is made again, and the archive is written once
        // more. Each entry is remade at most once, so this ends.
        var remade = Set<String>()
        var untrusted = Set<String>()
        while true {
            do {
                return try await buildOnce(options, untrusted: untrusted)
            } catch let damaged as PreviousArchive.Damaged {
                // Copying from an archive built before met bytes that are not
                // what its manifest says: that archive is not copied from
                // again, and the entries are made anew.
                guard untrusted.insert(URL(fileURLWithPath: damaged.archive).standardizedFileURL.path).inserted else { throw damaged }
                options.events?(.note("\(damaged); not copying from it, making its entries again"))
            } catch let changed as SourceFileChanged {
                guard let entry = WorkCache.entry(holding: changed.path), remade.insert(entry.folder.path).inserted else { throw changed }
                options.events?(.note("cache entry \(entry.name) has a file missing or changed (first: \(entry.file)); making it again"))
                try? FileManager.default.removeItem(at: entry.folder)
            }
        }
    }

    private static func buildOnce(_ options: BuildOptions, untrusted: Set<String>) async throws -> BuildResult {
        let sink = DiagnosticSink()
        let project = try await load(configPath: options.configPath, sink: sink)
        let mtime = sourceDate(project, options: options, sink: sink)
        // Check every input first, so a mistake anywhere is reported before
        // minutes of tiling; then make each one.
        let (checked, warnings) = try await checkAll(project, strict: options.strict, sink: sink)
        // The bundle's templates take the facts the checks gave, as an input does.
        guard let mtime, let needs = BundleTemplateContext.Needs.gather(from: checked.facts) else { throw InputError(sink.all) }
        let finalURL = archiveURL(project, output: options.output)
        let made = try makeAll(checked, project: project, options: options, sourceDate: mtime, finalURL: finalURL, untrusted: untrusted, sink: sink)
        let bag = try assemble(project, checked: checked, made: made, needs: needs, sourceDate: mtime)
        let config = project.config

        let folder = finalURL.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw FileError(path: folder.path, message: "cannot create the output folder")
        }
        let removed = OutputFile.removeAbandoned(in: folder)
        // Cache entries the archive makes redundant go once it is in place.
        func dropTransient() {
            for folder in made.flatMap(\.transient) { try? FileManager.default.removeItem(at: folder) }
        }
        // Only a bag known whole before it is written can be the archive
        // already there; one whose tiles are made now (no archive to copy
        // them from) is not.
        if let tagFiles = bag.knownTags, let existing = unchangedArchive(finalURL, top: bag.top, tagFiles: tagFiles) {
            dropTransient()
            return BuildResult(
                archive: display(finalURL), sha256: existing.sha256, name: config.name, version: config.version.text,
                format: config.format.rawValue, files: bag.payload.count, bytes: existing.bytes,
                payloadBytes: bag.payload.bytes, outcome: .unchanged, removedTemporaryFiles: removed, warnings: warnings)
        }
        let output = OutputFile(final: finalURL)
        let written = try write(bag, to: output, format: config.format, sourceDate: mtime)
        options.hooks.beforeCommit?()
        let (outcome, removedSignatures, checksumIsCurrent) = try commit(output, written: written, options: options, version: config.version.text)
        dropTransient()
        options.hooks.beforeChecksum?()
        if !checksumIsCurrent { try OutputFile.write(checksum(written.sha256, of: finalURL), to: checksumURL(finalURL)) }
        return BuildResult(
            archive: display(finalURL), sha256: written.sha256, name: config.name, version: config.version.text,
            format: config.format.rawValue, files: written.payload.count, bytes: written.bytes, payloadBytes: written.payload.bytes,
            outcome: outcome, removedTemporaryFiles: removed, removedSignatures: removedSignatures, warnings: warnings)
    }

    /// Checks every input; throws every error found, and with `strict`
    /// every warning as one. Gives the check pass and its warnings.
    private static func checkAll(_ project: Project, strict: Bool, sink: DiagnosticSink) async throws -> (CheckPass, [Diagnostic]) {
        let checked = await check(project, sink: sink)
        try sink.throwIfErrors()
        let warnings = sink.all.filter { $0.severity == .warning }
        if strict, !warnings.isEmpty {
            throw InputError(warnings.map { warning in
                var error = warning
                error.severity = .error
                error.message += " (a warning, an error with --strict)"
                return error
            })
        }
        return (checked, warnings)
    }

    /// Makes every checked input, one at a time: making the launch layers
    /// beside the tiling took a 34,000 px build past its 256 MB memory
    /// budget. An input may use every core for its own work. A Deep Zoom
    /// pyramid is tiled last, while the archive is written, after every
    /// input is made.
    private static func makeAll(_ checked: CheckPass, project: Project, options: BuildOptions, sourceDate mtime: Int, finalURL: URL,
                                untrusted: Set<String>, sink: DiagnosticSink) throws -> [MadeInput] {
        // Two workers: the launch screens, made one by one, leave the second
        // core idle (bench/results.md has what the second worker saves).
        let workers = min(2, ProcessInfo.processInfo.activeProcessorCount)
        let previous = PreviousArchives.find(first: finalURL, named: project.config.name,
                                             in: [finalURL.deletingLastPathComponent(), project.outputFolder], untrusted: untrusted)
        var made: [MadeInput] = []
        for plan in checked.plans {
            var env = MakeEnvironment(project: project, sources: checked.sources, sourceDate: ArchiveTimes.iso8601(mtime, time: true),
                                      workers: workers, events: options.events)
            env.previous = previous
            do {
                made.append(try plan.input.runMake(plan.plan, in: env))
            } catch let diagnostic as Diagnostic {
                sink.add(diagnostic)
            }
        }
        try sink.throwIfErrors()
        return made
    }

    /// The bag of what the inputs made, with bundle.json, the asset
    /// catalog's own Contents.json and the bundle's pages.
    private static func assemble(_ project: Project, checked: CheckPass, made: [MadeInput], needs: BundleTemplateContext.Needs,
                                 sourceDate mtime: Int) throws -> Bag {
        let config = project.config
        let sources = sortedSources(project, Array(checked.sources.values))
        var payload = made.flatMap(\.payload)
        let streams = made.compactMap(\.stream)
        // The inputs each make their sets of the one catalog; the catalog's
        // own Contents.json is nobody's, and Xcode needs it.
        if payload.contains(where: { $0.path.hasPrefix(AssetCatalog.folder + "/") }) {
            payload.append(PayloadFile(path: AssetCatalog.folder + "/Contents.json", bytes: JSON.encode(AssetCatalogContents.folder)))
        }
        let bundle = BundleJSON.Head(
            mcpack: MCPackVersion.current,
            bundle: .init(name: config.name, version: config.version.text, title: config.title, sourceDate: ArchiveTimes.iso8601(mtime, time: true)),
            libraries: BundleJSON.Head.writtenWith,
            components: .init(Dictionary(made.map { ($0.component, $0.record) }, uniquingKeysWith: { first, _ in first })),
            inputs: sources)
        payload.append(PayloadFile(path: "bundle.json", bytes: JSON.encode(bundle)))
        // HANDOVER.md counts each part's files and bytes: the bundle's pages
        // are made once every other file is, after the tiles when those are
        // made while the archive is written.
        let bundleTemplates = try TemplateSet.load("bundle")
        let pages: Bag.MadeLast = { sizes in
            // HANDOVER.md lists the files the templates make, which are
            // known once rendered (one that renders to nothing makes none):
            // rendered again when that leaves one out.
            func render(listing paths: [String]) -> [(path: String, data: Data)] {
                bundleTemplates.render(
                    BundleTemplateContext(project, needs: needs, sources: sources, sourceDate: ArchiveTimes.iso8601(mtime, time: true),
                                          made: made.flatMap { HandoverRow.rows($0.handover, sizes: sizes) }, rendered: paths))
            }
            let all = bundleTemplates.templates.map(\.path)
            var rendered = render(listing: all)
            if rendered.count < all.count { rendered = render(listing: rendered.map(\.path)) }
            return rendered.map { PayloadFile(path: $0.path, bytes: $0.data) }
        }

        return try Bag.assemble(top: config.stem, payload: payload, streams: streams, madeLast: pages, info: [
            ("BagIt-Profile-Identifier", BagItProfile.mcpackBundleIdentifier),
            ("Bag-Software-Agent", "mcpack \(MCPackVersion.current)"),
            ("Bagging-Date", ArchiveTimes.iso8601(mtime, time: false)),
            ("Bundle-Name", config.name),
            ("Bundle-Version", config.version.text),
            ("External-Description", config.title),
            ("Source-Date", ArchiveTimes.iso8601(mtime, time: true)),
        ], tags: [(BagItProfile.tagFileName, JSON.encode(BagItProfile.mcpackBundle))])
    }

    /// Writes the archive at its temporary path and reads it back.
    private static func write(_ bag: Bag, to output: OutputFile, format: ArchiveFormat, sourceDate mtime: Int) throws -> WrittenBag {
        let written: WrittenBag
        do {
            written = try bag.write(to: output.temporary.path, format: format, mtime: mtime)
        } catch let diagnostic as Diagnostic {
            // An input that fails while written (the tiling) is reported as
            // one that fails while made: named, exit 2, nothing written.
            throw InputError([diagnostic])
        }
        try written.check(archive: output.temporary.path)
        return written
    }

    /// `sha256sum -c` reads "<hex>  <name>" relative to the file's folder.
    private static func checksum(_ sha256: String, of archive: URL) -> Data {
        Data("\(sha256)  \(archive.lastPathComponent)\n".utf8)
    }

    private static func checksumURL(_ archive: URL) -> URL { archive.appendingPathExtension("sha256") }

    /// Puts the written archive at its final path, unless the archive there
    /// holds the same bytes; one of other bytes is replaced only with
    /// `overwrite`, and its signatures go first. Says what happened, the
    /// signatures removed, and whether the .sha256 there is current.
    private static func commit(_ output: OutputFile, written: WrittenBag, options: BuildOptions,
                               version: String) throws -> (BuildResult.Outcome, [String], Bool) {
        let finalURL = output.final
        var outcome = BuildResult.Outcome.written
        if FileManager.default.fileExists(atPath: finalURL.path) {
            // Bytes of another length differ: the old archive is read (a
            // third pass over every tile of a rebuild) only when they could
            // be the same. Its size as a read sees it (a link followed), as
            // hashing reads it.
            let existingBytes = try FileReader(path: finalURL.path).size
            if existingBytes == UInt64(written.bytes), try Digest.hexOfFile(finalURL).sha256 == written.sha256 {
                outcome = .unchanged
            } else if options.overwrite {
                outcome = .replaced
            } else {
                throw VersionExists(archive: display(finalURL), version: version)
            }
        }
        let checksumURL = checksumURL(finalURL)
        let checksumIsCurrent = FileManager.default.contents(atPath: checksumURL.path) == checksum(written.sha256, of: finalURL)
        var removedSignatures: [String] = []
        if outcome == .replaced {
            // A signature of the replaced bytes would fail verify --public-key
            // (or pass as "present" unchecked): it goes before the new archive
            // lands, and if it cannot go, nothing is replaced.
            for signatureURL in ["minisig", "sig"].map(finalURL.appendingPathExtension) where FileManager.default.fileExists(atPath: signatureURL.path) {
                try FileSystem.removeFile(signatureURL.path)
                removedSignatures.append(display(signatureURL))
            }
        }
        if outcome != .unchanged {
            // An old .sha256 goes first: a kill between the two renames then
            // leaves a new archive alone (which verifies, and which the next
            // build completes), never beside a checksum that calls it damaged.
            if !checksumIsCurrent { try? FileSystem.removeFile(checksumURL.path) }
            try output.commit()
        }
        return (outcome, removedSignatures, checksumIsCurrent)
    }

    /// What the check pass found: the plans of the inputs that passed, the
    /// facts every check published, and every input file with its hash.
    struct CheckPass {
        var plans: [CheckedInput] = []
        var facts: [any InputFact] = []
        var sources: [String: SourceFile] = [:]

        func fact<F: InputFact>(_ type: F.Type) -> F? { facts.lazy.compactMap { $0 as? F }.first }
    }

    /// Reads bundle.toml. When it has mistakes, the inputs its sound tables
    /// name are checked before they are all thrown, so that a mistake in
    /// [document] and one in clauses.toml are reported in the same run.
    static func load(configPath: String, sink: DiagnosticSink) async throws -> Project {
        guard let reading = Project.read(configPath: configPath, sink: sink) else { throw InputError(sink.all) }
        guard let project = reading.project else {
            _ = await check(reading.folder, inputs: reading.inputs, sink: sink)
            throw InputError(sink.all)
        }
        return project
    }

    static func check(_ project: Project, sink: DiagnosticSink) async -> CheckPass {
        await check(project.folder, inputs: project.config.inputs, sink: sink)
    }

    /// Checks every input, in the order of `Inputs.all`, without making
    /// anything; problems go to `sink`. A large input file (the master) is
    /// hashed on another core while the inputs after it are checked (a
    /// rebuild with nothing changed is mostly that hash); one that cannot be
    /// read is reported with the others, before any slow work.
    static func check(_ project: ProjectFolder, inputs: InputSettings, sink: DiagnosticSink) async -> CheckPass {
        let env = CheckEnvironment(project: project, sink: sink)
        var pass = CheckPass()
        var large: [String] = []
        func record(_ path: String, _ file: SourceFile?) {
            if let file { pass.sources[path] = file } else { env.problem(path, "cannot read the file") }
        }
        await withTaskGroup(of: (String, SourceFile?).self) { group in
            for input in Inputs.all {
                let (plan, facts) = input.runCheck(inputs, facts: pass.facts, in: env)
                pass.facts += facts
                guard let plan else { continue }
                pass.plans.append(plan)
                for source in plan.plan.sources {
                    switch source {
                    case .read(let file):
                        pass.sources[file.path] = file
                    case .large(let path) where !large.contains(path):
                        large.append(path)
                        let url = project.url(path)
                        let hash: @Sendable () -> (String, SourceFile?) = {
                            let hashed = try? Digest.hexOfFile(url)
                            return (path, hashed.map { SourceFile(path: path, sha256: $0.sha256, bytes: $0.bytes) })
                        }
                        group.addTask { hash() }
                    case .large:
                        break
                    }
                }
            }
            for await (path, file) in group { record(path, file) }
        }
        return pass
    }

    /// bundle.toml and every input file read, in byte order of their paths.
    static func sortedSources(_ project: Project, _ sources: [SourceFile]) -> [SourceFile] {
        ([project.configSource] + sources).sorted { $0.path.precedesInUTF8Order($1.path) }
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
    static func unchangedArchive(_ url: URL, top: String, tagFiles: [(path: String, data: Data)]) -> (sha256: String, bytes: Int)? {
        // The tag files end the archive: a zip's are read where its central
        // directory puts them; a tar's by reading past the payload.
        guard let sums = FileManager.default.contents(atPath: url.path + ".sha256") else { return nil }
        let names = Set(tagFiles.map(\.path))
        if let read = BagReader.zipFiles(url.path, names) {
            guard read.top == top, tagFiles.allSatisfy({ read.files[$0.path] == $0.data }) else { return nil }
        } else {
            guard let reader = try? BagReader(url.path, only: names, refusing: { $0.kind != .entryWarning }, keep: { _ in BagReader.Keep(.whole) })
            else { return nil }
            for tag in tagFiles {
                guard let file = try? reader.next(), file.entry.name == "\(top)/\(tag.path)", file.data == tag.data else { return nil }
            }
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

    static func display(_ url: URL) -> String {
        let here = FileManager.default.currentDirectoryPath
        return url.path.hasPrefix(here + "/") ? String(url.path.dropFirst(here.count + 1)) : url.path
    }
}
