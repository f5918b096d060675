import Foundation
import MCPackSchema
import Testing

/// The pyramid's geometry as libvips cuts it, and the descriptors that
/// name it: what verify checks against and the app reads tiles by.
@Suite struct PyramidTests {
    @Test func levelsRoundUpAndTilesCarryTheirOverlap() {
        let g = PyramidGeometry(width: 600, height: 400, tileSize: 254, overlap: 1)
        #expect(g.maxLevel == 10)
        #expect(g.size(ofLevel: 10) == (600, 400))
        #expect(g.size(ofLevel: 9) == (300, 200))
        #expect(g.size(ofLevel: 0) == (1, 1))
        #expect(g.tiles(ofLevel: 10) == (3, 2))
        // Inner edges repeat one pixel of the neighbour; outer edges do not.
        #expect(g.tileFrame(level: 10, column: 0, row: 0) == PixelRect(x: 0, y: 0, width: 255, height: 255))
        #expect(g.tileFrame(level: 10, column: 1, row: 1) == PixelRect(x: 253, y: 253, width: 256, height: 147))
        #expect(g.tileFrame(level: 10, column: 2, row: 0) == PixelRect(x: 507, y: 0, width: 93, height: 255))
        #expect(g.totalTiles == (0...10).reduce(0) { $0 + g.tiles(ofLevel: $1).columns * g.tiles(ofLevel: $1).rows })
    }

