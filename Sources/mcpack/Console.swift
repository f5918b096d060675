import MCPackInputs
import ArgumentParser
import Foundation
import MCPackSchema
import MCPackKit

/// Where the commands print: people get aligned text (colour only on a
/// terminal, never with NO_COLOR); machines get one JSON object.
struct Console {
    let json: Bool
    let colour: Bool

    init(json: Bool) {
        self.json = json
        let environment = ProcessInfo.processInfo.environment
        colour = isatty(STDERR_FILENO) == 1 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }

    func out(_ text: String) { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
    func err(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

    func paint(_ text: String, _ code: String) -> String { colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

    func emit<T: Encodable>(_ value: T) {
        FileHandle.standardOutput.write(JSON.encode(value))
    }

    /// Reports an error the command could not get past and returns the exit
    /// status for it: every diagnostic, one a line, then exit 2.
    func fail(_ error: Error) -> ExitCode {
        let diagnostics: [Diagnostic]
        switch error {
        case let input as InputError: diagnostics = input.diagnostics
        case let file as FileError: diagnostics = [Diagnostic(file: file.path, message: file.message)]
        case let password as PasswordSource.Unavailable: diagnostics = [Diagnostic(file: password.key, message: password.message)]
        default: diagnostics = [Diagnostic(file: "mcpack", message: "\(error)")]
        }
        if json {
            emit(Failure(ok: false, problems: diagnostics))
        } else {
            for diagnostic in diagnostics {
                let label = diagnostic.severity == .error ? paint("error:", "1;31") : paint("warning:", "1;33")
                var text = diagnostic
                text.severity = .error  // the label above already says which
                err("\(label) \(text)")
            }
            if let input = error as? InputError {
                let count = input.diagnostics.filter { $0.severity == .error }.count
                err("\(count) problem\(count == 1 ? "" : "s") found; nothing was written.")
            }
        }
        return ExitCode(2)
    }

    struct Failure: Encodable {
        var ok: Bool
        var problems: [Diagnostic]
    }
}

/// Options every project command shares.
struct ProjectOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The project's configuration file.", valueName: "file"))
    var config: String = "bundle.toml"

    @Flag(name: .long, help: "Print one JSON object on standard output instead of text.")
    var json = false
}

/// `--templates DIR`, for the commands that render templates.
struct TemplateOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Use the templates in this folder, laid out as mcpack's Templates/ (bundle/, init/, launch/, html/, preview/), instead of those built into mcpack; a folder it lacks comes from mcpack. Overrides MCPACK_TEMPLATES.",
        valueName: "dir"))
    var templates: String?

    /// Makes the folder the one templates are read from, before any is.
    func use() {
        if let templates { TemplateFolder.chosen = URL(fileURLWithPath: templates).standardizedFileURL }
    }
}

/// Reads a limit's value. ArgumentParser's own refusal of a number names no
/// accepted value, and a limit of 0 or less, or NaN, would pass it and make
/// the check refuse everything or nothing; this refuses them all, saying
/// what it takes.
func positive<T: FixedWidthInteger & SendableMetatype>(_ kind: String, example: String) -> @Sendable (String) throws -> T {
    { text in
        guard let value = T(text), value > 0 else { throw ValidationError("expected \(kind) greater than 0, such as \(example)") }
        return value
    }
}

func positive(_ kind: String, example: String) -> @Sendable (String) throws -> Double {
    { text in
        guard let value = Double(text), value.isFinite, value > 0 else {
            throw ValidationError("expected \(kind) greater than 0, such as \(example)")
        }
        return value
    }
}
