import ArgumentParser
import Foundation
import MCPackKit

struct DriftCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drift",
        abstract: "Compare the app folder's copies with the assets they came from.",
        discussion: """
            Reads the [[copies]] pairs of bundle.toml. Each asset and copy is in-sync (same \
            bytes), same-picture (other bytes, identical pixels: exported again, not drift), \
            drifted (the content differs: which side is newer and how much), missing (no copy \
            where a pair says one belongs) or orphan (a file in a copies folder with no asset \
            behind it). Copies under another name or in a nested folder are found by their \
            bytes or name.

            Without --fix nothing is written. --fix brings drifted and missing copies up to \
            date from the assets, each written atomically, each replaced file kept in a backup \
            folder whose path is printed; a copy newer than its asset is left alone unless \
            --prefer assets. Orphans are listed, never deleted; --remove-orphans moves them \
            into the backup folder.

            Exit 0 no drift, 1 drift or orphans found (or left after --fix), 2 trouble.
            """)

    /// CaseIterable, so that a refused value is answered with the accepted ones.
    enum Preference: String, ExpressibleByArgument, CaseIterable { case assets }

    @OptionGroup var project: ProjectOptions

    @OptionGroup var templateOptions: TemplateOptions

    @Flag(help: "Bring drifted and missing copies up to date from the assets.")
    var fix = false

    @Option(help: ArgumentHelp("With --fix, replace copies even when they are newer than their assets.", valueName: "assets"))
    var prefer: Preference?

    @Flag(name: .customLong("remove-orphans"), help: "With --fix, move orphans into the backup folder.")
    var removeOrphans = false

    @Option(help: ArgumentHelp("Also write a page with the drifted pairs side by side and where they differ.", valueName: "file"))
    var html: String?

    func validate() throws {
        if !fix && (prefer != nil || removeOrphans) {
            throw ValidationError("--prefer and --remove-orphans only apply with --fix")
        }
    }

    func run() throws {
        templateOptions.use()
        let console = Console(json: project.json)
        let report: DriftReport
        do {
            report = fix
                ? try Drift.fix(configPath: project.config, preferAssets: prefer == .assets, removeOrphans: removeOrphans)
                : try Drift.check(configPath: project.config)
            if let html {
                try HTMLReports.write(HTMLReports.drift(report, configPath: project.config), to: html)
            }
        } catch {
            throw console.fail(error)
        }
        if console.json {
            console.emit(report)
        } else if report.items.isEmpty {
            console.out("no [[copies]] pairs in \(project.config): nothing to compare")
        } else {
            let width = report.items.map { $0.status.rawValue.count }.max() ?? 0
            for item in report.items {
                let status = item.status.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
                let colour = item.isDrift ? "1;31" : (item.status == .samePicture ? "1;33" : "32")
                var line = "\(console.paint(status, colour))  \(item.copy ?? "-")"
                if let asset = item.asset { line += "  <-  \(asset)" }
                if let detail = item.detail { line += "  (\(detail))" }
                if let action = item.action { line += "  [\(action)]" }
                console.out(line)
            }
            if let backup = report.backup { console.out("replaced files kept in \(backup)") }
            if let html { console.out("wrote \(html)") }
            let drifted = report.items.filter { $0.isDrift }.count
            console.out(report.drift ? "\(drifted) of \(report.items.count) not in sync" : "no drift (\(report.items.count) files)")
        }
        if report.drift { throw ExitCode(1) }
    }
}
