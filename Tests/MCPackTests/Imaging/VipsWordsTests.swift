@testable import Imaging
import Testing

/// libvips's error text as mcpack passes it on.
@Suite struct VipsWordsTests {
    /// A file is named by its name, not by the folders libvips was given;
    /// a line said once per strip is said once.
    @Test func filesByNameAndEachLineOnce() {
        let detail = """
            VipsJpeg: Premature end of input file
            VipsJpeg: Premature end of input file
            tiff2vips: unable to read "/tmp/mcpack-1a2b/work/master.tif": out of data
            vips_image_new_from_file: "/home/ann/masters/charter.tif" is not a known file format
            """
        #expect(ImagingError.plainWords(detail) == "VipsJpeg: Premature end of input file; "
            + #"tiff2vips: unable to read "master.tif": out of data; vips_image_new_from_file: "charter.tif" is not a known file format"#)
    }
}
