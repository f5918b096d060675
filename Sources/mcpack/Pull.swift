import ArgumentParser
import Foundation
import MCPackKit
import MCPackReader

struct Pull: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Install or update a bundle folder from an update channel that mcpack publish wrote.",
        discussion: """
            URL is the channel's folder on a web server (the one holding index.json). \
            The index's signature is checked with --public-key (the sender's minisign \
            public key; give the option again to trust several) before anything in it is \
            read. An index older than one accepted before, an expired one (give or take \
            --grace), and a version not newer than one installed before (unless \
            --allow-rollback) are refused.

            Only files whose SHA-256 the installed version (or a --reuse bag) lacks are \
            fetched; the others are linked from it. Every fetched byte is checked against the SHA-256 the \
            signed index names, and no file is read past its listed size. An interrupted \
            pull keeps what it fetched and the next one continues it (HTTP Range). The new \
            version is assembled beside the installed one, checked whole as a bag, and \
            made current by one atomic switch: a kill or power loss at any moment leaves \
            the old version or the new one.

            Afterwards DIR is a symbolic link to the current version's unpacked bag, \
            which `mcpack verify DIR` and the app's KioskBundle(folder:) open as they are. \
            The versions live beside it in DIR.mcpack/ (versions/, with the previous \
            version kept until the next update; downloads/; state.json, the highest \
            index sequence and version seen).

            After a rollback (BundleStore.rollBack() in the app's library), the version \
            rolled back from is held back: while it is the channel's newest, a pull \
            says so and installs nothing.

            Exit status: 0 installed, already current or held back, 1 refused (signature, expiry, \
            rollback, a file whose bytes are not the signed ones), 2 could not (network, \
            disk, usage).
            """)

    @Argument(help: ArgumentHelp("The channel's URL (http or https), the folder holding index.json.", valueName: "url"))
    var url: String

    @Option(name: .long, help: ArgumentHelp("The bundle folder to install or update: a symbolic link mcpack pull makes and switches.", valueName: "dir"))
    var into: String

    @Option(name: .customLong("public-key"), help: ArgumentHelp("A minisign public key whose signature of the channel's index is trusted (repeatable).", valueName: "file"))
    var publicKeys: [String] = []

    @Option(name: .long, help: ArgumentHelp("An unpacked bag already on this machine (a version handed over before) whose files are used rather than fetched, each only if its SHA-256 is the signed one (repeatable).", valueName: "dir"))
    var reuse: [String] = []

    @Flag(name: .customLong("allow-rollback"), help: "Install the channel's newest version even if it is not newer than a version installed before.")
    var allowRollback = false

    @Option(name: .long, help: ArgumentHelp("How long past its expiry the index is still accepted: minutes, hours, days or weeks, such as 90m, 12h, 1d.", valueName: "duration"))
    var grace: String = "1d"

    @Option(name: .long, help: ArgumentHelp("An HTTP header sent with every request, such as 'Authorization: Bearer TOKEN' (repeatable).", valueName: "header"))
    var header: [String] = []

    @Flag(name: .long, help: "Print one JSON object on standard output instead of text.")
    var json = false

    func validate() throws {
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
            throw ValidationError("\(url): give the channel's http:// or https:// URL")
        }
        guard !publicKeys.isEmpty else { throw ValidationError("give --public-key: the minisign public key the channel is signed with") }
        guard ChannelDuration.parse(grace) != nil else {
            throw ValidationError("--grace \(grace): give a whole number of minutes, hours, days or weeks, such as 90m, 12h, 1d or 2w")
        }
        for folder in reuse where !FileManager.default.fileExists(atPath: URL(fileURLWithPath: folder).appendingPathComponent("bagit.txt").path) {
            throw ValidationError("--reuse \(folder): not an unpacked bag (it holds no bagit.txt)")
        }
        for line in header where Self.header(line) == nil {
            throw ValidationError("--header \(line): give it as 'Name: value'")
        }
    }

    static func header(_ line: String) -> (String, String)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { return nil }
        return (name, line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }

    func run() async throws {
        let console = Console(json: json)
        let result: UpdateResult
        do {
            var options = UpdateOptions(channel: URL(string: url)!, trustedKeys: try publicKeys.map(Self.key))
            options.allowRollback = allowRollback
            options.localBundles = reuse.map { URL(fileURLWithPath: $0).standardizedFileURL }
            options.clockGrace = ChannelDuration.parse(grace)!
            options.headers = Dictionary(header.compactMap(Self.header), uniquingKeysWith: { _, last in last })
            let link = URL(fileURLWithPath: into).standardizedFileURL
            try Self.checkLink(link)
            let store = BundleStore(folder: URL(fileURLWithPath: link.path + ".mcpack"), link: link)
            let reporter = PullProgress(console: console)
            result = try await BundleUpdater(store: store, options: options).update { reporter.report($0) }
        } catch let error as UpdateError {
            throw failed(error, console: console)
        } catch {
            throw console.fail(error)
        }
        if json {
            console.emit(Pulled(result, into: into))
        } else if result.outcome == .current {
            console.out("current: \(into) holds \(result.version), the channel's newest (index sequence \(result.sequence))")
        } else if result.outcome == .heldBack {
            console.out("held back: \(into) holds \(result.version), rolled back to from \(result.heldBack ?? "?"), the channel's newest; "
                + "it is not installed again until a newer version is published (or --allow-rollback)")
        } else {
            console.out("installed \(result.version) into \(into)\(result.previousVersion.map { " (was \($0))" } ?? ""): "
                + "\(result.filesFetched) file\(result.filesFetched == 1 ? "" : "s") fetched (\(formatBytes(Int(result.bytesFetched)))), \(result.filesReused) reused")
        }
    }

    private static func key(_ path: String) throws -> ChannelKey {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw FileError(path: path, message: "cannot be read (a minisign public key, as minisign -G writes it)")
        }
        do { return try ChannelKey(minisignPublicKey: text) } catch {
            throw FileError(path: path, message: "not a minisign public key (one line of base64 beginning RW, 56 characters)")
        }
    }

    /// DIR is a link this command made, or nothing yet (an empty folder is
    /// taken as nothing): a folder of the user's is never replaced.
    private static func checkLink(_ link: URL) throws {
        let manager = FileManager.default
        if (try? manager.destinationOfSymbolicLink(atPath: link.path)) != nil { return }
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: link.path, isDirectory: &isFolder) else { return }
        if isFolder.boolValue, (try? manager.contentsOfDirectory(atPath: link.path))?.isEmpty == true {
            try manager.removeItem(at: link)
            return
        }
        throw FileError(path: link.path, message: "is a \(isFolder.boolValue ? "folder" : "file") mcpack pull did not make; give --into a new path (it becomes a link to the current version)")
    }

    private func failed(_ error: UpdateError, console: Console) -> ExitCode {
        if console.json {
            console.emit(PullFailure(kind: error.kind, problems: error.problems))
        } else {
            for problem in error.problems { console.err("\(console.paint("error:", "1;31")) \(problem)") }
            console.err(error.kind == .refused ? "refused: \(into) is unchanged." : "could not update: \(into) is unchanged; try again.")
        }
        return ExitCode(error.kind == .refused ? 1 : 2)
    }
}

