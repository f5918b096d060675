import MCPackInputs
import ArgumentParser
import Foundation
import MCPackSchema
import MCPackKit

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Make a new project from the templates, ready to fill.",
        discussion: "Writes bundle.toml, assets/clauses.toml and empty asset folders. Never overwrites a file.")

    @Argument(help: ArgumentHelp("The project folder (made if missing).", valueName: "dir"))
    var directory: String = "."

    @Flag(name: .long, help: "Print one JSON object on standard output instead of text.")
    var json = false

    @OptionGroup var templateOptions: TemplateOptions

    func run() throws {
        templateOptions.use()
        let console = Console(json: json)
        let folder = URL(fileURLWithPath: directory).standardizedFileURL
        let created: [String]
        do {
            created = try ProjectInit.create(in: folder)
        } catch {
            throw console.fail(error)
        }
        if json {
            struct Created: Encodable { var folder: String; var created: [String] }
            console.emit(Created(folder: folder.path, created: created))
            return
        }
        for path in created { console.out("created \(path)") }
        console.out("Next: put the master scan, icon, launch layers and category icons in assets/, fill in assets/clauses.toml, then run `mcpack build`.")
    }
}
