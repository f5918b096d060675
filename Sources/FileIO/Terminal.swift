import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The controlling terminal, for a secret typed by a person.
public enum Terminal {
    /// Shows `prompt` on /dev/tty and reads one line with echo off; nil when
    /// the process has no terminal. Echo goes off before the prompt shows,
    /// so nothing typed after it is echoed; a signal at the prompt (Ctrl-C)
    /// puts the terminal back before it takes effect.
    public static func readSecret(prompt: String) -> String? {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else { return nil }
        defer { close(tty) }
        var saved = termios()
        let isTerminal = tcgetattr(tty, &saved) == 0
        if isTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            promptTerminal = (tty, saved)
            for number in restoringSignals { previousHandlers[number] = signal(number, restoreAndRaise) }
            tcsetattr(tty, TCSANOW, &quiet)
        }
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
/// on the one thread that asks for the secret.
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