    @Test func aDeepZoomDescriptorIsReadByItsAttributes() throws {
        let dzi = Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <Image xmlns="http://schemas.microsoft.com/deepzoom/2008" Format="jpeg" Overlap="1" TileSize="254">
              <Size Height="400" Width="600"/>
            </Image>
            """.utf8)
        let descriptor = try #require(DeepZoomDescriptor(dzi))
        #expect(descriptor == DeepZoomDescriptor(tileSize: 254, overlap: 1, format: "jpeg", width: 600, height: 400))
        #expect(DeepZoomDescriptor(Data(#"<Image TileSize="254" Overlap="1" Format="jpeg"><Size Width="0" Height="4"/></Image>"#.utf8)) == nil)
        #expect(DeepZoomDescriptor(Data("<Image/>".utf8)) == nil)
        // An attribute with no closing quote, or with none at all, is missing.
        #expect(DeepZoomDescriptor(Data(#"<Image TileSize="254" Overlap="1" Format="jpeg"><Size Width="6" Height="4/></Image>"#.utf8)) == nil)
        #expect(DeepZoomDescriptor(Data(#"<Image TileSize="254" Overlap="1" Format=jpeg><Size Width="6" Height="4"/></Image>"#.utf8)) == nil)
        // The first of an attribute given twice, as before.
        let twice = DeepZoomDescriptor(Data(#"<Image TileSize="254" Overlap="1" Format="png" Format="jpeg"><Size Width="6" Height="4"/></Image>"#.utf8))
        #expect(twice?.format == "png")
    }

    /// A tile's name read back gives the tile it was written for, and only
    /// the names tilePath writes are read: no leading zero, sign, other
    /// digits, other extension or anything after it.
    @Test func aTileNameIsReadBackAsWritten() {
        for (level, column, row) in [(0, 0, 0), (10, 2, 1), (16, 133, 94), (123, 456_789, 1)] {
            let name = DeepZoomDescriptor.tilePath(level: level, column: column, row: row, format: "jpeg")
            let index = DeepZoomDescriptor.tileIndex(of: name[...], format: "jpeg")
            #expect(index?.level == level && index?.column == column && index?.row == row, "\(name)")
        }
        for name in ["01/0_0.jpeg", "1/00_0.jpeg", "1/0_01.jpeg", "1/0_0.jpg", "1/0_0.jpeg/x", "1/0_0.jpegx", "1/-1_0.jpeg", "+1/0_0.jpeg",
                     "1/0_0", "1//0_0.jpeg", "/0_0.jpeg", "1/_0.jpeg", "1/0_.jpeg", "1/0-0.jpeg", "1/0_0.JPEG", "١/0_0.jpeg", "",
                     "1/0_0.", "1234567890/0_0.jpeg", "a/0_0.jpeg", "1/0_0_0.jpeg"] {
            #expect(DeepZoomDescriptor.tileIndex(of: name[...], format: "jpeg") == nil, "\(name)")
        }
        // Whatever a name is, it is read as a tile exactly when it is one of
        // the names the pyramid's tiles are written under.
        let g = PyramidGeometry(width: 600, height: 400, tileSize: 254, overlap: 1)
        var written = Set<String>()
        for level in 0...g.maxLevel {
            let tiles = g.tiles(ofLevel: level)
            for column in 0..<tiles.columns {
                for row in 0..<tiles.rows { written.insert(DeepZoomDescriptor.tilePath(level: level, column: column, row: row, format: "jpeg")) }
            }
        }
        for level in 0...12 {
            for column in 0...4 {
                for row in 0...3 {
                    for name in ["\(level)/\(column)_\(row).jpeg", "\(level)/\(column)_\(row).png", "0\(level)/\(column)_\(row).jpeg"] {
                        let inBounds = DeepZoomDescriptor.tileIndex(of: name[...], format: "jpeg").map { index in
                            index.level <= g.maxLevel && index.column < g.tiles(ofLevel: index.level).columns && index.row < g.tiles(ofLevel: index.level).rows
                        } ?? false
                        #expect(inBounds == written.contains(name), "\(name)")
                    }
                }
            }
        }
    }

    @Test func theDocumentsRecordLocatesItsPyramid() throws {
        let record = DocumentRecord(image: "assets/document/m.tif", sha256: "aa", format: "tiff", width: 600, height: 400, name: "m",
                                    levels: 11, tiles: 18,
                                    settings: .init(tileSize: 254, overlap: 1, tileFormat: "jpeg", quality: 85, layout: "iiif3",
                                                    iiifBaseURL: "https://example.org/iiif"))
        let layout = try #require(record.layout)
        #expect(layout.kind == .iiif3)
        #expect(layout.overlap == 0, "IIIF tiles have no overlap")
        #expect(layout.tileExtension == "jpg")
        #expect(layout.descriptorPath == "document/m/info.json")
        let bundle = JSON.encode(["components": ["document": record]])
        #expect(try BundleJSON.component(DocumentRecord.self, named: DocumentRecord.component, from: bundle) == record)
        #expect(try BundleJSON.component(DocumentRecord.self, named: "other", from: bundle) == nil)
    }

    @Test func aIIIFTileIsNamedByItsRegionAndSize() {
        let layout = IIIFLayout(width: 600, height: 400, tileSize: 254, ext: "jpg")
        // The last column's region is clipped to the image, and its size
        // at scale factor 2 rounds up.
        #expect(layout.tile(scaleFactor: 1, column: 0, row: 0) == ("0,0,254,254/254,254/0/default.jpg", 254, 254))
        #expect(layout.tile(scaleFactor: 2, column: 1, row: 0) == ("508,0,92,400/46,200/0/default.jpg", 46, 200))
        #expect(layout.tile(scaleFactor: 1, column: 2, row: 1) == ("508,254,92,146/92,146/0/default.jpg", 92, 146))
        // The list is every tile of every scale factor, named the same way.
        let odd = IIIFLayout(width: 601, height: 399, tileSize: 254, ext: "jpg")
        let listed = odd.tiles.map(\.path)
        let named = odd.scaleFactors.flatMap { scale in
            (0..<(601 + 254 * scale - 1) / (254 * scale)).flatMap { column in
                (0..<(399 + 254 * scale - 1) / (254 * scale)).map { odd.tile(scaleFactor: scale, column: column, row: $0).path }
            }
        }
        #expect(listed == named)
        #expect(listed.contains("254,254,254,145/254,145/0/default.jpg"))
        #expect(listed.contains("0,0,601,399/1,1/0/default.jpg"))
    }

    @Test func manifestLinesKeepTheirPathsEncoded() {
        let text = Manifest.text([(checksum: "ab", path: "data/a%b\nc.txt"), (checksum: "cd", path: "data/plain.txt")])
        #expect(String(decoding: text, as: UTF8.self) == "ab  data/a%25b%0Ac.txt\ncd  data/plain.txt\n")
        let manifest = Manifest(text)
        #expect(manifest.lines.compactMap(manifest.path) == ["data/a%b\nc.txt", "data/plain.txt"])
        #expect(manifest.lines.map(manifest.checksum) == ["ab", "cd"])
    }
}
