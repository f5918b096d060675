import MCPackInputs
import ArgumentParser
import Foundation
import MCPackKit

/// Every command names itself (`commandName`): ArgumentParser would make
/// a name from the type's, through String(describing:), whose protocol
/// look-ups scan every conformance in the program, at each start.
struct MCPack: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcpack",
        abstract: "Package a project's assets into one versioned, checksummed, reproducible archive.",
        discussion: """
            Exit status: 0 all good, 1 problems or differences found, 2 the command \
            could not do its work (bad input, unreadable file, wrong usage).
            """,
        version: MCPackVersion.current,
        subcommands: [Build.self, Verify.self, Sign.self, Publish.self, Pull.self, Diff.self, DriftCommand.self, Preview.self, Init.self])
}

/// Runs the command line, mapping ArgumentParser's usage status (64) to 2,
/// as diff(1) does: 0 fine, 1 found something, 2 trouble.
@main
enum Main {
    static func main() async {
        MCPackProcess.prepare()
        do {
            var command = try MCPack.parseAsRoot()
            // The commands whose work is libvips's workers making or decoding
            // pictures: a build, a preview (which builds its project first),
            // a diff (which decodes the changed tiles).
            if command is Build || command is Preview || command is Diff { MCPackProcess.prepareForPictureWork() }
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            let code = MCPack.exitCode(for: error)
            if code.rawValue == 64 {
                let message = MCPack.suggestingSubcommand(MCPack.fullMessage(for: error), arguments: Array(CommandLine.arguments.dropFirst()))
                FileHandle.standardError.write(Data((message + "\n").utf8))
                exit(2)
            }
            MCPack.exit(withError: error)
        }
    }
}

extension MCPack {
    /// ArgumentParser suggests a near option but not a near subcommand:
    /// `mcpack biuld` would get only "Unexpected argument". When the first
    /// argument is no subcommand, the message's first line names the one
    /// it is closest to, if any is close.
    static func suggestingSubcommand(_ message: String, arguments: [String]) -> String {
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard let word = arguments.first, !word.hasPrefix("-"), !names.contains(word),
              let match = closestMatch(to: word, in: names) else { return message }
        let lines = message.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        return (["Error: Unknown subcommand '\(word)'. Did you mean '\(match)'?"] + lines.dropFirst()).joined(separator: "\n")
    }
}
