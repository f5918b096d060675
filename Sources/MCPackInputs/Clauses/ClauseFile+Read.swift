import Foundation
import MCPackSchema
import TOMLKit

extension ClauseFile {
    package static let maxOverlays = 4

    /// Reads clauses.toml; `master` is the master image's size, when known,
    /// for checking that every rectangle lies inside it. With
    /// `measuredWidth` (and a master), the rectangles were measured on a
    /// copy of the master that wide and are scaled to the master before
    /// any check, so every message and clauses.json speak of master pixels.
    /// Returns what could be read even when there are errors (they are in
    /// the sink), so the category icons can still be checked against the
    /// categories.
    package static func read(_ source: TOMLSource, master: MasterSize?, measuredWidth: Int? = nil) -> ClauseFile {
        let root = source.rootReader

        var categories: [ClauseCategory] = []
        var categoryNames: [String: Int] = [:]
        // Every name declared, also of a category with a mistake: a clause
        // tagged with it is not told the category is undeclared.
        var declaredNames = Set<String>()
        var categoriesComplete = true
        let categoryTables = root.tables("category", required: true)
        for (index, table) in categoryTables.enumerated() {
            let name = table.string("name")
            let t = name.map { table.named("category \"\($0)\"") } ?? table
            if let name {
                declaredNames.insert(name)
                if let control = firstControlCharacter(name) {
                    t.error("name", "contains a control character (\(control)); a category name must be printable text")
                }
            }
            let icon = t.int("icon", in: 1...999)
            let filter = t.choice("filter", of: ["all", "none"], required: false)
            t.rejectUnknownKeys(known: ["name", "icon", "filter"])
            guard let name, let icon else {
                categoriesComplete = false
                continue
            }
            if let first = categoryNames[name] {
                t.error("name", "category \"\(name)\" is declared twice (first as category \(first + 1))")
                continue
            }
            if let other = categories.first(where: { $0.icon == icon }) {
                t.error("icon", "icon \(icon) is already used by category \"\(other.name)\"; each category has its own icon")
            }
            categoryNames[name] = index
            categories.append(ClauseCategory(name: name, icon: icon, filter: filter))
        }

        var clauses: [Clause] = []
        var clauseIDs: [String: Int] = [:]
        for (index, table) in root.tables("clause", required: true).enumerated() {
            let id = table.string("id")
            let t = id.map { table.named("clause \"\($0)\"") } ?? table
            if let id {
                if id.isEmpty {
                    t.error("id", "a clause id must not be empty")
                } else if let control = firstControlCharacter(id) {
                    t.error("id", "contains a control character (\(control)); a clause id must be printable text")
                } else if let first = clauseIDs[id] {
                    t.error("id", "duplicate clause id \"\(id)\" (first used by clause \(first + 1)); ids must be unique")
                }
                clauseIDs[id] = clauseIDs[id] ?? index
            }
            let title = t.string("title")
            let tags = t.strings("categories")
            for tag in tags ?? [] {
                if let category = categories.first(where: { $0.name == tag }) {
                    if let filter = category.filter {
                        t.error("categories", "\"\(tag)\" is a menu filter (filter = \"\(filter)\") and tags no clause; use a content category")
                    }
                } else if !declaredNames.contains(tag) {
                    var message = "category \"\(tag)\" is not declared in a [[category]] table"
                    if let near = closestMatch(to: tag, in: categories.map(\.name)) { message += "; did you mean \"\(near)\"?" }
                    t.error("categories", message)
                }
            }
            let colour = t.string("colour")
            if let colour, colour.wholeMatch(of: #/#([0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})/#) == nil {
                t.error("colour", "\"\(colour)\" is not a colour; expected #RRGGBB or #RRGGBBAA, e.g. \"#8B1E1EB3\"")
            }
            let translation = t.string("translation")
            let context = t.string("context")
            let overlays = readOverlays(t, master: master, measuredWidth: measuredWidth)
            t.rejectUnknownKeys(known: ["id", "title", "categories", "colour", "translation", "context", "overlays"])
            if let id, let title, let tags, let colour, let translation, let context, let overlays {
                clauses.append(Clause(
                    id: id, title: title, categories: tags, colour: colour.uppercased(),
                    translation: translation, context: context, overlays: overlays))
            }
        }
        root.rejectUnknownKeys(known: ["category", "clause"])
        return ClauseFile(categories: categories, clauses: clauses, categoriesComplete: categoriesComplete)
    }

