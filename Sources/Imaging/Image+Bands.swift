import CVipsShim
import Foundation

/// What an icon check asks of a picture's bands: is its alpha opaque
/// everywhere, are its colours grey. Each reads every pixel through
/// libvips's own operations (`extract_band`, `subtract`, `abs`, `min`,
/// `max`), called through its generic operation interface, the one
/// libvips's doc/binding.md recommends to bindings: their C functions take
/// variadic options, which Swift cannot call.
extension Image {
    /// The largest value a band of this picture holds, what libvips counts
    /// as opaque (its own rule, vips_interpretation_max_alpha, is not in
    /// 8.14's public headers): 65535 for 16-bit, 1 for scRGB, else 255.
    public var bandMaximum: Double {
        switch vips_image_get_interpretation(pointer) {
        case VIPS_INTERPRETATION_GREY16, VIPS_INTERPRETATION_RGB16: return 65535
        case VIPS_INTERPRETATION_scRGB: return 1
        default: return 255
        }
    }

    /// The smallest value of one band over every pixel.
    public func bandMinimum(_ index: Int) throws -> Double {
        try VipsCall("min").image("in", try band(index)).double("out")
    }

    /// True when there is no alpha band, or when every pixel's alpha is
    /// the largest value its format holds: the band is there, but nothing
    /// shows through.
    public func alphaIsOpaque() throws -> Bool {
        guard hasAlpha else { return true }
        return try bandMinimum(bands - 1) >= bandMaximum
    }

    /// The same picture without its alpha band, every other value as it
    /// was: for an alpha band that `alphaIsOpaque` says hides nothing.
    public func droppingAlpha() throws -> Image {
        guard hasAlpha else { return self }
        return try bands(0, count: bands - 1)
    }

    /// How far from grey the most colourful pixel is: the largest
    /// difference between its red, green and blue values, in 8-bit levels
    /// (0...255) whatever the depth. 0 for a picture of one or two bands,
    /// and for an RGB one whose every pixel has red = green = blue.
    public func largestChannelDifference() throws -> Double {
        guard bands >= 3 else { return 0 }
        let (red, green, blue) = (try band(0), try band(1), try band(2))
        var largest = 0.0
        for (a, b) in [(red, green), (green, blue), (red, blue)] {
            let difference = try VipsCall("subtract").image("left", a).image("right", b).outputImage("out", parents: [a, b])
            let size = try VipsCall("abs").image("in", difference).outputImage("out", parents: [difference])
            largest = max(largest, try VipsCall("max").image("in", size).double("out"))
        }
        return largest * 255 / bandMaximum
    }

    /// One band, as a one-band picture.
    func band(_ index: Int) throws -> Image { try bands(index, count: 1) }

    private func bands(_ first: Int, count: Int) throws -> Image {
        try VipsCall("extract_band").image("in", self).int("band", first).int("n", count).outputImage("out", parents: [self])
    }
}

/// One libvips operation set up by name, its arguments given one by one,
/// then built (through libvips's operation cache) when an output is read.
private final class VipsCall {
    private var operation: UnsafeMutablePointer<VipsOperation>
    private let name: String
    private var built = false

    init(_ name: String) throws {
        try Library.ensureStarted()
        guard let operation = vips_operation_new(name) else { throw ImagingError("libvips has no operation \(name)") }
        self.operation = operation
        self.name = name
    }

    deinit {
        vips_object_unref_outputs(object)
        g_object_unref(operation)
    }

    private var object: UnsafeMutablePointer<VipsObject> { UnsafeMutableRawPointer(operation).assumingMemoryBound(to: VipsObject.self) }
    private var gobject: UnsafeMutablePointer<GObject> { UnsafeMutableRawPointer(operation).assumingMemoryBound(to: GObject.self) }

    func image(_ argument: String, _ image: Image) -> VipsCall {
        var value = GValue()
        g_value_init(&value, vips_image_get_type())
        g_value_set_object(&value, image.pointer)
        g_object_set_property(gobject, argument, &value)
        g_value_unset(&value)
        return self
    }

    func int(_ argument: String, _ number: Int) -> VipsCall {
        var value = GValue()
        g_value_init(&value, g_type_from_name("gint"))
        g_value_set_int(&value, Int32(number))
        g_object_set_property(gobject, argument, &value)
        g_value_unset(&value)
        return self
    }

    private func build() throws {
        guard !built else { return }
        var cached: UnsafeMutablePointer<VipsOperation>? = operation
        let failed = vips_cache_operation_buildp(&cached) != 0
        // On success the cache may hand back an equal operation built
        // earlier, in place of this one.
        if let cached { operation = cached }
        guard !failed else { throw ImagingError("libvips's \(name) failed") }
        built = true
    }

    func double(_ argument: String) throws -> Double {
        try build()
        var value = GValue()
        g_value_init(&value, g_type_from_name("gdouble"))
        g_object_get_property(gobject, argument, &value)
        defer { g_value_unset(&value) }
        return g_value_get_double(&value)
    }

    /// An image output; it keeps `parents` alive, as libvips computes it
    /// from them lazily.
    func outputImage(_ argument: String, parents: [Image]) throws -> Image {
        try build()
        var value = GValue()
        g_value_init(&value, vips_image_get_type())
        g_object_get_property(gobject, argument, &value)
        defer { g_value_unset(&value) }
        guard let raw = g_value_get_object(&value) else { throw ImagingError("libvips's \(name) made no image") }
        g_object_ref(raw)
        return Image(pointer: raw.assumingMemoryBound(to: VipsImage.self), parents: parents)
    }
}
