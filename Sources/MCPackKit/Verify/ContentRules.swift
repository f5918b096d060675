import Foundation
import Imaging

/// Rules for bags mcpack made (those holding data/bundle.json): the
/// pyramid, the icons, the categories and the clauses agree with each other.
/// Each rule has a stable short name.
enum ContentRules {
    static func check(_ bag: BagContents) -> [Problem] {
        guard bag.files["data/bundle.json"] != nil else { return [] }
        var problems: [Problem] = []
        let bundle = json("data/bundle.json", bag, rule: "bundle-json", &problems) as? [String: Any]
        if let bundle, bundle["bundle"] as? [String: Any] == nil || bundle["components"] as? [String: Any] == nil {
            problems.append(Problem("data/bundle.json", "bundle-json", "has no \"bundle\" or \"components\" object"))
        }
        let document = (bundle?["components"] as? [String: Any])?["document"] as? [String: Any]
        var master: (Int, Int)?
        if let width = document?["width"] as? Int, let height = document?["height"] as? Int { master = (width, height) }

        if bag.files["data/clauses.json"] != nil {
            clauses(bag, master: master, &problems)
        }
        pyramid(bag, master: master, &problems)
        icons(bag, &problems)
        categories(bag, &problems)
        return problems
    }

    private static func json(_ path: String, _ bag: BagContents, rule: String, _ problems: inout [Problem]) -> Any? {
        guard let data = bag.files[path]?.data else {
            if let file = bag.files[path], !file.damaged { problems.append(Problem(path, rule, "too large to check")) }
            return nil
        }
        do {
            return try JSONSerialization.jsonObject(with: data)
        } catch {
            problems.append(Problem(path, rule, "not well-formed JSON"))
            return nil
        }
    }

    /// Every clause rectangle lies inside the master.
    private static func clauses(_ bag: BagContents, master: (Int, Int)?, _ problems: inout [Problem]) {
        let path = "data/clauses.json"
        guard let root = json(path, bag, rule: "clauses-json", &problems) as? [String: Any] else { return }
        guard let size = root["master"] as? [String: Any], let width = size["width"] as? Int, let height = size["height"] as? Int,
              let clauses = root["clauses"] as? [[String: Any]], root["categories"] is [Any]
        else {
            problems.append(Problem(path, "clauses-json", "lacks master size, categories or clauses"))
            return
        }
        if let master, master != (width, height) {
            problems.append(Problem(path, "clauses-json", "master is \(width) x \(height) here but \(master.0) x \(master.1) in bundle.json"))
        }
        var ids = Set<String>()
        for clause in clauses {
            let id = clause["id"] as? String ?? "?"
            if !ids.insert(id).inserted {
                problems.append(Problem(path, "clauses-json", "clause \"\(id)\" appears twice"))
            }
            for overlay in clause["overlays"] as? [[String: Any]] ?? [] {
                guard let r = overlay["pixels"] as? [Int], r.count == 4 else {
                    problems.append(Problem(path, "clauses-json", "clause \"\(id)\": an overlay without [x, y, width, height] pixels"))
                    continue
                }
                if r[2] <= 0 || r[3] <= 0 || r[0] < 0 || r[1] < 0 || r[0] + r[2] > width || r[1] + r[3] > height {
                    problems.append(Problem(path, "overlays-inside", "clause \"\(id)\": rectangle \(r) is not inside the \(width) x \(height) master"))
                }
            }
        }
    }

