import MCPackBag
import Foundation
import MCPackSchema

extension PreviewInput {
    /// The page and its script and style are read for their references.
    package static func verifyKeeps(_ path: String) -> BagReader.Keep.Bytes { .whole }

    /// The page refers only to files in the bag, shows every icon and
    /// launch preview the bag holds, and its data (the clauses and
    /// categories it draws, the pyramid it reads) agrees with clauses.json,
    /// categories.json and bundle.json.
    package static func verify(_ record: Record?, in bag: BagView) -> [Problem] {
        let path = "data/\(page)"
        guard let file = bag.files[path] else {
            // Left out on purpose ([preview] include = false), or a bag made before previews.
            return record == nil ? [] : [Problem(path, "preview-page", "bundle.json lists the preview page, but it is not in the bag")]
        }
        guard let bytes = file.data else { return [] }
        let html = String(decoding: bytes, as: UTF8.self)
        var problems: [Problem] = []
        for name in record?.files ?? [] where bag.files["data/\(name)"] == nil {
            problems.append(Problem("data/\(name)", "preview-page", "bundle.json lists this file of the preview, but it is not in the bag"))
        }

        var references = PageReferences.find(in: html).map { (from: path, url: $0) }
        for style in bag.folders.files(under: "data/preview/").filter({ $0.hasSuffix(".css") }).sorted() {
            guard let data = bag.files[style]?.data else { continue }
            references += PageReferences.find(inStyle: String(decoding: data, as: UTF8.self)).map { (from: style, url: $0) }
        }
        guard let json = PreviewData.read(fromPage: html) else {
            problems.append(Problem(path, "preview-page", "holds no <script type=\"application/json\" id=\"\(PreviewData.elementID)\"> with the data it draws"))
            return problems + check(references, in: bag)
        }
        let data: PreviewData
        do {
            data = try JSONDecoder().decode(PreviewData.self, from: json)
        } catch {
            problems.append(Problem(path, "preview-data", "its data is not in the shape mcpack writes: \(JSON.describe(error))"))
            return problems + check(references, in: bag)
        }
        references.append((path, data.document.descriptor))
        references += data.categories.compactMap { category in category.icon.map { (path, $0) } }
        problems += check(references, in: bag)
        problems += compare(data, bag, page: path)
        problems += shown(references.map(\.url), bag, page: path)
        return problems
    }

    /// Each reference resolves to a file in the bag.
    private static func check(_ references: [(from: String, url: String)], in bag: BagView) -> [Problem] {
        var problems: [Problem] = []
        var seen = Set<String>()
        for (from, url) in references where seen.insert("\(from) \(url)").inserted {
            switch PageReferences.resolve(url, from: from) {
            case .inPage:
                continue
            case .outside(let why):
                problems.append(Problem(from, "preview-files", "refers to \(url), \(why); the page must load nothing from outside the bag"))
            case .file(let target):
                // Not reached is not missing: the files after a cut are unknown.
                if bag.files[target] == nil, bag.stoppedAt == nil {
                    problems.append(Problem(from, "preview-files", "refers to \(url) (\(target)), which is not in the bag"))
                }
            }
        }
        return problems
    }

    /// The page's clauses and categories are those of clauses.json and
    /// categories.json, in the same order; its pyramid is the document's.
    private static func compare(_ data: PreviewData, _ bag: BagView, page: String) -> [Problem] {
        var problems: [Problem] = []
        var ignored: [Problem] = []
        if let document = bag.decode(ClausesDocument.self, ClausesDocument.path, rule: "preview-data", &ignored) {
            problems += differences(data.clauses, document.clauses, id: { "clause \"\($0.id)\"" }, against: "clauses.json", page: page)
        }
        if let list = bag.decode(CategoriesDocument.self, CategoriesDocument.path, rule: "preview-data", &ignored)?.categories {
            problems += differences(data.categories.map(\.category), list, id: { "category \($0.icon) \"\($0.name)\"" }, against: "categories.json", page: page)
        }
        if let pyramid = bag.fact(PyramidLayout.self) {
            // What the page would say of the pyramid bundle.json records, by
            // the initializer the build uses: every field the viewer reads.
            let d = data.document, e = PreviewData.Document(pyramid)
            let (p, q) = (d.pyramid, e.pyramid)
            let facts = [("width", "\(p.width)", "\(q.width)"), ("height", "\(p.height)", "\(q.height)"), ("layout", p.layout, q.layout),
                         ("tile size", "\(p.tileSize)", "\(q.tileSize)"), ("overlap", "\(p.overlap)", "\(q.overlap)"),
                         ("tile extension", p.tileExtension, q.tileExtension), ("deepest level", "\(d.maxLevel)", "\(e.maxLevel)"),
                         ("descriptor", d.descriptor, e.descriptor), ("tiles folder", d.tiles, e.tiles)]
            for (name, shown, built) in facts where shown != built {
                problems.append(Problem(page, "preview-data", "the document's \(name) is \(shown) in the page but \(built) in bundle.json"))
            }
        }
        return problems
    }

