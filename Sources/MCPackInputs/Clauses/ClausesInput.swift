import MCPackBag
import Foundation
import MCPackSchema

/// clauses.toml becomes data/clauses.json: the categories and the clauses,
/// each rectangle in master pixels and as fractions of the master size, in
/// the order of the file. With `measured_width`, the rectangles were
/// measured on a reduced copy of the master and are scaled to it first.
package enum ClausesInput: BundleInput {
    package static let table = "clauses"
    /// A project of pictures alone (an app icon, a launch screen) has none.
    package static let required = false
    package static let component = "clauses"
    package static let payload = ["clauses.json"]
    package static let diffFiles = [ClausesDocument.path]

    package struct Settings: Sendable, Equatable {
        package var file: String
        /// The width of the copy the rectangles were measured on.
        package var measuredWidth: Int?
        /// Where bundle.toml sets it, for a message found once the master's size is known.
        package var measuredWidthAt: Diagnostic?
        /// Where bundle.toml names the file, for a message about the table as a whole.
        package var fileAt: Diagnostic?
    }

    package struct Plan: InputPlan {
        package var file: ClauseFile
        package var master: MasterSize
        package var measuredWidth: Int?
        package var source: SourceFile
        package var sources: [SourceRef] { [.read(source)] }
    }

    package struct Record: Codable, Sendable, Equatable {
        package var file: String
        package var sha256: String
        package var clauses: Int
        package var categories: Int
        /// The copy's width the rectangles were measured on; absent when
        /// they were written in master pixels.
        package var measuredWidth: Int?

        package enum CodingKeys: String, CodingKey {
            case file, sha256, clauses, categories
            case measuredWidth = "measured_width"
        }
    }

    /// Past this, no master mcpack takes is wider, and a copy is never wider than its master.
    package static let maxMeasuredWidth = 1_000_000

    package static func settings(_ t: TableReader, paths: ProjectPaths) -> Settings? {
        let file = paths.check(t, "file", kind: .file)
        let key = "measured_width"
        let measured = t.has(key) ? t.int(key, in: 1...maxMeasuredWidth) : nil
        t.rejectUnknownKeys(known: ["file", key])
        // A bad measured_width is reported; checking rectangles unscaled would only add wrong messages.
        guard let file, !t.has(key) || measured != nil else { return nil }
        return Settings(file: file, measuredWidth: measured,
                        measuredWidthAt: Diagnostic(file: t.source.displayPath, line: t.line(key), key: t.keyPath(key), message: ""),
                        fileAt: Diagnostic(file: t.source.displayPath, line: t.line("file"), key: t.keyPath("file"), message: ""))
    }

    package static func check(_ settings: Settings, needs master: MasterSize?, in env: CheckEnvironment) -> Checked<Plan> {
        let path = settings.file
        let errorsBefore = env.sink.errorCount
        // No master and nothing reported: no input of the project gives one
        // (one that failed has said why, and this would only add to it).
        if master == nil, errorsBefore == 0, var at = settings.fileAt {
            at.message = "the clauses' overlays are placed on the master image, and the project has none; add a [document] table naming it, or leave [clauses] out"
            env.sink.add(at)
            return .failed
        }
        guard let source = TOMLSource.load(env.project.url(path), displayPath: env.project.display(path), sink: env.sink)
        else { return .failed }
        if source.root.isEmpty {
            // One clear message, not "missing" twice and every icon unused.
            env.problem(path, "holds no [[category]] or [[clause]] tables (it is empty or only comments); declare the menu's categories and at least one clause")
            return .failed
        }
        var measuredWidth = settings.measuredWidth
        if let measured = measuredWidth, let master, measured > master.width, var at = settings.measuredWidthAt {
            at.message = "\(measured) is wider than the \(master.width) px master image\(master.note); it is the width of the reduced copy the overlays were measured on"
            env.sink.add(at)
            measuredWidth = nil
        }
        let file = ClauseFile.read(source, master: master, measuredWidth: measuredWidth)
        let facts: [any InputFact] = [ClauseList(file: file, path: path, measuredWidth: measuredWidth)]
        guard env.sink.errorCount == errorsBefore, let master else { return Checked(plan: nil, facts: facts) }
        if file.clauses.isEmpty {
            env.problem(path, "has no [[clause]] tables; a bundle needs at least one clause")
            return Checked(plan: nil, facts: facts)
        }
        if let warning = smallCorner(file.clauses, master: master, measuredWidth: measuredWidth) {
            env.sink.add(Diagnostic(file: env.project.display(path), message: warning, severity: .warning))
        }
        let plan = Plan(file: file, master: master, measuredWidth: measuredWidth,
                        source: SourceFile(path: path, sha256: source.sha256, bytes: source.byteCount))
        return Checked(plan: plan, facts: facts)
    }

    /// The likely mistake of rectangles measured on a reduced copy and
    /// written as if in master pixels: they all pass the inside check, and
    /// all land in the master's top-left part. Said when every rectangle
    /// lies in the top-left quarter, the master more than twice as wide as
    /// the rightmost edge and more than twice as tall as the lowest; a
    /// charter's clauses fill its sheet, so no real set of overlays does.
    package static func smallCorner(_ clauses: [Clause], master: MasterSize, measuredWidth: Int?) -> String? {
        let rects = clauses.flatMap(\.overlays)
        guard let right = rects.map({ $0.x + $0.width }).max(), let bottom = rects.map({ $0.y + $0.height }).max(),
              master.width > 2 * right, master.height > 2 * bottom else { return nil }
        let copy = measuredWidth.map { " (with measured_width = \($0))" } ?? ""
        return "every overlay\(copy) lies in the top-left quarter of the \(master.width) x \(master.height) master image, none past x \(right) or y \(bottom): were they measured on a reduced copy? If so, give that copy's width in bundle.toml, [clauses] measured_width = <its width in px>, and mcpack scales them to the master"
    }

    package static func make(_ plan: Plan, in env: MakeEnvironment) throws -> Made<Record> {
        let document = ClausesDocument(master: PixelSize(width: plan.master.width, height: plan.master.height),
                                       categories: plan.file.categories, clauses: plan.file.clauses)
        return Made(
            payload: [PayloadFile(path: "clauses.json", bytes: JSON.encode(document))],
            record: Record(file: plan.source.path, sha256: plan.source.sha256,
                           clauses: plan.file.clauses.count, categories: plan.file.categories.count,
                           measuredWidth: plan.measuredWidth))
    }
}