    /// The pyramid holds every tile its .dzi implies, and no other.
    private static func pyramid(_ bag: BagContents, master: (Int, Int)?, _ problems: inout [Problem]) {
        let descriptors = bag.files.keys.filter { $0.hasPrefix("data/document/") && $0.hasSuffix(".dzi") }.sorted()
        for path in descriptors {
            guard let data = bag.files[path]?.data, let text = String(data: data, encoding: .utf8) else { continue }
            func attribute(_ name: String) -> String? {
                guard let range = text.range(of: "\(name)=\"([^\"]*)\"", options: .regularExpression) else { return nil }
                return String(text[range].dropFirst(name.count + 2).dropLast())
            }
            guard let tileSize = attribute("TileSize").flatMap(Int.init), let overlap = attribute("Overlap").flatMap(Int.init),
                  let format = attribute("Format"), let width = attribute("Width").flatMap(Int.init),
                  let height = attribute("Height").flatMap(Int.init), tileSize > 0, width > 0, height > 0
            else {
                problems.append(Problem(path, "pyramid-dzi", "not a Deep Zoom descriptor with TileSize, Overlap, Format, Width and Height"))
                continue
            }
            if let master, master != (width, height) {
                problems.append(Problem(path, "pyramid-dzi", "describes \(width) x \(height) but bundle.json's master is \(master.0) x \(master.1)"))
            }
            let geometry = DeepZoomGeometry(width: width, height: height, tileSize: tileSize, overlap: overlap)
            let folder = String(path.dropLast(4)) + "_files/"
            var expected = Set<String>()
            for level in 0...geometry.maxLevel {
                let tiles = geometry.tiles(ofLevel: level)
                for column in 0..<tiles.columns {
                    for row in 0..<tiles.rows { expected.insert("\(folder)\(level)/\(column)_\(row).\(format)") }
                }
            }
            let present = Set(bag.files.keys.filter { $0.hasPrefix(folder) })
            let missing = expected.subtracting(present).sorted()
            if let stoppedAt = bag.stoppedAt, let first = missing.first {
                problems.append(Problem(path, "pyramid-complete", "\(missing.count) tiles it implies were not reached: reading stopped \(stoppedAt) (first: \(first))"))
            } else {
                for tile in missing { problems.append(Problem(tile, "pyramid-complete", "a tile the .dzi implies is missing")) }
            }
            for extra in present.subtracting(expected).sorted() {
                problems.append(Problem(extra, "pyramid-complete", "not a tile of the \(width) x \(height) pyramid the .dzi describes"))
            }
        }
    }

    /// Contents.json names only files that exist, with the sizes it claims.
    private static func icons(_ bag: BagContents, _ problems: inout [Problem]) {
        let path = "data/icons/AppIcon.appiconset/Contents.json"
        guard bag.files[path] != nil else { return }
        guard let root = json(path, bag, rule: "icons-contents", &problems) as? [String: Any],
              let images = root["images"] as? [[String: Any]] else {
            problems.append(Problem(path, "icons-contents", "has no \"images\" list"))
            return
        }
        var named = Set<String>()
        for image in images {
            guard let filename = image["filename"] as? String, let size = image["size"] as? String,
                  let scale = image["scale"] as? String else { continue }
            let file = "data/icons/AppIcon.appiconset/\(filename)"
            named.insert(file)
            guard let entry = bag.files[file] else {
                problems.append(Problem(path, "icons-contents", "names \(filename), which is not in the bag"))
                continue
            }
            let points = Double(size.split(separator: "x").first ?? "") ?? 0
            let factor = Double(scale.dropLast()) ?? 0
            let pixels = Int((points * factor).rounded())
            guard let data = entry.data, let decoded = try? Image(data: data) else {
                if !entry.damaged { problems.append(Problem(file, "icons-contents", "not a readable image")) }
                continue
            }
            if decoded.width != pixels || decoded.height != pixels {
                problems.append(Problem(file, "icons-contents", "is \(decoded.width) x \(decoded.height) px; Contents.json says \(size) @\(scale) = \(pixels) px"))
            }
            if image["idiom"] as? String == "ios-marketing" && decoded.hasAlpha {
                problems.append(Problem(file, "icons-contents", "the App Store icon has an alpha channel (ITMS-90717)"))
            }
        }
        for file in bag.files.keys.sorted() where file.hasPrefix("data/icons/AppIcon.appiconset/") && file.hasSuffix(".png") && !named.contains(file) {
            problems.append(Problem(file, "icons-contents", "not named in Contents.json", severity: .warning))
        }
    }

    /// categories/1.png ... N.png match categories.json.
    private static func categories(_ bag: BagContents, _ problems: inout [Problem]) {
        let path = "data/categories.json"
        guard bag.files[path] != nil else { return }
        guard let list = json(path, bag, rule: "categories-match", &problems) as? [[String: Any]] else {
            problems.append(Problem(path, "categories-match", "is not a list of categories"))
            return
        }
        let numbers = list.compactMap { $0["number"] as? Int }
        if numbers.sorted() != Array(1..<(numbers.count + 1)) || numbers.count != list.count {
            problems.append(Problem(path, "categories-match", "categories are not numbered 1...\(list.count)"))
        }
        let icons = Set(bag.files.keys.filter { $0.hasPrefix("data/categories/") && $0.hasSuffix(".png") })
        let expected = Set(numbers.map { "data/categories/\($0).png" })
        for missing in expected.subtracting(icons).sorted() {
            problems.append(Problem(missing, "categories-match", "categories.json has this icon's number, but the icon is missing"))
        }
        for extra in icons.subtracting(expected).sorted() {
            problems.append(Problem(extra, "categories-match", "no category in categories.json has this icon"))
        }
    }
}
