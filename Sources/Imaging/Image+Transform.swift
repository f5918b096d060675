import CVipsShim
import Foundation

extension Image {
    /// Exactly `width` x `height`, lanczos3. With `crop`, scales to cover and
    /// cuts the centre (aspect fill); without, the aspect must already match.
    public func resized(width: Int, height: Int, crop: Bool = false) throws -> Image {
        guard let out = mcvips_thumbnail(pointer, Int32(width), Int32(height), crop ? 1 : 0) else {
            throw ImagingError("cannot resize to \(width) x \(height)")
        }
        return Image(pointer: out, parents: [self])
    }

    /// The `width` x `height` rectangle at `left`, `top`.
    public func cropped(left: Int, top: Int, width: Int, height: Int) throws -> Image {
        guard let out = mcvips_crop(pointer, Int32(left), Int32(top), Int32(width), Int32(height)) else {
            throw ImagingError("cannot crop \(width) x \(height) at \(left), \(top) from \(self.width) x \(self.height)")
        }
        return Image(pointer: out, parents: [self])
    }

    /// The image blended onto a solid colour, without its alpha channel.
    public func flattened(red: Double, green: Double, blue: Double) throws -> Image {
        guard let out = mcvips_flatten(pointer, red, green, blue) else { throw ImagingError("cannot flatten") }
        return Image(pointer: out, parents: [self])
    }

    /// This image computed once into memory, so two outputs made from it do
    /// not compute it twice.
    public func inMemory() throws -> Image {
        guard let out = vips_image_copy_memory(pointer) else { throw ImagingError("cannot compute the image") }
        // An image already in memory comes back as itself, still pointing
        // into whatever this one keeps alive.
        return Image(pointer: out, parents: [self])
    }

    /// `overlay` centred over this image, alpha-blended.
    public func composited(centred overlay: Image) throws -> Image {
        guard let out = mcvips_composite_centre(pointer, overlay.pointer) else { throw ImagingError("cannot composite") }
        return Image(pointer: out, parents: [self, overlay])
    }

    /// `images` laid out `across` to a row, left to right and top to
    /// bottom, as one picture: a pyramid level put back together from its
    /// tiles. Each row's images share a height, each column's a width.
    public static func joined(_ images: [Image], across: Int) throws -> Image {
        var pointers: [UnsafeMutablePointer<VipsImage>?] = images.map { $0.pointer }
        guard let out = mcvips_arrayjoin(&pointers, Int32(pointers.count), Int32(across)) else {
            throw ImagingError("cannot join \(images.count) tiles")
        }
        return Image(pointer: out, parents: images)
    }

    /// 8-bit sRGB (alpha kept if present).
    public func srgb() throws -> Image {
        guard let out = mcvips_srgb(pointer) else { throw ImagingError("cannot convert to sRGB") }
        return Image(pointer: out, parents: [self])
    }
}

/// Settings of a tile pyramid, as bundle.toml gives them.
public struct PyramidSettings: Sendable, Equatable {
    public enum Layout: String, Sendable { case deepZoom = "dz", iiif3 }

    public var tileSize: Int
    public var overlap: Int
    /// "jpeg", "png" or "webp".
    public var format: String
    public var quality: Int
    public var layout: Layout

    public init(tileSize: Int, overlap: Int, format: String, quality: Int, layout: Layout) {
        self.tileSize = tileSize
        self.overlap = overlap
        self.format = format
        self.quality = quality
        self.layout = layout
    }

    /// libvips's save suffix with options: no metadata, fixed settings.
    var saveSuffix: String {
        switch format {
        case "png": return ".png[strip]"
        case "webp": return ".webp[Q=\(quality),strip]"
        // IIIF names JPEG tiles default.jpg; Deep Zoom viewers expect .jpeg.
        default: return (layout == .iiif3 ? ".jpg" : ".jpeg") + "[Q=\(quality),strip]"
        }
    }

    /// One picture encoded as the tiles are (format, quality, no metadata):
    /// the IIIF full images a static service adds beside its tiles.
    public func encode(_ image: Image) throws -> Data {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard mcvips_save_buffer(image.pointer, saveSuffix, &buffer, &length) == 0, let buffer else {
            throw ImagingError("cannot encode the image as \(format)")
        }
        defer { g_free(buffer) }
        return Data(bytes: buffer, count: length)
    }
}

/// Writing a deep-zoom pyramid of a master image of any size.
public enum TilePyramid {
    private final class ProgressBox {
        let report: (Int, Int) -> Void
        init(_ report: @escaping (Int, Int) -> Void) { self.report = report }
    }

