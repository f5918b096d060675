import CVipsShim
import Foundation

/// A failure reported by libvips, with its own explanation.
public struct ImagingError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ what: String) {
        var text = what
        if let raw = mcvips_take_error() {
            let detail = String(cString: raw).trimmingCharacters(in: .whitespacesAndNewlines)
            free(raw)
            if !detail.isEmpty { text += ": " + detail.replacingOccurrences(of: "\n", with: "; ") }
        }
        description = text
    }
}

/// libvips is started once per process, on first use.
enum Library {
    static let started: Bool = mcvips_init(CommandLine.arguments.first ?? "mcpack") == 0

    static func ensureStarted() throws {
        guard started else { throw ImagingError("libvips could not start") }
    }
}

/// Why images cannot be opened in this process (libvips missing, say), or
/// nil when they can. Loads libvips if it is not loaded yet.
public var imagingUnavailable: String? {
    do {
        try Library.ensureStarted()
        return nil
    } catch {
        return "\(error)"
    }
}

/// An image opened by libvips. Pixels are read lazily: opening reads the
/// header, so a size check on a 34,000 px scan costs almost nothing.
public final class Image: @unchecked Sendable {
    let pointer: OpaquePointer
    /// Keeps an in-memory source alive for as long as libvips may read it.
    private let source: Data?
    /// libvips computes lazily: an image made from another reads its
    /// pixels later, so the other (and its buffer) must live as long.
    private let parents: [Image]

    init(pointer: OpaquePointer, source: Data? = nil, parents: [Image] = []) {
        self.pointer = pointer
        self.source = source
        self.parents = parents
    }

    deinit { mcvips_unref(pointer) }

    /// Opens a file. `sequential` promises top-to-bottom reading, so memory
    /// grows with the width of the image, not its area.
    public convenience init(contentsOf path: String, sequential: Bool = false) throws {
        try Library.ensureStarted()
        guard let image = mcvips_image_new_from_file(path, sequential ? 1 : 0) else {
            throw ImagingError("cannot open \(path) as an image")
        }
        self.init(pointer: image)
    }

    /// Opens an image from bytes already in memory (read once, hashed once).
    public convenience init(data: Data) throws {
        try Library.ensureStarted()
        let copy = Data(data)  // a private buffer libvips may point into
        let image = copy.withUnsafeBytes { raw in
            mcvips_image_new_from_buffer(raw.baseAddress, raw.count)
        }
        guard let image else { throw ImagingError("not an image libvips can read") }
        self.init(pointer: image, source: copy)
    }

    public var width: Int { Int(mcvips_width(pointer)) }
    public var height: Int { Int(mcvips_height(pointer)) }
    public var bands: Int { Int(mcvips_bands(pointer)) }
    public var hasAlpha: Bool { mcvips_has_alpha(pointer) != 0 }

    /// The file format, by the loader that opened it: "png", "jpeg", "tiff", ...
    public var format: String? {
        guard let name = mcvips_loader(pointer) else { return nil }
        var loader = String(cString: name)
        for suffix in ["load_buffer", "load_source", "load"] where loader.hasSuffix(suffix) {
            loader.removeLast(suffix.count)
            break
        }
        return loader
    }

    /// Decodes every pixel, so a truncated or corrupt file fails here.
    public func decodeAll() throws {
        guard mcvips_decode_all(pointer) == 0 else { throw ImagingError("the image data is damaged") }
    }
}

extension Library {
    static var version: String { mcvips_version_string().map { String(cString: $0) } ?? "unavailable" }
}

/// The libvips version, part of every cache key: another version may make
/// other bytes.
public let libraryVersion: String = Library.version

/// Keeps the process's memory bounded while libvips's worker threads run:
/// call once, first thing in `main`, before any thread starts.
public func boundMemoryForWorkerThreads() {
    mcvips_bound_malloc_arenas(2)
}
