import Foundation
import FileIO
import Imaging
import ImagingTestSupport
import MCPackSchema
@testable import MCPackInputs
@testable import MCPackKit
import Testing

/// Tiles made straight into the archive: the stream hands over exactly the
/// files dzsave writes to a folder, byte for byte, in the layout's order,
/// and stops dzsave when the archive writer gives up.
@Suite struct PyramidStreamTests {
    static let settings = PyramidSettings(tileSize: 64, overlap: 1, format: "jpeg", quality: 80, layout: .deepZoom)

    static let spillFolder = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-spill-\(UUID().uuidString)")

    static func stream(width: Int, height: Int) -> PyramidStream {
        let layout = PyramidLayout(name: "m", kind: .deepZoom, width: width, height: height, tileSize: settings.tileSize,
                                   overlap: settings.overlap, tileFormat: settings.format)
        return PyramidStream(order: PyramidOrder(layout), folder: "document/", name: "m", settings: settings,
                             master: { try Image.noise(width: width, height: height, bands: 3, seed: 7) },
                             progress: { _, _, _ in }, describe: { FileError(path: "m", message: $0) }, spillFolder: spillFolder)
    }

    /// (3000, 2000): 2,000 tiles, whose zip directory is more than a pipe
    /// holds; dzsave writes it after the last tile, to a reader that needs
    /// none of it.
    @Test(arguments: [(700, 450), (64, 64), (1, 300), (3000, 2000)])
    func theStreamHoldsWhatDzsaveWritesToAFolder(_ size: (Int, Int)) throws {
        ProcessSetUp.done
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = Self.stream(width: size.0, height: size.1)
        var handed: [(String, Data)] = []
        try stream.make { handed.append(($0, $1)) }
        #expect(handed.map(\.0) == stream.paths)

        try TilePyramid.write(try Image.noise(width: size.0, height: size.1, bands: 3, seed: 7), to: folder, name: "m", settings: Self.settings)
        let written = try FileSystem.regularFiles(under: folder).filter { !$0.hasSuffix("vips-properties.xml") }
        #expect(Set(written.map { "document/" + $0 }) == Set(stream.paths))
        for (path, data) in handed {
            #expect(try Data(contentsOf: folder.appendingPathComponent(String(path.dropFirst("document/".count)))) == data, "\(path)")
        }
    }

    /// Tiles that come long before their turn wait on disk past the memory
    /// bound, and the stream hands over the same bytes in the same order.
    /// The descriptor, which dzsave writes last, is put first here, so every
    /// tile waits for it: what another libvips's order could do.
    @Test func tilesHeldPastTheBoundWaitOnDisk() throws {
        ProcessSetUp.done
        var inOrder = Self.stream(width: 700, height: 450)
        let inOrderNotes = Notes()
        inOrder.note = { inOrderNotes.add($0) }
        var expected: [String: Data] = [:]
        try inOrder.make { expected[$0] = $1 }
        // In dzsave's own order a row or two waits, far below the bound.
        #expect(inOrderNotes.all.isEmpty)

        var stream = inOrder
        let descriptor = stream.paths.last!
        stream = PyramidStream(order: PyramidOrder(listing: [descriptor] + stream.paths.dropLast()), folder: stream.folder, name: stream.name,
                               settings: stream.settings, master: stream.master, progress: stream.progress,
                               describe: stream.describe, spillFolder: stream.spillFolder)
        stream.heldInMemory = 20_000
        let notes = Notes()
        stream.note = { notes.add($0) }
        defer { try? FileManager.default.removeItem(at: Self.spillFolder) }
        var handed: [(String, Data)] = []
        try stream.make { handed.append(($0, $1)) }
        #expect(handed.map(\.0) == stream.paths)
        for (path, data) in handed {
            #expect(expected[path] == data, "\(path)")
        }
        #expect(notes.all.count == 1)
        #expect(notes.all.first?.contains("order mcpack does not expect") == true)
        // Unlinked when made: nothing is left for a later run to find.
        #expect(try FileSystem.regularFiles(under: Self.spillFolder).isEmpty)
    }

    /// A disk that cannot take the tiles set aside fails the build with
    /// its own words, not as a master libvips could not tile.
    @Test func aSpillThatFailsIsNotBlamedOnTheMaster() throws {
        ProcessSetUp.done
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-not-a-folder-\(UUID().uuidString)")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let inOrder = Self.stream(width: 700, height: 450)
        var stream = PyramidStream(order: PyramidOrder(listing: [inOrder.paths.last!] + inOrder.paths.dropLast()), folder: inOrder.folder,
                                   name: inOrder.name, settings: inOrder.settings, master: inOrder.master,
                                   progress: inOrder.progress, describe: inOrder.describe,
                                   spillFolder: file.appendingPathComponent("spill"))
        stream.heldInMemory = 20_000
        let error = #expect(throws: (any Error).self) { try stream.make { _, _ in } }
        #expect(!"\(String(describing: error))".contains("cannot make the tile pyramid"), "\(String(describing: error))")
    }

    final class Notes: @unchecked Sendable {
        var all: [String] = []
        func add(_ note: String) { all.append(note) }
    }

