import Foundation

extension DocumentInput {
    /// The pyramid holds every tile its .dzi implies, and no other, at the
    /// master's size as bundle.json records it.
    static func verify(_ record: Record?, in bag: BagView) -> [Problem] {
        let master = record.map { MasterSize(width: $0.width, height: $0.height) }
        var problems: [Problem] = []
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
            if let master, master != MasterSize(width: width, height: height) {
                problems.append(Problem(path, "pyramid-dzi", "describes \(width) x \(height) but bundle.json's master is \(master.width) x \(master.height)"))
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
        return problems
    }
}