/// Progress on standard error, when a person watches: a line when the
/// files to fetch are known, and every tenth of them after.
private final class PullProgress: @unchecked Sendable {
    private let console: Console
    private let lock = NSLock()
    private var shownTenths = -1
    private let show: Bool

    init(console: Console) {
        self.console = console
        show = !console.json && isatty(STDERR_FILENO) == 1
    }

    func report(_ progress: UpdateProgress) {
        guard show, progress.phase == .fetching, progress.filesToFetch > 0 else { return }
        let tenths = progress.filesFetched * 10 / progress.filesToFetch
        let line: String? = lock.withLock {
            guard tenths > shownTenths else { return nil }
            shownTenths = tenths
            return "fetching: \(progress.filesFetched) of \(progress.filesToFetch) files, \(formatBytes(Int(progress.bytesFetched))) of \(formatBytes(Int(progress.bytesToFetch)))"
        }
        if let line { console.err(line) }
    }
}

/// `--json`: what was installed and what it cost.
private struct Pulled: Encodable {
    var ok = true
    var outcome: String
    var version: String
    var previousVersion: String?
    var into: String
    var folder: String
    var sequence: Int
    var bytesFetched: Int64
    var filesFetched: Int
    var filesReused: Int
    var heldBack: String?

    init(_ result: UpdateResult, into: String) {
        outcome = result.outcome.rawValue
        version = result.version
        previousVersion = result.previousVersion
        self.into = into
        folder = result.folder
        sequence = result.sequence
        bytesFetched = result.bytesFetched
        filesFetched = result.filesFetched
        filesReused = result.filesReused
        heldBack = result.heldBack
    }
}

private struct PullFailure: Encodable {
    var ok = false
    var kind: UpdateError.Kind
    var problems: [String]
}
