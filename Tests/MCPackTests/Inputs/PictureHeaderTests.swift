import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MCPackSchema
import Imaging
import ImagingTestSupport
@testable import MCPackBag
@testable import MCPackInputs
@testable import MCPackKit
import Testing

/// The header sizes verify reads without decoding, against libvips's own.
@Suite struct PictureHeaderTests {
    @Test func jpegPngAndWebPSizesAreRead() throws {
        let image = try Image.noise(width: 37, height: 23, bands: 3, seed: 1)
        for data in [try image.jpegData(), try image.pngData(),
                     try PyramidSettings(tileSize: 254, overlap: 0, format: "webp", quality: 80, layout: .iiif3).encode(image),
                     try PyramidSettings(tileSize: 254, overlap: 0, format: "jpeg", quality: 80, layout: .iiif3).encode(image)] {
            let kept = try #require(BagContents.keeping("data/document/m/254,0,254,254/254,254/0/default.jpg", size: 1 << 20).headBytes)
            let size = try #require(PictureHeader.size(of: data.prefix(kept)))
            #expect(size == (37, 23))
        }
        #expect(PictureHeader.size(of: Data("not a picture".utf8)) == nil)
    }

    /// Which bytes verify may hand libvips that only an optional loader
    /// reads: the kinds libvips reads itself, made by libvips, and text
    /// need none; a PDF, a HEIF or AVIF, a JPEG XL or any other binary do.
    @Test func picturesOnlyAnOptionalLoaderReadsAreToldByTheirFirstBytes() throws {
        let image = try Image.noise(width: 9, height: 7, bands: 3, seed: 2)
        let own = [try image.pngData(), try image.jpegData(),
                   try PyramidSettings(tileSize: 254, overlap: 0, format: "webp", quality: 80, layout: .iiif3).encode(image),
                   Data("GIF89a".utf8) + Data(repeating: 0, count: 20), Data([0x49, 0x49, 0x2A, 0]) + Data(repeating: 1, count: 20),
                   Data([0x4D, 0x4D, 0, 0x2A]) + Data(repeating: 1, count: 20), Data([0, 0, 0, 0x0C]) + Data("jP  \r\n".utf8),
                   Data("{\"bundle\": {}}\n".utf8), Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8),
                   Data("BagIt-Version: 1.0\r\n\tcontinued caf\u{E9}".utf8), Data()]
        for data in own { #expect(!ImageFileCheck.needsOptionalLoader(data), "\(Array(data.prefix(8)))") }
        let theirs = [AssetCatalogRulesTests.pdf(side: 24), Data([0, 0, 0, 0x18]) + Data("ftypheic".utf8),
                      Data([0, 0, 0, 0x1C]) + Data("ftypavif".utf8), Data([0xFF, 0x0A, 0xFA, 0x7F]),
                      Data([0, 0, 0, 0x0C]) + Data("JXL \r\n".utf8) + Data([0x87, 0x0A]),
                      Data("BM".utf8) + Data([0x3A, 0, 0, 0]), Data("8BPS".utf8) + Data([0, 1, 0, 0]),
                      Data([0, 0, 1, 0, 1, 0]), Data("  \n".utf8) + AssetCatalogRulesTests.pdf(side: 24),
                      Data("/* XPM */\nstatic char *x[] = {".utf8), Data("#define x_width 1\n".utf8)]
        for data in theirs { #expect(ImageFileCheck.needsOptionalLoader(data), "\(Array(data.prefix(8)))") }
    }
}