    private static func differences<T: Equatable>(_ shown: [T], _ expected: [T], id: (T) -> String, against: String, page: String) -> [Problem] {
        guard shown != expected else { return [] }
        var problems: [Problem] = []
        let shownIDs = shown.map(id)
        let expectedIDs = expected.map(id)
        for missing in expectedIDs where !shownIDs.contains(missing) {
            problems.append(Problem(page, "preview-data", "does not show \(missing) of \(against)"))
        }
        for extra in shownIDs where !expectedIDs.contains(extra) {
            problems.append(Problem(page, "preview-data", "shows \(extra), which \(against) does not hold"))
        }
        for (index, item) in shown.enumerated() {
            guard let other = expected.firstIndex(where: { id($0) == id(item) }) else { continue }
            if expected[other] != item {
                problems.append(Problem(page, "preview-data", "shows \(id(item)) otherwise than \(against) holds it"))
            } else if other != index && problems.isEmpty {
                problems.append(Problem(page, "preview-data", "lists \(id(item)) in another order than \(against)"))
            }
        }
        return problems
    }

    /// Every icon of the asset catalog and every launch preview in the bag
    /// is on the page.
    private static func shown(_ urls: [String], _ bag: BagView, page: String) -> [Problem] {
        let targets = Set(urls.compactMap { url -> String? in
            if case .file(let target) = PageReferences.resolve(url, from: page) { return target }
            return nil
        })
        // Two folders, neither inside the other: no path is in both.
        let pictures = (bag.folders.files(under: "data/\(AssetCatalog.appIconSet)/") + bag.folders.files(under: "data/launch/preview/"))
            .filter { $0.hasSuffix(".png") }
        return pictures.sorted().filter { !targets.contains($0) }.map {
            Problem(page, "preview-data", "does not show \($0)")
        }
    }
}

/// The URLs a page or style sheet refers to, and where each leads.
package enum PageReferences {
    package enum Target: Equatable {
        /// A file inside the bag, by its path in the bag.
        case file(String)
        /// An anchor in the page itself, or data carried in the URL.
        case inPage
        /// Somewhere outside the bag, and why.
        case outside(String)
    }

    /// The values of every src and href attribute.
    package static func find(in html: String) -> [String] {
        matches(#"\s(?:src|href)\s*=\s*"([^"]*)""#, in: html)
    }

    /// The `url(...)` of a style sheet.
    package static func find(inStyle css: String) -> [String] {
        matches(#"url\(\s*["']?([^"')]*)["']?\s*\)"#, in: css)
    }

    private static func matches(_ pattern: String, in text: String) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { unescape(String(text[$0])) }
        }
    }

    /// The few entities a template writes in an attribute.
    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Where `url`, written in the bag's file `from`, leads.
    package static func resolve(_ url: String, from: String) -> Target {
        var text = url.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("#") { return .inPage }
        if text.lowercased().hasPrefix("data:") { return .inPage }
        if text.hasPrefix("//") { return .outside("a network address") }
        if let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/") {
            return .outside("an address with a scheme (\(text[..<colon]):)")
        }
        if text.hasPrefix("/") { return .outside("an absolute path") }
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<cut]) }
        var parts = from.split(separator: "/").dropLast().map(String.init)
        for part in text.split(separator: "/", omittingEmptySubsequences: false).map(String.init) {
            switch part {
            case ".", "": continue
            case "..":
                guard !parts.isEmpty else { return .outside("a path that leaves the bag") }
                parts.removeLast()
            default:
                parts.append(part.removingPercentEncoding ?? part)
            }
        }
        return .file(parts.joined(separator: "/"))
    }
}