    /// A rectangle measured on a copy `measured` px wide, in pixels of a
    /// master `master` px wide: each edge scaled by the same factor and
    /// rounded half up, in integers so every machine gets the same pixels.
    /// Scaling the edges rather than the width and height keeps two
    /// rectangles that touch on the copy touching on the master.
    package static func scale(_ rect: PixelRect, from measured: Int, to master: Int) -> PixelRect {
        func edge(_ v: Int) -> Int { (2 * v * master + measured) / (2 * measured) }
        let x = edge(rect.x), y = edge(rect.y)
        return PixelRect(x: x, y: y, width: edge(rect.x + rect.width) - x, height: edge(rect.y + rect.height) - y)
    }

    private static func readOverlays(_ t: TableReader, master: MasterSize?, measuredWidth: Int?) -> [PixelRect]? {
        guard let value = t.table["overlays"] else {
            t.error("overlays", "missing; expected 1 to \(maxOverlays) rectangles [x, y, width, height] in master pixels")
            return nil
        }
        guard let array = value.array else {
            t.error("overlays", "expected an array of [x, y, width, height] rectangles, got \(TableReader.describe(value))")
            return nil
        }
        if !array.isEmpty, array.allSatisfy({ $0.type == .int }) {
            let example = array.count == 4 ? "[\(array.map { $0.debugDescription }.joined(separator: ", "))]" : "[10, 20, 300, 24]"
            t.error("overlays", "is a list of \(array.count) numbers, not of rectangles; write each rectangle in its own brackets, e.g. overlays = [\(example)]")
            return nil
        }
        if array.isEmpty || array.count > maxOverlays {
            t.error("overlays", "has \(array.count) rectangles; a clause has 1 to \(maxOverlays)")
            return nil
        }
        var rects: [PixelRect] = []
        var ok = true
        for (index, element) in array.enumerated() {
            let label = "rectangle \(index + 1)"
            guard let numbers = element.array, numbers.count == 4,
                  numbers.allSatisfy({ $0.type == .int }), case let v = numbers.map({ $0.int ?? 0 })
            else {
                t.error("overlays", "\(label): expected [x, y, width, height] as 4 integers, got \(element.debugDescription)")
                ok = false
                continue
            }
            var rect = PixelRect(x: v[0], y: v[1], width: v[2], height: v[3])
            var shown = "\(v)"
            // A number past Int32 cannot be a pixel of any copy, and scaling
            // it could overflow; unscaled, the check below reports it.
            if let measuredWidth, let master, rect.x >= 0, rect.y >= 0, rect.width > 0, rect.height > 0,
               rect.values.allSatisfy({ $0 <= Int(Int32.max) }) {
                rect = scale(rect, from: measuredWidth, to: master.width)
                shown += " (\(rect.values) on the master, measured_width = \(measuredWidth))"
            }
            if rect.width <= 0 || rect.height <= 0 {
                t.error("overlays", "\(label) \(shown): width and height must be positive")
                ok = false
            } else if rect.x < 0 || rect.y < 0 {
                t.error("overlays", "\(label) \(v): x and y must not be negative")
                ok = false
            } else if let master, rect.width > master.width - rect.x || rect.height > master.height - rect.y {
                // Compared and added without overflow: TOML's integers reach Int.max.
                let reach = { (a: Int, b: Int) in "\(Decimal(a) + Decimal(b))" }
                t.error("overlays", "\(label) \(shown) reaches (\(reach(rect.x, rect.width)), \(reach(rect.y, rect.height))), outside the \(master.width) x \(master.height) master image\(master.note)")
                ok = false
            }
            rects.append(rect)
        }
        return ok ? rects : nil
    }
}
