import Foundation

/// clauses.toml becomes data/clauses.json: the categories and the clauses,
/// each rectangle in master pixels and as fractions of the master size, in
/// the order of the file.
enum ClausesInput: BundleInput {
    static let table = "clauses"
    static let component = "clauses"
    static let payload = ["clauses.json"]
    static let diffFiles = ["data/clauses.json"]

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
        let document = ClausesDocument(plan.file, master: plan.master)
        return Made(
            payload: [PayloadFile(path: "clauses.json", bytes: JSON.encode(document))],
            record: Record(file: plan.source.path, sha256: plan.source.sha256,
                           clauses: plan.file.clauses.count, categories: plan.file.categories.count))
    }
}

/// data/clauses.json: what the app reads to draw the overlays and fill the
/// detail panel.
struct ClausesDocument: Codable, Equatable {
    struct Entry: Codable, Equatable {
        var id: String
        var title: String
        var categories: [String]
        var colour: String
        var translation: String
        var context: String
        var overlays: [Overlay]
    }

    struct Overlay: Codable, Equatable {
        /// x, y, width, height in master pixels.
        var pixels: [Int]
        /// The same as fractions of the master's width and height.
        var fraction: [Double]
    }

    struct CategoryEntry: Codable, Equatable {
        var name: String
        var icon: Int
        var filter: String?

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(icon, forKey: .icon)
            // Written as null, not left out: the app's decoder expects the key.
            try container.encode(filter, forKey: .filter)
        }
    }

    var master: MasterSize
    var categories: [CategoryEntry]
    var clauses: [Entry]

    init(_ file: ClauseFile, master: MasterSize) {
        func fraction(_ value: Int, _ of: Int) -> Double {
            // Six decimals: finer than a pixel of a 100,000 px master, and
            // the same text on every machine.
            (Double(value) / Double(of) * 1_000_000).rounded() / 1_000_000
        }
        self.master = master
        categories = file.categories.map { CategoryEntry(name: $0.name, icon: $0.icon, filter: $0.filter) }
        clauses = file.clauses.map { clause in
            Entry(id: clause.id, title: clause.title, categories: clause.categories, colour: clause.colour,
                  translation: clause.translation, context: clause.context,
                  overlays: clause.overlays.map { r in
                      Overlay(pixels: [r.x, r.y, r.width, r.height],
                              fraction: [fraction(r.x, master.width), fraction(r.y, master.height),
                                         fraction(r.width, master.width), fraction(r.height, master.height)])
                  })
        }
    }
}
