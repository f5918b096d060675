import MCPackInputs
import ArgumentParser
import Foundation
import MCPackKit

struct Publish: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Add an archive's version to an update channel: a folder any static web server can serve.",
        discussion: """
            The channel (--channel DIR) is a plain folder: index.json, its signature \
            index.json.minisig, and objects/, which holds every file of every version \
            once, named by its SHA-256 (a tile unchanged across versions is stored once), \
            and each version's file list. Serve DIR as it is with nginx or any static \
            host, or upload it to an object store: objects/ first, then \
            index.json.minisig, then index.json, never cached (docs/channel.md).

            ARCHIVE is verified first, as `mcpack verify` does: one that does not verify \
            is refused with every problem listed. Its files are then read once, each \
            checked against the bag's manifests, and the objects the channel lacks are \
            written (flushed, then renamed into place; an object is never rewritten, and \
            one whose bytes differ from its name is a damaged channel, refused). Then the \
            new index, signed, replaces the old: signature first, index last, each by an \
            atomic rename, so an index is never there before its signature. A version \
            already in the channel with the same files is nothing to do (exit 0; objects \
            of it the channel lost are written again); with other files it is refused: \
            a published version never changes.

            The index is signed with a minisign secret key (--sign-key, the key `mcpack \
            sign` takes; an encrypted one's password from \(PasswordSource.variable) or \
            the terminal) in minisign's legacy form, Ed25519 over the index's own bytes, \
            which `minisign -Vm DIR/index.json -p KEY.pub` checks and the app checks with \
            CryptoKit alone. Its trusted comment names the channel, the index's sequence \
            (one more at every change, so a reader refuses an older index) and when it \
            expires (--expires, default 30d): a kiosk refuses an expired index, so renew \
            it (--renew) before then if nothing new is published. Every later change must \
            be signed with the same key.

            One publisher at a time: DIR/.lock is held while the channel changes, and a \
            second publisher waits for it. A publisher killed before the switch leaves \
            the old index valid (its objects unnamed, reused by the next publish or \
            removed by --prune); killed between the two renames, it leaves the new \
            signature beside the old index, which readers refuse (keeping the version \
            they have) until the next publish, prune or renew finishes the switch.

            Exit status: 0 done (or nothing to do), 1 refused (an archive that does not \
            verify, a damaged channel, a changed version), 2 could not (bad arguments, an \
            unreadable key or wrong password, a disk error).
            """)

    @Argument(help: ArgumentHelp("The archive to publish (zip, tar.gz, tar.zst, or an unpacked bag folder). Omit with --prune or --renew alone.", valueName: "archive"))
    var archive: String?

    @Option(name: .long, help: ArgumentHelp("The channel's folder; made on the first publish.", valueName: "dir"))
    var channel: String

    @Option(name: .customLong("sign-key"), help: ArgumentHelp("The minisign secret key the index is signed with (minisign -G; encrypted or not).", valueName: "file"))
    var signKey: String

    @Option(name: .long, help: ArgumentHelp("How long the new index is valid: minutes, hours, days or weeks, such as 90m, 12h, 30d, 2w.", valueName: "duration"))
    var expires: String = "30d"

    @Option(name: .long, help: ArgumentHelp("Keep only the KEEP newest versions: the index drops the others first, then their objects that no kept version shares are removed. With ARCHIVE, after adding it.", valueName: "keep"))
    var prune: Int?

    @Flag(name: .long, help: "Sign the index again with a new expiry and the next sequence; nothing else changes.")
    var renew = false

    @Flag(name: .long, help: "Print one JSON object on standard output instead of text.")
    var json = false

    func validate() throws {
        guard ChannelDuration.parse(expires) != nil else {
            throw ValidationError("--expires \(expires): give a whole number of minutes, hours, days or weeks, such as 90m, 12h, 30d or 2w (at most ten years)")
        }
        if let prune, prune < 1 { throw ValidationError("--prune \(prune): keep at least one version") }
        if renew && (archive != nil || prune != nil) { throw ValidationError("--renew re-signs the index alone: give it without an archive or --prune (they re-sign anyway)") }
        if archive == nil && prune == nil && !renew { throw ValidationError("give an archive to publish, --prune KEEP or --renew") }
    }

    func run() async throws {
        let console = Console(json: json)
        let action: PublishOptions.Action = archive.map { .publish(archive: $0, prune: prune) } ?? (renew ? .renew : .prune(keep: prune!))
        let result: PublishResult
        do {
            let key = try Publisher.loadKey(signKey, password: { try PasswordSource.password(for: signKey) })
            let options = PublishOptions(channel: channel, action: action, lifetime: ChannelDuration.parse(expires)!) { event in
                switch event {
                case .waiting(let lock, let holder):
                    console.err("waiting for \(lock): another mcpack publish\(holder.map { " (pid \($0))" } ?? "") is changing this channel")
                case .warning(let text):
                    console.err("\(console.paint("warning:", "1;33")) \(text)")
                case .note(let text):
                    console.err("note: \(text)")
                }
            }
            result = try Publisher.run(options, key: key)
        } catch let refusal as PublishRefusal {
            throw refused(refusal, console: console)
        } catch {
            throw console.fail(error)
        }
        if json {
            console.emit(result)
        } else {
            printPublished(result, console: console)
        }
    }

    private func refused(_ refusal: PublishRefusal, console: Console) -> ExitCode {
        if console.json {
            console.emit(Refused(problems: refusal.problems))
        } else {
            for problem in refusal.problems {
                console.err("\(console.paint(problem.severity == .error ? "error:" : "warning:", problem.severity == .error ? "1;31" : "1;33")) \(problem)")
            }
            console.err("refused: \(channel) is unchanged.")
        }
        return ExitCode(1)
    }
}

/// `--json` of a refusal: the problems as `mcpack verify --json` gives them.
private struct Refused: Encodable {
    var ok = false
    var problems: [Problem]
}

private func printPublished(_ result: PublishResult, console: Console) {
    switch result.outcome {
    case .published:
        console.out("published \(result.version ?? "?") to \(result.channel): \(result.objectsWritten) object\(result.objectsWritten == 1 ? "" : "s") written (\(formatBytes(Int(result.bytesWritten)))), \(result.objectsReused) already there")
    case .unchanged:
        let written = result.objectsWritten == 0 ? "nothing written"
            : "\(result.objectsWritten) lost object\(result.objectsWritten == 1 ? "" : "s") written again (\(formatBytes(Int(result.bytesWritten))))"
        console.out("unchanged: \(result.channel) already holds \(result.version.map { "\($0) with the same files" } ?? "these versions"); \(written)")
    case .pruned, .renewed:
        console.out("\(result.outcome.rawValue) \(result.channel)")
    }
    if !result.pruned.isEmpty || result.objectsRemoved > 0 {
        console.out("pruned \(result.pruned.isEmpty ? "no version" : result.pruned.joined(separator: ", ")): \(result.objectsRemoved) object\(result.objectsRemoved == 1 ? "" : "s") removed (\(formatBytes(Int(result.bytesRemoved))))")
    }
    console.out("index: sequence \(result.sequence), expires \(result.expires), versions \(result.versions.joined(separator: ", "))")
}
