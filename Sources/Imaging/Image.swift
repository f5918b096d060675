import CLCMS2
import CVipsShim
import Foundation

/// A failure reported by libvips, with its own explanation.
public struct ImagingError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// libvips's explanation alone, in plain words, when it gave one.
    public let cause: String?

    /// `what` failed: libvips's explanation, if any, is appended. libvips
    /// keeps its errors in one buffer per process, taken and cleared only here.
    init(_ what: String) {
        var text = what
        var cause: String?
        if let raw = vips_error_buffer_copy() {
            let detail = String(cString: raw)
            g_free(raw)
            let said = Self.plainWords(detail)
            if !said.isEmpty {
                text += ": " + said
                cause = said
            }
        }
        description = text
        self.cause = cause
    }

    /// `what` failed because of `cause` (libvips's words, taken already by
    /// the step that failed, or mcpack's own).
    init(_ what: String, cause: String?) {
        description = cause.map { what + ": " + $0 } ?? what
        self.cause = cause
    }

    /// A step inside `body` failed: said as `what`, with the step's cause.
    static func renamed<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as ImagingError { throw ImagingError(what, cause: error.cause) }
    }

    /// What libvips says, as a person reads it: a cause it names in its
    /// own terms put in a photographer's words, each line once (a damaged
    /// TIFF repeats one line per strip), and files by name, not by the
    /// temporary or absolute path libvips was given.
    static func plainWords(_ detail: String) -> String {
        let known = [
            ("tiled separate planes not supported",
             "this TIFF stores its colour planes separately in tiles, which the image library cannot read; save it as a contiguous (interleaved) or strip TIFF"),
        ]
        for (phrase, words) in known where detail.contains(phrase) { return words }
        var seen = Set<String>()
        let lines = detail.split(whereSeparator: \.isNewline).map { line in
            line.replacing(#/\/(?:[^\/\s"'`:;]+\/)+([^\/\s"'`:;]+)/#) { String($0.1) }
                .trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty && seen.insert($0).inserted }
        return lines.joined(separator: "; ")
    }
}

/// libvips is started once per process, by the first image made, so
/// commands that never touch a pixel do not pay for starting it.
enum Library {
    static let started: Bool = {
        guard mcvips_init(CommandLine.arguments.first ?? "mcpack", OptionalLoaders.wanted ? 1 : 0) == 0 else { return false }
        ColourWarnings.listen()
        // Bounded memory matters more than re-use here: nothing is computed twice.
        vips_cache_set_max(0)
        return true
    }()

    static func ensureStarted() throws {
        guard started else { throw ImagingError("libvips could not start") }
    }
}

/// libvips's optional loaders, the modules it loads as it starts (HEIF,
/// JPEG XL, ImageMagick, OpenSlide, PDF, and the libraries they bring).
public enum OptionalLoaders {
    private final class State: @unchecked Sendable {
        let lock = NSLock()
        var wanted = true
    }

    private static let state = State()

    static var wanted: Bool { state.lock.withLock { state.wanted } }

    /// Starts libvips without them: for a process that opens only what
    /// libvips reads itself (TIFF, PNG, JPEG, WebP, GIF, JPEG 2000, SVG).
    /// Process-wide, so a command calls it before anything opens a
    /// picture; once libvips has started it changes nothing.
    public static func leaveOut() {
        state.lock.withLock { state.wanted = false }
    }
}

/// Bytes copied to memory of their own, freed with the image that reads them.
final class HeldBytes {
    let bytes: UnsafeMutableRawBufferPointer

    init(_ data: Data) {
        bytes = .allocate(byteCount: max(data.count, 1), alignment: 16)
        data.copyBytes(to: bytes)
    }

    deinit { bytes.deallocate() }
}

