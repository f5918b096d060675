import Foundation
import Imaging

/// The side menu's icons: categories/1.png ... N.png, one per declared
/// category, all PNG, square, one size, with an alpha channel. They are
/// shipped byte for byte, so a copy in the app folder can be compared.
enum CategoriesInput: BundleInput {
    static let checkMakesAll = true

    /// Larger icons are almost surely a mistake, and a PNG that claims a
    /// huge size must not be decoded.
    static let maxSide = 2048

    static func gather(_ context: GatherContext) -> Component? {
        let folder = context.project.config.categories.icons
        let url = context.project.url(folder)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
        } catch {
            context.problem(folder, "cannot list the folder")
            return nil
        }
        var numbered: [Int: String] = [:]
        var ok = true
        for name in names where !name.hasPrefix(".") {
            guard name.range(of: "^[1-9][0-9]{0,2}\\.png$", options: .regularExpression) != nil, let number = Int(name.dropLast(4)) else {
                let control = firstControlCharacter(name).map { " (its name holds a control character, \($0))" } ?? ""
                context.problem("\(folder)/\(name)", "unexpected file\(control); category icons are named 1.png, 2.png, ... N.png")
                ok = false
                continue
            }
            numbered[number] = name
        }
        let count = numbered.keys.max() ?? 0
        let gaps = (1...max(count, 1)).filter { numbered[$0] == nil }
        if numbered.isEmpty {
            context.problem(folder, "holds no category icons; expected 1.png ... N.png")
            return nil
        }
        if !gaps.isEmpty {
            context.problem(folder, "icons are not numbered 1...\(count) without gaps: missing \(gaps.map { "\($0).png" }.joined(separator: ", "))")
            ok = false
        }
        if let clauses = context.clauses {
            let declared = Set(clauses.categories.map(\.icon))
            for category in clauses.categories where numbered[category.icon] == nil {
                context.problem(folder, "category \"\(category.name)\" uses icon \(category.icon), but there is no \(category.icon).png")
                ok = false
            }
            for number in numbered.keys.sorted() where clauses.categoriesComplete && !declared.contains(number) {
                context.problem("\(folder)/\(number).png", "no [[category]] in \(context.project.config.clauses.file) uses icon \(number)")
                ok = false
            }
        }

        var payload: [PayloadFile] = []
        var sources: [SourceFile] = []
        var size: (Int, Int)?
        for number in numbered.keys.sorted() {
            let path = "\(folder)/\(number).png"
            guard let (data, source) = context.read(path) else { ok = false; continue }
            guard let side = check(data, path: path, context: context) else { ok = false; continue }
            if let size, size != side {
                context.problem(path, "is \(side.0) x \(side.1) px; the other icons are \(size.0) x \(size.1) px; all category icons must be one size")
                ok = false
            }
            size = size ?? side
            payload.append(PayloadFile(path: "categories/\(number).png", bytes: data))
            sources.append(source)
        }
        guard ok, let clauses = context.clauses, let size else { return nil }
        let list: [JSON] = clauses.categories.sorted { $0.icon < $1.icon }.map { category in
            ["number": .int(category.icon), "name": .string(category.name), "filter": category.filter.map(JSON.string) ?? .null]
        }
        payload.append(PayloadFile(path: "categories.json", bytes: JSON.encode(JSON.array(list))))
        return Component(
            name: "categories",
            payload: payload,
            sources: sources,
            record: ["folder": .string(folder), "count": .int(numbered.count), "width": .int(size.0), "height": .int(size.1)])
    }

    /// Decodes one icon fully; returns its size, or nil after saying why not.
    private static func check(_ data: Data, path: String, context: GatherContext) -> (Int, Int)? {
        if let problem = ImageFileCheck.problem(in: data) {
            context.problem(path, problem)
            return nil
        }
        let image: Image
        do {
            image = try Image(data: data)
        } catch {
            context.problem(path, "not a readable image (\(error)); expected a PNG with transparency")
            return nil
        }
        guard image.format == "png" else {
            context.problem(path, "is \(image.format ?? "not an image") data, not PNG; save it as PNG with transparency")
            return nil
        }
        guard image.width == image.height else {
            context.problem(path, "is \(image.width) x \(image.height) px; category icons must be square")
            return nil
        }
        guard image.width <= maxSide else {
            context.problem(path, "is \(image.width) x \(image.height) px; category icons must be at most \(maxSide) px")
            return nil
        }
        guard image.hasAlpha else {
            context.problem(path, "has no alpha channel; category icons need a transparent background")
            return nil
        }
        do {
            try image.decodeAll()
        } catch {
            context.problem(path, "damaged PNG: \(error)")
            return nil
        }
        return (image.width, image.height)
    }
}
