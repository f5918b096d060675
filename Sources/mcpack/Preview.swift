import ArgumentParser
import Foundation
import MCPackKit

struct Preview: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Open a bundle's preview page in the default browser.",
        discussion: """
            Every archive of a project with a document holds data/preview/index.html \
            (unless bundle.toml says [preview] include = false): the document zoomable from its own \
            tiles, the clause overlays with their text, the category filter, the app icon \
            in each appearance and the launch screens, working from the unpacked files with no server \
            and nothing loaded from outside the bag.

            With an archive (or a version, such as 1.0.0, found in the project's output \
            folder): unpacks it into a new temporary folder and opens the page there. With \
            an unpacked bag folder: opens its page where it is. With a project (a folder \
            holding bundle.toml, a bundle.toml, or nothing, for the project here): builds it \
            into a temporary folder first, leaving its output folder untouched.

            Opens the page with xdg-open on Linux and open on macOS; --no-open prints its \
            path instead. Exit 0 the page is ready, 2 it could not be made or opened.
            """)

    @Argument(help: ArgumentHelp("An archive, a version, an unpacked bag, or a project folder or bundle.toml. Omit for the project here.",
                                 valueName: "archive-or-project"))
    var target: String?

    @OptionGroup var project: ProjectOptions

    @OptionGroup var templateOptions: TemplateOptions

    @Flag(name: .customLong("no-open"), help: "Print the page's path instead of opening it.")
    var noOpen = false

    struct Output: Encodable {
        var page: String
        var bag: String
        var built: Bool
        var opened: Bool
    }

    func run() async throws {
        templateOptions.use()
        let console = Console(json: project.json)
        let result: PreviewResult
        do {
            let progress = ProgressLine(console: console)
            result = try await Previewer.prepare(target, configPath: project.config, events: { progress.show($0) })
            progress.finish()
        } catch {
            throw console.fail(error)
        }
        var opened = false
        if !noOpen {
            do {
                try Browser.open(result.page)
                opened = true
            } catch {
                throw console.fail(FileError(path: result.page, message: "\(error); open the page yourself, or pass --no-open"))
            }
        }
        if console.json {
            console.emit(Output(page: result.page, bag: result.bag, built: result.built, opened: opened))
        } else if opened {
            console.out("opened \(result.page)")
        } else {
            console.out(result.page)
        }
    }
}

/// The system's way of opening a file in the default browser.
enum Browser {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func open(_ path: String) throws {
        #if os(Linux)
        let command = "xdg-open"
        #else
        let command = "open"
        #endif
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command, path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot run \(command): \(error)")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: process.terminationStatus == 127
                ? "\(command) is not installed" : "\(command) could not open it (exit \(process.terminationStatus))")
        }
    }
}
