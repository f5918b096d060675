import Foundation

/// clauses.toml becomes data/clauses.json: the categories and the clauses,
/// each rectangle in master pixels and as fractions of the master size, in
/// the order of the file.
enum ClausesInput: BundleInput {
    static let checkMakesAll = true

    static func gather(_ context: GatherContext) -> Component? {
        let path = context.project.config.clauses.file
        let errorsBefore = context.sink.errorCount
        guard let source = TOMLSource.load(context.project.url(path), displayPath: context.project.display(path), sink: context.sink)
        else { return nil }
        if source.root.isEmpty {
            // One clear message, not "missing" twice and every icon unused.
            context.problem(path, "holds no [[category]] or [[clause]] tables (it is empty or only comments); declare the menu's categories and at least one clause")
            return nil
        }
        let file = ClauseFile.read(source, master: context.master)
        context.clauses = file
        guard context.sink.errorCount == errorsBefore, let master = context.master else { return nil }
        if file.clauses.isEmpty {
            context.problem(path, "has no [[clause]] tables; a bundle needs at least one clause")
            return nil
        }
        let json = clausesJSON(file, master: master)
        return Component(
            name: "clauses",
            payload: [PayloadFile(path: "clauses.json", bytes: JSON.encode(json))],
            sources: [SourceFile(path: path, sha256: source.sha256, bytes: source.byteCount)],
            record: [
                "file": .string(path),
                "sha256": .string(source.sha256),
                "clauses": .int(file.clauses.count),
                "categories": .int(file.categories.count),
            ])
    }

    static func clausesJSON(_ file: ClauseFile, master: (width: Int, height: Int)) -> JSON {
        func fraction(_ value: Int, _ of: Int) -> JSON {
            // Six decimals: finer than a pixel of a 100,000 px master, and
            // the same text on every machine.
            .double((Double(value) / Double(of) * 1_000_000).rounded() / 1_000_000)
        }
        let categories: [JSON] = file.categories.map(categoryJSON)
        let clauses: [JSON] = file.clauses.map { clause in
            [
                "id": .string(clause.id),
                "title": .string(clause.title),
                "categories": .array(clause.categories.map(JSON.string)),
                "colour": .string(clause.colour),
                "translation": .string(clause.translation),
                "context": .string(clause.context),
                "overlays": .array(clause.overlays.map { r in
                    [
                        "pixels": [.int(r.x), .int(r.y), .int(r.width), .int(r.height)],
                        "fraction": [fraction(r.x, master.width), fraction(r.y, master.height),
                                     fraction(r.width, master.width), fraction(r.height, master.height)],
                    ]
                }),
            ]
        }
        return [
            "master": ["width": .int(master.width), "height": .int(master.height)],
            "categories": .array(categories),
            "clauses": .array(clauses),
        ]
    }

    static func categoryJSON(_ category: Category) -> JSON {
        ["name": .string(category.name), "icon": .int(category.icon), "filter": category.filter.map(JSON.string) ?? .null]
    }
}