    /// Tiles `image` into `folder/name...`. Open it sequentially where it
    /// can be, so memory grows with its width, not its area. `id` is the
    /// IIIF image's absolute URI (unused for Deep Zoom). `progress`
    /// receives percent done and seconds left.
    public static func write(_ image: Image, to folder: URL, name: String, settings: PyramidSettings, id: String? = nil,
                             progress: ((Int, Int) -> Void)? = nil) throws {
        let base = folder.appendingPathComponent(name).path
        try withProgress(progress) { callback, context in
            mcvips_dzsave(image.pointer, base, Int32(settings.tileSize), Int32(settings.overlap), settings.saveSuffix,
                          settings.layout == .iiif3 ? 1 : 0, id ?? name, callback, context)
        }
    }

    /// Tiles `image` as one stored zip written to the open descriptor `fd`
    /// (a pipe's end) while the tiles are made, its entries under `name/`:
    /// the tiles reach the reader at the other end without touching disk.
    /// The descriptor stays open. `stop(image)` from another thread ends
    /// the tiling early, with an error.
    public static func writeZip(_ image: Image, to fd: Int32, name: String, settings: PyramidSettings, id: String? = nil,
                                progress: ((Int, Int) -> Void)? = nil) throws {
        try withProgress(progress) { callback, context in
            mcvips_dzsave_zip(image.pointer, fd, name, Int32(settings.tileSize), Int32(settings.overlap), settings.saveSuffix,
                              settings.layout == .iiif3 ? 1 : 0, id ?? name, callback, context)
        }
    }

    /// Ends a tiling of `image` running on another thread: it fails.
    public static func stop(_ image: Image) {
        mcvips_kill(image.pointer)
    }

    private static func withProgress(_ progress: ((Int, Int) -> Void)?, _ body: (mcvips_progress_fn?, UnsafeMutableRawPointer?) -> Int32) throws {
        let box = progress.map(ProgressBox.init)
        let callback: mcvips_progress_fn? = box == nil ? nil : { context, percent, eta in
            Unmanaged<ProgressBox>.fromOpaque(context!).takeUnretainedValue().report(Int(percent), Int(eta))
        }
        let context = box.map { Unmanaged.passUnretained($0).toOpaque() }
        let result = withExtendedLifetime(box) { body(callback, context) }
        guard result == 0 else { throw ImagingError("cannot tile the image") }
    }
}

/// How two pictures differ, pixel by pixel.
public struct PixelDifference: Sendable, Equatable {
    /// False when the sizes differ; the other fields are then 1 and nil.
    public var sameSize: Bool
    /// The fraction of pixels that differ in any band, 0...1.
    public var changedFraction: Double
    /// The mean absolute difference per band, 0...255.
    public var meanDifference: Double
    /// The largest difference of any band of any pixel, 0...255.
    public var largestDifference: Double = 255

    public var identical: Bool { sameSize && changedFraction == 0 }
}

extension Image {
    /// Compares decoded pixels (as 8-bit sRGB with alpha), so a PNG saved
    /// again at another compression level compares identical.
    public func pixelDifference(to other: Image) throws -> PixelDifference {
        var sameSize: Int32 = 0
        var changed = 0.0
        var mean = 0.0
        var largest = 0.0
        guard mcvips_compare(pointer, other.pointer, &sameSize, &changed, &mean, &largest) == 0 else {
            throw ImagingError("cannot compare the images")
        }
        return sameSize == 0 ? PixelDifference(sameSize: false, changedFraction: 1, meanDifference: 255)
            : PixelDifference(sameSize: true, changedFraction: changed, meanDifference: mean, largestDifference: largest)
    }
}

extension Image {
    /// Where this image and another of the same size differ, brightened so
    /// small changes show.
    public func differenceImage(to other: Image) throws -> Image {
        guard let out = mcvips_difference_image(pointer, other.pointer) else { throw ImagingError("cannot compare the images") }
        return Image(pointer: out, parents: [self, other])
    }

    /// A PNG no larger than `side` px either way, for a report page.
    public func previewPNG(side: Int = 320) throws -> Data {
        let scale = min(1, Double(side) / Double(max(width, height)))
        let sized = scale < 1 ? try resized(width: max(1, Int(Double(width) * scale)), height: max(1, Int(Double(height) * scale))) : self
        return try sized.srgb().pngData()
    }
}
