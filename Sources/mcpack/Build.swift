import MCPackInputs
import ArgumentParser
import Foundation
import MCPackKit

struct Build: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Check every input and write the versioned archive and its .sha256.",
        discussion: """
            Reads bundle.toml, checks every input (all problems are reported at once), \
            makes the deep-zoom tiles of the master, the app icon (with its dark and \
            tinted variants) and the launch layers, puts the icon, the launch layers \
            and the category icons in one Assets.xcassets for Xcode, \
            and writes <output>/<name>-<version>.<format> with <archive>.sha256 beside it. \
            Each input whose table bundle.toml leaves out is left out of the bundle \
            ([clauses] needs [document], [categories] needs [clauses]). \
            Every picture ships as 8-bit sRGB, upright: embedded colour profiles, CMYK, \
            16-bit depth and EXIF orientation are converted, and bundle.json records what \
            was done to each input. \
            The archive is a BagIt 1.0 bag in one top folder. The same inputs always give \
            the same bytes; set SOURCE_DATE_EPOCH or [bundle] source_date to choose the \
            time stamped on every entry.

            A rebuild does not tile again when an archive in the output folder (this \
            version's, else the project's newest) was made from the same master with the \
            same settings: its tiles are copied, each checked against that archive's \
            manifest (a damaged archive is named, left alone, and the master tiled anew). \
            Icon sizes and launch layers are kept in .mcpack-cache/ for the same reason.

            Nothing partial is ever left at the final path. If this version's archive \
            exists with the same bytes, nothing changes; with different bytes the build \
            stops (exit 2) unless --overwrite is given: bump the version instead.

            A warning (e.g. clause overlays that all lie in the master's top-left \
            quarter, as if measured on a reduced copy) is printed and the archive \
            written; with --strict it stops the build as an error does (exit 2).
            """)

    @OptionGroup var project: ProjectOptions

    @OptionGroup var templateOptions: TemplateOptions

    @Option(name: .long, help: ArgumentHelp("Write the archive here instead of bundle.toml's output folder.", valueName: "dir"))
    var output: String?

    @Flag(name: .long, help: "Replace this version's archive even if its content differs.")
    var overwrite = false

    @Flag(name: .long, help: "Treat a warning about the inputs as an error: exit 2, nothing written.")
    var strict = false

    @Option(name: .customLong("sign-key"), help: ArgumentHelp(
        "Sign the archive with this minisign key or OpenSSH key (Ed25519, RSA, ECDSA; FIDO and passphrase-protected keys through ssh-agent), as `mcpack sign` does (the key and its password are checked before building).",
        valueName: "file"))
    var signKey: String?

    func run() async throws {
        Builder.prepareProcess()
        templateOptions.use()
        let console = Console(json: project.json)
        let result: BuildResult
        var signed: SignResult?
        do {
            let key = try signKey.map { file in try ArchiveSigner.loadKey(file, password: { try PasswordSource.password(for: file) }) }
            let progress = ProgressLine(console: console)
            result = try await Builder.build(BuildOptions(
                configPath: project.config, output: output, overwrite: overwrite, strict: strict,
                events: { progress.show($0) }))
            progress.finish()
            if let key {
                do {
                    signed = try ArchiveSigner.sign(archive: result.archive, with: key)
                } catch {
                    throw FileError(path: result.archive, message: "built, but NOT signed (run `mcpack sign` on it): \(error)")
                }
            }
        } catch let exists as VersionExists {
            if console.json {
                console.emit(Console.Failure(ok: false, problems: [Diagnostic(file: exists.archive, message: exists.description)]))
            } else {
                console.err("\(console.paint("error:", "1;31")) \(exists)")
            }
            throw ExitCode(2)
        } catch {
            throw console.fail(error)
        }
        if console.json {
            console.emit(SignedBuild(result: result, signature: signed))
            return
        }
        for warning in result.warnings {
            var text = warning
            text.severity = .error  // the label says which
            console.err("\(console.paint("warning:", "1;33")) \(text)")
        }
        for name in result.removedTemporaryFiles {
            console.err("removed \(name), left by a build that did not finish")
        }
        for name in result.removedSignatures {
            console.err("removed \(name): it signed the archive this build replaced (sign the new one again)")
        }
        let verb: String
        switch result.outcome {
        case .written: verb = "built"
        case .unchanged: verb = "already built, identical:"
        case .replaced: verb = "rebuilt (replaced a different archive):"
        }
        console.out("\(verb) \(result.name) \(result.version): \(result.files) files, \(formatBytes(result.payloadBytes)) of payload, \(formatBytes(result.bytes)) archive")
        console.out("sha256 \(result.sha256)")
        console.out(result.archive)
        if let signed { printSigned(signed, console: console) }
    }
}

/// build --json: the build's object, with `signature` when it signed.
struct SignedBuild: Encodable {
    var result: BuildResult
    var signature: SignResult?

    enum CodingKeys: String, CodingKey { case signature }

    func encode(to encoder: Encoder) throws {
        try result.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(signature, forKey: .signature)
    }
}

func formatBytes(_ bytes: Int) -> String {
    if bytes < 1024 { return "\(bytes) B" }
    let units = ["KB", "MB", "GB", "TB"]
    var value = Double(bytes) / 1024
    var unit = 0
    while value >= 1024 && unit < units.count - 1 {
        value /= 1024
        unit += 1
    }
    return String(format: "%.1f %@", value, units[unit])
}

/// One self-rewriting line on stderr while tiling, only on a terminal and
/// never with --json; notes always go to stderr as their own lines.
final class ProgressLine: @unchecked Sendable {
    private let console: Console
    private let live: Bool
    private let lock = NSLock()
    private var shown = false
    private var lastPercent = -1

    init(console: Console) {
        self.console = console
        live = !console.json && isatty(STDERR_FILENO) == 1
    }

    func show(_ event: BuildEvent) {
        lock.withLock {
            switch event {
            case .note(let text):
                clear()
                console.err(text)
            case .progress(let task, let unit, let percent, let secondsLeft, let total, let elapsed):
                guard live, percent != lastPercent else { return }
                lastPercent = percent
                let done = total * percent / 100
                let rate = elapsed > 0 ? Int(Double(done) / elapsed) : 0
                let text = "\(task): \(percent)%, about \(done) of \(total) \(unit), \(rate) \(unit)/s, \(secondsLeft) s left"
                FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
                shown = true
            }
        }
    }

    func finish() { lock.withLock { clear() } }

    private func clear() {
        if shown {
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
            shown = false
        }
    }
}