    /// The layout's order is a row at a time, the smaller levels' rows as the
    /// full-size rows they need are done, the descriptor last.
    @Test func theOrderFollowsTheRows() {
        let layout = PyramidLayout(name: "m", kind: .deepZoom, width: 300, height: 200, tileSize: 100, overlap: 1, tileFormat: "jpeg")
        let paths = PyramidOrder(layout).paths
        #expect(paths.last == "document/m.dzi")
        #expect(Array(paths.prefix(4)) == ["document/m_files/9/0_0.jpeg", "document/m_files/9/1_0.jpeg", "document/m_files/9/2_0.jpeg",
                                           "document/m_files/9/0_1.jpeg"])
        #expect(Set(paths).count == paths.count)
        #expect(paths.firstIndex(of: "document/m_files/8/0_0.jpeg")! > paths.firstIndex(of: "document/m_files/9/2_1.jpeg")!)
    }

    /// The order worked out from the rows lists what the rows give, and
    /// reads each of its names back to its place, and no other name: not
    /// one spelled another way, outside the pyramid, or of another pyramid.
    @Test(arguments: [(300, 200, 100, 1), (1, 1, 254, 1), (700, 450, 64, 1), (3000, 2000, 254, 0), (257, 3001, 128, 2)])
    func theOrderReadsItsNamesBack(_ shape: (Int, Int, Int, Int)) {
        let layout = PyramidLayout(name: "m", kind: .deepZoom, width: shape.0, height: shape.1, tileSize: shape.2, overlap: shape.3,
                                   tileFormat: "jpeg")
        let order = PyramidOrder(layout)
        let paths = order.paths
        #expect(order.count == layout.geometry.totalTiles + 1)
        #expect(Set(paths).count == paths.count)
        #expect(paths.last == "document/m.dzi")
        for (place, path) in paths.enumerated() {
            #expect(order.place(of: path) == place, "\(path)")
        }
        // A listing that names a file twice keeps its first place.
        let listed = PyramidOrder(listing: paths + [paths[0]])
        #expect(listed.place(of: paths[0]) == 0)
        let geometry = layout.geometry
        let top = geometry.maxLevel, tiles = geometry.tiles(ofLevel: top)
        for stranger in ["document/m_files/\(top)/\(tiles.columns)_0.jpeg", "document/m_files/\(top)/0_\(tiles.rows).jpeg",
                         "document/m_files/\(top + 1)/0_0.jpeg", "document/m_files/0/00_0.jpeg", "document/m_files/0/0_0.png",
                         "document/m_files/0/0_0.jpeg/", "document/n_files/0/0_0.jpeg", "document/m_files/0/+0_0.jpeg",
                         "data/document/m_files/0/0_0.jpeg", "document/m.dzi/", "document/M.dzi", "document/m_files/0/0_0.jpg", ""] {
            #expect(order.place(of: stranger) == nil, "\(stranger)")
        }
    }

    /// A name that is not ASCII is read byte for byte: the name written
    /// composed is not the same name decomposed.
    @Test func theOrderComparesNamesByTheirBytes() {
        let composed = "Charte-\u{E9}", decomposed = "Charte-e\u{301}"
        let layout = PyramidLayout(name: composed, kind: .deepZoom, width: 300, height: 200, tileSize: 100, overlap: 1, tileFormat: "jpeg")
        let order = PyramidOrder(layout)
        #expect(order.place(of: "document/\(composed)_files/9/0_0.jpeg") == 0)
        #expect(order.place(of: "document/\(decomposed)_files/9/0_0.jpeg") == nil)
        #expect(order.place(of: "document/\(decomposed).dzi") == nil)
        #expect(order.place(of: "document/\(composed).dzi") == order.count - 1)
    }

    /// The archive writer failing (a full disk) ends the tiling with its
    /// error, and dzsave, blocked on a full pipe, is stopped, not left
    /// waiting for ever.
    @Test func aConsumerThatFailsStopsTheTiling() throws {
        ProcessSetUp.done
        struct DiskFull: Error {}
        let stream = Self.stream(width: 4000, height: 3000)
        var count = 0
        #expect(throws: DiskFull.self) {
            try stream.make { _, _ in
                count += 1
                if count == 3 { throw DiskFull() }
            }
        }
        #expect(count == 3)
    }

    /// A master libvips cannot decode part-way is named, with libvips's words.
    @Test func aTilingThatFailsIsNamed() throws {
        ProcessSetUp.done
        let layout = PyramidLayout(name: "m", kind: .deepZoom, width: 500, height: 500, tileSize: 64, overlap: 1, tileFormat: "jpeg")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("m.png")
        var bytes = try Image.noise(width: 500, height: 500, bands: 3, seed: 1).pngData()
        bytes = bytes.prefix(bytes.count / 2)
        try bytes.write(to: png)
        let stream = PyramidStream(order: PyramidOrder(layout), folder: "document/", name: "m", settings: Self.settings,
                                   master: { try Image(contentsOf: png.path, sequential: true) },
                                   progress: { _, _, _ in }, describe: { FileError(path: "m.png", message: $0) },
                                   spillFolder: Self.spillFolder)
        let error = #expect(throws: FileError.self) { try stream.make { _, _ in } }
        #expect(error?.path == "m.png")
        #expect(error?.message.hasPrefix("cannot make the tile pyramid") == true, "\(String(describing: error))")
    }
}
