import CVipsShim
import Foundation
import MCPackSchema

/// Settings of a tile pyramid, as bundle.toml gives them.
public struct PyramidSettings: Sendable, Equatable {
    /// The schema's own kinds: the settings and the record name them alike.
    public typealias Layout = PyramidLayout.Kind

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
        let call = try VipsCall("dzsave").image("in", image).string("filename", folder.appendingPathComponent(name).path)
        try save(call, image, settings: settings, id: id ?? name, progress: progress)
    }

    /// Tiles `image` as one stored zip written to the open descriptor `fd`
    /// (a pipe's end) while the tiles are made, its entries under `name/`:
    /// the tiles reach the reader at the other end without touching disk.
    /// The descriptor stays open. `stop(image)` from another thread ends
    /// the tiling early, with an error.
    public static func writeZip(_ image: Image, to fd: Int32, name: String, settings: PyramidSettings, id: String? = nil,
                                progress: ((Int, Int) -> Void)? = nil) throws {
        try Library.ensureStarted()
        guard let target = vips_target_new_to_descriptor(fd) else { throw ImagingError("cannot tile the image") }
        // The target holds its own copy of the descriptor: the reader sees
        // the zip end only once it is closed, when the last reference goes.
        defer { g_object_unref(target) }
        let call = try VipsCall("dzsave_target").image("in", image).object("target", target).string("basename", name)
            .enumeration("container", VIPS_FOREIGN_DZ_CONTAINER_ZIP).int("compression", 0)
        try save(call, image, settings: settings, id: id ?? name, progress: progress)
    }

    /// Ends a tiling of `image` running on another thread: it fails.
    public static func stop(_ image: Image) {
        vips_image_set_kill(image.pointer, 1)
    }

    /// The same pyramid either way: only where it goes differs.
    private static func save(_ call: VipsCall, _ image: Image, settings: PyramidSettings, id: String,
                             progress: ((Int, Int) -> Void)?) throws {
        // Strip buffers mapped on their own, a tile's pixels (overlap
        // included, 8-bit, up to four bands) and encoded bytes in the heap.
        let side = settings.tileSize + 2 * settings.overlap
        mcvips_fix_mmap_threshold(side * side * 4)
        // The tiling is the peak: the code that ran before it need not be
        // held through it.
        mcvips_unmap_program_code()
        call.enumeration("layout", settings.layout == .iiif3 ? VIPS_FOREIGN_DZ_LAYOUT_IIIF3 : VIPS_FOREIGN_DZ_LAYOUT_DZ)
            .int("tile_size", settings.tileSize).int("overlap", settings.overlap)
            .enumeration("depth", VIPS_FOREIGN_DZ_DEPTH_ONEPIXEL).string("suffix", settings.saveSuffix)
            .string("id", id).bool("strip", true)
        try ImagingError.renamed("cannot tile the image") {
            try reportingProgress(of: image, to: progress) { try TilingWorkers.during { try call.run() } }
        }
    }

    /// Runs `body` with libvips's progress of `image` going to `progress`.
    private static func reportingProgress(of image: Image, to progress: ((Int, Int) -> Void)?, _ body: () throws -> Void) throws {
        guard let progress else { return try body() }
        let box = ProgressBox(progress)
        vips_image_set_progress(image.pointer, 1)
        let handler = mcvips_connect_eval(image.pointer, { _, state, context in
            guard let state, let context else { return }
            Unmanaged<ProgressBox>.fromOpaque(context).takeUnretainedValue().report(Int(state.pointee.percent), Int(state.pointee.eta))
        }, Unmanaged.passUnretained(box).toOpaque())
        defer { g_signal_handler_disconnect(image.pointer, handler) }
        try withExtendedLifetime(box) { try body() }
    }
}

/// How many workers libvips runs while a pyramid is tiled. dzsave's
/// workers wait in turn on the master's serial decode and on creating each
/// tile file; one worker more than the cores keeps both cores busy (a
/// 34,000 px master tiled about 1 s sooner on 2 cores, for 9 MB more). A
/// VIPS_CONCURRENCY the user set is left alone. The setting is
/// process-wide: a count of tilings running restores it only when the
/// last one ends.
private enum TilingWorkers {
    private final class State: @unchecked Sendable {
        let lock = NSLock()
        var running = 0
        var workers: Int32 = 0
    }

    private static let state = State()

    static func during(_ body: () throws -> Void) throws {
        state.lock.withLock {
            if state.running == 0 {
                state.workers = vips_concurrency_get()
                if getenv("VIPS_CONCURRENCY") == nil { vips_concurrency_set(state.workers + 1) }
            }
            state.running += 1
        }
        defer {
            state.lock.withLock {
                state.running -= 1
                if state.running == 0 { vips_concurrency_set(state.workers) }
            }
        }
        try body()
    }
}