/// An image opened by libvips. Pixels are read lazily: opening reads the
/// header, so a size check on a 34,000 px scan costs almost nothing.
public final class Image: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<VipsImage>
    /// Keeps an in-memory source alive for as long as libvips may read it:
    /// a `Data`, or `HeldBytes`.
    private let source: Any?
    /// libvips computes lazily: an image made from another reads its
    /// pixels later, so the other (and its buffer) must live as long.
    private let parents: [Image]

    init(pointer: UnsafeMutablePointer<VipsImage>, source: Any? = nil, parents: [Image] = []) {
        self.pointer = pointer
        self.source = source
        self.parents = parents
    }

    deinit { g_object_unref(pointer) }

    /// Loaders fail on the first decode error instead of returning grey pixels.
    private static let failOn = Int32(VIPS_FAIL_ON_ERROR.rawValue)

    /// Opens a file. `sequential` promises top-to-bottom reading, so memory
    /// grows with the width of the image, not its area.
    public convenience init(contentsOf path: String, sequential: Bool = false) throws {
        try Library.ensureStarted()
        let access = sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM
        guard let image = mcvips_image_new_from_file(path, Int32(access.rawValue), Self.failOn) else {
            throw ImagingError("cannot open \(path) as an image")
        }
        self.init(pointer: image)
    }

    /// Opens an image from bytes already in memory (read once, hashed once).
    public convenience init(data: Data) throws {
        try Library.ensureStarted()
        // libvips points into the buffer for as long as the image lives:
        // `source` holds it. A Data's bytes on the heap do not move while
        // it is held (a copy of every picture, as this once made, cost
        // verify 10 MB of launch screens' heads); a Data of a few bytes
        // keeps them in itself, where no pointer outlives the call, so
        // those are copied to memory of their own.
        if data.count < 64 {
            let held = HeldBytes(data)
            guard let image = mcvips_image_new_from_buffer(held.bytes.baseAddress, data.count, Self.failOn) else {
                throw ImagingError("not an image libvips can read")
            }
            self.init(pointer: image, source: held)
            return
        }
        let image = data.withUnsafeBytes { raw in
            mcvips_image_new_from_buffer(raw.baseAddress, raw.count, Self.failOn)
        }
        guard let image else { throw ImagingError("not an image libvips can read") }
        self.init(pointer: image, source: data)
    }

    public var width: Int { Int(vips_image_get_width(pointer)) }
    public var height: Int { Int(vips_image_get_height(pointer)) }
    public var bands: Int { Int(vips_image_get_bands(pointer)) }
    public var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }

    /// The file format, by the loader that opened it: "png", "jpeg", "tiff", ...
    public var format: String? {
        var name: UnsafePointer<CChar>?
        guard vips_image_get_typeof(pointer, VIPS_META_LOADER) != 0,
              vips_image_get_string(pointer, VIPS_META_LOADER, &name) == 0, let name else { return nil }
        var loader = String(cString: name)
        for suffix in ["load_buffer", "load_source", "load"] where loader.hasSuffix(suffix) {
            loader.removeLast(suffix.count)
            break
        }
        return loader
    }

    /// Decodes every pixel, so a truncated or corrupt file fails here.
    public func decodeAll() throws {
        // The mean needs every pixel, and costs no memory.
        try ImagingError.renamed("the image data is damaged") { _ = try VipsCall("avg").image("in", self).outputDouble() }
    }
}

/// The libvips version, part of every cache key: another version may make
/// other bytes.
public let libraryVersion: String = String(cString: vips_version_string())

/// Little CMS's version ("2.14"), which converts every embedded profile's
/// colours: another version may round a pixel otherwise.
public let colourLibraryVersion: String = {
    let encoded = Int(cmsGetEncodedCMMversion())
    return "\(encoded / 1000).\(encoded % 1000 / 10)"
}()

/// Keeps the process's memory bounded while libvips's worker threads run:
/// call once, in `main`, before any other thread starts.
public func boundMemoryForWorkerThreads() {
    mcvips_bound_malloc_arenas(1)
}

/// For a process that tiles and does little else (`mcpack build`): from
/// now on, not only once the tiling starts, blocks larger than a tile get
/// mappings of their own (`mcvips_fix_mmap_threshold`), so that what comes
/// before the tiling leaves no free gaps in the heap under it.
public func mapLargeBlocksFromNowOn() {
    mcvips_fix_mmap_threshold(0)
}
