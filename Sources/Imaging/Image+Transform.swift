import CVipsShim
import Foundation

extension Image {
    /// Exactly `width` x `height`, lanczos3. With `crop`, scales to cover and
    /// cuts the centre (aspect fill); without, the aspect must already match.
    public func resized(width: Int, height: Int, crop: Bool = false) throws -> Image {
        try ImagingError.renamed("cannot resize to \(width) x \(height)") {
            // libvips's thumbnail path: shrink-on-load where the format allows.
            let call = try VipsCall("thumbnail_image").image("in", self).int("width", width).int("height", height)
            if crop {
                call.enumeration("size", VIPS_SIZE_BOTH).enumeration("crop", VIPS_INTERESTING_CENTRE)
            } else {
                call.enumeration("size", VIPS_SIZE_FORCE)
            }
            return try call.outputImage()
        }
    }

    /// The `width` x `height` rectangle at `left`, `top`.
    public func cropped(left: Int, top: Int, width: Int, height: Int) throws -> Image {
        try ImagingError.renamed("cannot crop \(width) x \(height) at \(left), \(top) from \(self.width) x \(self.height)") {
            try VipsCall("extract_area").image("input", self).int("left", left).int("top", top).int("width", width).int("height", height)
                .outputImage()
        }
    }

    /// The image blended onto a solid colour, without its alpha channel.
    public func flattened(red: Double, green: Double, blue: Double) throws -> Image {
        try ImagingError.renamed("cannot flatten") {
            try VipsCall("flatten").image("in", self).doubles("background", [red, green, blue]).outputImage()
        }
    }

    /// This image computed once into memory, so two outputs made from it do
    /// not compute it twice.
    public func inMemory() throws -> Image {
        guard let out = vips_image_copy_memory(pointer) else { throw ImagingError("cannot compute the image") }
        // An image already in memory comes back as itself, still pointing
        // into whatever this one keeps alive.
        return Image(pointer: out, parents: [self])
    }

    /// `overlay` centred over this image, alpha-blended, as the launch
    /// screen will show it: an sRGB image the size of this one.
    public func composited(centred overlay: Image) throws -> Image {
        try ImagingError.renamed("cannot composite") {
            try VipsCall("composite2").image("base", self).image("overlay", overlay).enumeration("mode", VIPS_BLEND_MODE_OVER)
                .int("x", (width - overlay.width) / 2).int("y", (height - overlay.height) / 2).outputImage()
        }
    }

    /// `images` laid out `across` to a row, left to right and top to
    /// bottom, as one picture: a pyramid level put back together from its
    /// tiles. Each row's images share a height, each column's a width.
    public static func joined(_ images: [Image], across: Int) throws -> Image {
        try ImagingError.renamed("cannot join \(images.count) tiles") {
            try VipsCall("arrayjoin").images("in", images).int("across", across).outputImage()
        }
    }

    /// 8-bit sRGB (alpha kept if present), as icons need.
    public func srgb() throws -> Image {
        try ImagingError.renamed("cannot convert to sRGB") { try colourspace(VIPS_INTERPRETATION_sRGB).cast(VIPS_FORMAT_UCHAR) }
    }

    /// Grey (one band, or two with alpha).
    public func grey() throws -> Image {
        try ImagingError.renamed("cannot make grey") { try colourspace(VIPS_INTERPRETATION_B_W) }
    }
}
