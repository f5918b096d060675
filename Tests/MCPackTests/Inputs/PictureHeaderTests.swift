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
}
