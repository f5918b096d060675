import ArgumentParser
import Foundation
import MCPackKit

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Say what changed between two versions, component by component.",
        discussion: """
            OLD and NEW are archives, unpacked bags, or versions (1.2.0 or v1.2.0) found in \
            the output folder of the bundle.toml in use. Compares the manifests and the data \
            files, without decoding images: clauses (added, removed, and for a changed one \
            which fields, with a word-level diff of texts and the old and new rectangles), \
            categories, the document (settings, and tiles added, removed and changed per \
            level, or per scale factor for a IIIF pyramid, as counts), the IIIF manifest, \
            the app icon (each appearance by name), launch layers, the preview page, other \
            files, and metadata (bag-info.txt, \
            bundle.json, the inputs' hashes). With --pixels it also decodes what changed in \
            bytes and says how: of a Deep Zoom document's changed tiles, per level, those that \
            changed visibly (an 8 x 8 px block's mean moved by more than 6 of 255; saving \
            a JPEG again moves it less) and the regions they form, leading the summary; \
            of icons, launch layers and category icons, their size in pixels or the share \
            of pixels changed (0% when only the bytes differ).

            --html FILE writes one self-contained page (implies --pixels): the document \
            before and after with its visibly changed areas marked, each area at full size \
            before and after; moved clause overlays drawn on the document; every changed \
            picture before and after with its size and a difference image.

            Exit 0 identical, 1 different, 2 trouble (missing or unreadable input, unknown \
            version: the versions found are listed).
            """)

    @Argument(help: ArgumentHelp("The older archive, bag folder or version.", valueName: "old"))
    var old: String

    @Argument(help: ArgumentHelp("The newer archive, bag folder or version.", valueName: "new"))
    var new: String

    @OptionGroup var project: ProjectOptions

    @OptionGroup var templateOptions: TemplateOptions

    @Flag(help: "Print only the one-line summary.")
    var stat = false

    @Flag(help: "Verify both first (fixity and safety); refuse to compare a damaged one.")
    var verify = false

    @Flag(help: "Decode what changed: which tiles changed visibly, how icons, launch layers and category icons changed.")
    var pixels = false

    @Option(help: ArgumentHelp("Also write a self-contained page for the client: where the document changed, every changed picture before and after.", valueName: "file"))
    var html: String?

    func run() throws {
        templateOptions.use()
        let console = Console(json: project.json)
        let report: DiffReport
        do {
            let a = try DiffTarget.resolve(old, configPath: project.config)
            let b = try DiffTarget.resolve(new, configPath: project.config)
            if verify {
                for path in [a, b] {
                    let checked = try Verifier.verify(path)
                    if !checked.ok {
                        let first = checked.problems.first { $0.severity == .error }.map { ": \($0)" } ?? ""
                        throw FileError(path: path, message: "does not verify (\(checked.problems.count) problems\(first)); run `mcpack verify \(path)`")
                    }
                }
            }
            // The page shows the pictures, so it needs them decoded.
            report = try Differ.diff(a, b, pixels: pixels || html != nil)
            if let html {
                try HTMLReports.write(HTMLReports.diff(report, old: a, new: b), to: html)
            }
        } catch {
            throw console.fail(error)
        }
        if console.json {
            console.emit(report)
        } else {
            console.out(report.summary)
            if !stat { printGroups(report, console) }
            if let html { console.out("wrote \(html)") }
        }
        if !report.identical { throw ExitCode(1) }
    }

    private func printGroups(_ report: DiffReport, _ console: Console) {
        var component = ""
        for change in report.changes {
            if change.component != component {
                component = change.component
                console.out(console.paint(component, "1"))
            }
            let mark = change.kind == "added" ? console.paint("+", "32") : change.kind == "removed" ? console.paint("-", "31") : console.paint("~", "33")
            var subject = [change.clause.map { "clause \($0)" }, change.category.map { "category \($0)" }, change.field, change.path]
                .compactMap { $0 }.joined(separator: " ")
            if subject.isEmpty { subject = change.kind }
            var line = "  \(mark) \(subject)"
            if let words = change.words {
                line += ": " + words.map { segment in
                    switch segment.kind {
                    case .kept, .elided: return segment.text
                    case .removed: return console.paint("[-" + segment.text + "-]", "31")
                    case .inserted: return console.paint("{+" + segment.text + "+}", "32")
                    }
                }.joined(separator: " ")
            } else {
                if change.old != nil || change.new != nil {
                    line += ": \(change.old ?? "(none)") -> \(change.new ?? "(none)")"
                }
                if let detail = change.detail { line += " (\(detail))" }
            }
            console.out(line)
        }
    }
}
