import CVipsShim
import Foundation

extension Image {
    /// The EXIF orientation (1-8) the file declares, 1 when none. One kept
    /// only in a PNG's "Raw profile type exif" text becomes the image's, so
    /// `autorotated` turns it as a viewer that reads the text would.
    var orientation: Int {
        if vips_image_get_typeof(pointer, VIPS_META_ORIENTATION) != 0 {
            var value: Int32 = 1
            guard vips_image_get_int(pointer, VIPS_META_ORIENTATION, &value) == 0 else { return 1 }
            return (1...8).contains(value) ? Int(value) : 1
        }
        guard let fromText = orientationInPNGText, (2...8).contains(fromText) else { return 1 }
        vips_image_set_int(pointer, VIPS_META_ORIENTATION, Int32(fromText))
        return fromText
    }

    /// The orientation in the first "Raw profile type exif" text chunk, nil
    /// when there is none or it holds none. libvips names a PNG's text
    /// chunks by their order, and a file has few.
    private var orientationInPNGText: Int? {
        for index in 0..<16 {
            guard let text = metadataText("png-comment-\(index)-Raw profile type exif") else { continue }
            return EXIFOrientation.fromRawProfileText(text)
        }
        return nil
    }

    /// The bytes of a text field of the file's metadata, nil when it has
    /// no such field or the field is not text.
    func metadataText(_ field: String) -> [UInt8]? {
        var text: UnsafePointer<CChar>?
        guard vips_image_get_typeof(pointer, field) != 0, vips_image_get_string(pointer, field, &text) == 0, let text else { return nil }
        return Array(UnsafeRawBufferPointer(start: text, count: strlen(text)))
    }

    /// Turned as the EXIF orientation says, so it is seen as a person sees it.
    public func autorotated() throws -> Image {
        // An orientation kept only in a PNG's text becomes the image's first.
        _ = orientation
        return try ImagingError.renamed("cannot apply the EXIF orientation") { try VipsCall("autorot").image("in", self).outputImage() }
    }
}
