import MCPackSchema

/// Every file of a pyramid, relative to data/: the descriptor and each
/// tile (and for IIIF, each full image it lists), in the order the archive
/// holds them. A Deep Zoom pyramid's is the order dzsave makes them in,
/// row by row (a stream of them holds back only the tiles of a row that
/// dzsave's workers finish out of turn, `PyramidStream`): by the full-size
/// row whose saving sets each row off, the finer level first where they
/// tie, each row's tiles left to right, the descriptor last. A IIIF one's
/// is byte order.
///
/// A Deep Zoom pyramid's order is worked out from its rows: each path is
/// made when asked for, and each file's place is read from the numbers in
/// its name. So while libvips makes the tiles, at the build's peak of
/// memory, a build holds a table of the pyramid's rows rather than every
/// path and a dictionary of them. Any other order (IIIF's, which is byte
/// order, or one a test gives) is a list.
package struct PyramidOrder: Sendable {
    private enum Storage: Sendable {
        case deepZoom(DeepZoomRows)
        case listed([String], [String: Int])
    }

    private let storage: Storage
    /// How many files: for Deep Zoom, the tiles and the descriptor.
    package let count: Int

    /// The order of `layout`'s files.
    package init(_ layout: PyramidLayout) {
        switch layout.kind {
        case .deepZoom:
            let rows = DeepZoomRows(layout)
            self.init(storage: .deepZoom(rows), count: rows.tiles + 1)
        case .iiif3:
            self.init(listing: Self.iiifPaths(layout))
        }
    }

    /// `paths`, in the order given; a path listed twice keeps its first place.
    package init(listing paths: [String]) {
        self.init(storage: .listed(paths, Dictionary(paths.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })),
                  count: paths.count)
    }

    private init(storage: Storage, count: Int) {
        self.storage = storage
        self.count = count
    }

    /// The `index`th file's path, for `index` in `0..<count`.
    package func path(at index: Int) -> String {
        switch storage {
        case .deepZoom(let rows): return rows.path(at: index)
        case .listed(let paths, _): return paths[index]
        }
    }

    /// Where `path` stands in the order; nil for a path not in it.
    package func place(of path: String) -> Int? {
        switch storage {
        case .deepZoom(let rows): return rows.place(of: path)
        case .listed(_, let places): return places[path]
        }
    }

    /// Every path, in order.
    package var paths: [String] { (0..<count).map(path(at:)) }

    /// A IIIF pyramid's files, in byte order.
    private static func iiifPaths(_ layout: PyramidLayout) -> [String] {
        let iiif = IIIFLayout(width: layout.width, height: layout.height, tileSize: layout.tileSize, ext: layout.tileExtension)
        let folder = layout.tilesFolder
        var paths = [layout.descriptorPath] + iiif.tiles.map { folder + $0.path }
        paths.append(folder + iiif.fullMaxPath)
        paths += (iiif.info(id: "").sizes ?? []).map { folder + iiif.fullPath($0) }
        return paths.sorted { $0.precedesInUTF8Order($1) }
    }
}

/// A Deep Zoom pyramid's tile rows in the order dzsave saves them
/// (`PyramidOrder`), then its descriptor.
private struct DeepZoomRows: Sendable {
    let layout: PyramidLayout
    /// Each row's level and number, in the order they are saved.
    let rows: [(level: Int, row: Int)]
    /// The place of each row's first tile.
    let firsts: [Int]
    /// `rowPlace[level][row]`: where that row stands in `rows`.
    let rowPlace: [[Int]]
    let grid: TileGrid
    let tiles: Int

    init(_ layout: PyramidLayout) {
        let geometry = layout.geometry
        // dzsave saves a level's tile row once the row of the level above
        // holding the last pixel it needs (overlap included) is saved: the
        // full-size row that sets that chain off is when it is made.
        func trigger(_ level: Int, _ row: Int) -> Int {
            guard level < geometry.maxLevel else { return row }
            let above = geometry.size(ofLevel: level + 1).height
            let last = min(above, 2 * ((row + 1) * geometry.tileSize + geometry.overlap)) - 1
            return trigger(level + 1, min(geometry.tiles(ofLevel: level + 1).rows - 1, last / geometry.tileSize))
        }
        var saved: [(bottom: Int, level: Int, row: Int)] = []
        for level in 0...geometry.maxLevel {
            for row in 0..<geometry.tiles(ofLevel: level).rows { saved.append((trigger(level, row), level, row)) }
        }
        saved.sort { a, b in a.bottom != b.bottom ? a.bottom < b.bottom : a.level != b.level ? a.level > b.level : a.row < b.row }
        var rowPlace = (0...geometry.maxLevel).map { Array(repeating: 0, count: geometry.tiles(ofLevel: $0).rows) }
        var firsts: [Int] = []
        var tiles = 0
        for (place, row) in saved.enumerated() {
            rowPlace[row.level][row.row] = place
            firsts.append(tiles)
            tiles += geometry.tiles(ofLevel: row.level).columns
        }
        self.layout = layout
        self.rows = saved.map { ($0.level, $0.row) }
        self.firsts = firsts
        self.rowPlace = rowPlace
        self.grid = geometry.grid
        self.tiles = tiles
    }

    func path(at index: Int) -> String {
        precondition((0...tiles).contains(index), "no file \(index) in a pyramid of \(tiles) tiles and its descriptor")
        guard index < tiles else { return layout.descriptorPath }
        // The last row starting at or before `index`.
        var low = 0, high = firsts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if firsts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return layout.deepZoomTilePath(level: rows[low].level, column: index - firsts[low], row: rows[low].row)
    }

    /// Byte for byte, as libvips names its files: the tile's numbers are
    /// read as `DeepZoomDescriptor.tilePath` writes them, so only the name
    /// `path(at:)` gives for a place leads back to it.
    func place(of path: String) -> Int? {
        if path.utf8.elementsEqual(layout.descriptorPath.utf8) { return tiles }
        let folder = layout.tilesFolder
        guard PathBytes.hasPrefix(path, folder),
              let (level, column, row) = DeepZoomDescriptor.tileIndex(of: path[path.utf8.index(path.startIndex, offsetBy: folder.utf8.count)...],
                                                                      format: layout.tileExtension),
              grid.contains(level: level, column: column, row: row)
        else { return nil }
        return firsts[rowPlace[level][row]] + column
    }
}
