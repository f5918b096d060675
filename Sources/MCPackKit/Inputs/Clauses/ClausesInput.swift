import Foundation
import MCPackSchema

/// clauses.toml becomes data/clauses.json: the categories and the clauses,
/// each rectangle in master pixels and as fractions of the master size, in
/// the order of the file.
enum ClausesInput: BundleInput {
    static let table = "clauses"
    static let component = "clauses"
    static let payload = ["clauses.json"]
    static let diffFiles = [ClausesDocument.path]

    struct Settings: Sendable, Equatable {
        var file: String
    }

    struct Plan: InputPlan {
        var file: ClauseFile
        var master: MasterSize
        var source: SourceFile
        var sources: [SourceRef] { [.read(source)] }
    }

    struct Record: Codable, Sendable, Equatable {
        var file: String
        var sha256: String
        var clauses: Int
        var categories: Int
    }

    static func settings(_ t: TableReader, paths: ProjectPaths) -> Settings? {
        let file = paths.check(t, "file", kind: .file)
        t.rejectUnknownKeys(known: ["file"])
        return file.map(Settings.init)
    }

    static func check(_ settings: Settings, needs master: MasterSize?, in env: CheckEnvironment) -> Checked<Plan> {
        let path = settings.file
        let errorsBefore = env.sink.errorCount
        guard let source = TOMLSource.load(env.project.url(path), displayPath: env.project.display(path), sink: env.sink)
        else { return .failed }
        if source.root.isEmpty {
            // One clear message, not "missing" twice and every icon unused.
            env.problem(path, "holds no [[category]] or [[clause]] tables (it is empty or only comments); declare the menu's categories and at least one clause")
            return .failed
        }
        let file = ClauseFile.read(source, master: master)
        let facts: [any InputFact] = [ClauseList(file: file, path: path)]
        guard env.sink.errorCount == errorsBefore, let master else { return Checked(plan: nil, facts: facts) }
        if file.clauses.isEmpty {
            env.problem(path, "has no [[clause]] tables; a bundle needs at least one clause")
            return Checked(plan: nil, facts: facts)
        }
        let plan = Plan(file: file, master: master, source: SourceFile(path: path, sha256: source.sha256, bytes: source.byteCount))
        return Checked(plan: plan, facts: facts)
    }

    static func make(_ plan: Plan, in env: MakeEnvironment) throws -> Made<Record> {
        let document = ClausesDocument(master: PixelSize(width: plan.master.width, height: plan.master.height),
                                       categories: plan.file.categories, clauses: plan.file.clauses)
        return Made(
            payload: [PayloadFile(path: "clauses.json", bytes: JSON.encode(document))],
            record: Record(file: plan.source.path, sha256: plan.source.sha256,
                           clauses: plan.file.clauses.count, categories: plan.file.categories.count))
    }
}
