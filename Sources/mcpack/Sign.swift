import ArgumentParser
import Foundation
import MCPackKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Sign: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a detached signature beside an archive, with a minisign or an OpenSSH Ed25519 key.",
        discussion: """
            With a minisign secret key (minisign -G, with a password or -W without), \
            writes ARCHIVE.minisig, which `minisign -Vm ARCHIVE -p KEY.pub` checks: a \
            prehashed Ed25519 signature whose trusted comment names the bundle, its \
            version and the archive's SHA-256. With an OpenSSH Ed25519 private key \
            (ssh-keygen -t ed25519), writes ARCHIVE.sig in the \
            SSHSIG format, namespace "file", which `ssh-keygen -Y verify` checks. A key \
            with a passphrase (which mcpack cannot open: OpenSSL lacks OpenSSH's \
            bcrypt_pbkdf) signs through ssh-agent when the agent at SSH_AUTH_SOCK holds \
            it (ssh-add KEY); otherwise it is refused, and `ssh-keygen -Y sign -n file \
            -f KEY ARCHIVE` writes the same file.

            The password of an encrypted minisign key is read from the environment \
            variable \(PasswordSource.variable) when set (for CI), else asked on the \
            terminal without echo. Never from bundle.toml.

            Signing is deterministic: the same archive and key give the same bytes.
            """)

    @Argument(help: ArgumentHelp("The archive to sign.", valueName: "archive"))
    var archive: String

    @Option(name: .long, help: ArgumentHelp("A minisign secret key or an OpenSSH Ed25519 private key.", valueName: "file"))
    var key: String

    @Flag(name: .long, help: "Print one JSON object on standard output instead of text.")
    var json = false

    func run() async throws {
        let console = Console(json: json)
        let result: SignResult
        do {
            result = try ArchiveSigner.sign(archive: archive, keyFile: key, password: { try PasswordSource.password(for: key) })
        } catch {
            throw console.fail(error)
        }
        if json {
            console.emit(result)
        } else {
            printSigned(result, console: console)
        }
    }
}

func printSigned(_ result: SignResult, console: Console) {
    console.out("signed \((result.archive as NSString).lastPathComponent) with \(result.signer)")
    if let comment = result.trustedComment { console.out("trusted comment: \(comment)") }
    console.out(result.signature)
}

/// Where an encrypted key's password comes from: the environment (CI),
/// else the terminal with echo off. Never a file of the project.
enum PasswordSource {
    static let variable = "MCPACK_KEY_PASSWORD"

    struct Unavailable: Error, CustomStringConvertible {
        var key: String
        var message: String { "the key is encrypted and there is no terminal to ask its password on: set \(PasswordSource.variable)" }
        var description: String { "\(key): \(message)" }
    }

    static func password(for key: String) throws -> String {
        if let password = ProcessInfo.processInfo.environment[variable] { return password }
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else { throw Unavailable(key: key) }
        defer { close(tty) }
        // Echo off before the prompt shows, so nothing typed after it is echoed.
        var saved = termios()
        let isTerminal = tcgetattr(tty, &saved) == 0
        if isTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            // A signal while echo is off (Ctrl-C at the prompt) must not
            // leave the shell's terminal mute: its handler puts the saved
            // settings back, then lets the signal do what it would have.
            promptTerminal = (tty, saved)
            for number in restoringSignals { previousHandlers[number] = signal(number, restoreAndRaise) }
            tcsetattr(tty, TCSANOW, &quiet)
        }
        let prompt = "Password for \(key): "
        _ = prompt.withCString { write(tty, $0, strlen($0)) }
        defer {
            if isTerminal {
                tcsetattr(tty, TCSANOW, &saved)
                for number in restoringSignals { _ = signal(number, previousHandlers[number] ?? SIG_DFL) }
                promptTerminal = nil
            }
            _ = "\n".withCString { write(tty, $0, 1) }
        }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(tty, &byte, 1) == 1, byte != 10, byte != 13 { bytes.append(byte) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The prompt's terminal and its settings before echo went off, for the
/// signal handler (a C function: it can reach only globals). Set and read
/// on the one thread that asks for the password.
nonisolated(unsafe) private var promptTerminal: (fd: Int32, saved: termios)?
nonisolated(unsafe) private var previousHandlers: [Int32: (@convention(c) (Int32) -> Void)?] = [:]
private let restoringSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

private func restoreAndRaise(_ number: Int32) {
    // Only async-signal-safe calls here: tcsetattr, write, signal, raise.
    if var terminal = promptTerminal {
        tcsetattr(terminal.fd, TCSANOW, &terminal.saved)
        _ = write(terminal.fd, "\n", 1)
    }
    _ = signal(number, SIG_DFL)
    raise(number)
}
