import CVipsShim
import Foundation

/// One libvips operation set up by name, its arguments given one by one,
/// then built (through libvips's operation cache) when an output is read.
/// This is libvips's generic operation interface, the one its
/// doc/binding.md recommends to bindings: the C function of each operation
/// takes variadic options, which Swift cannot call, and this needs no C
/// wrapper per operation. It is what the variadic functions do inside, so
/// the pixels are the same.
///
/// Package-wide so the test pictures (ImagingTestSupport) are made from
/// libvips's operations without the product carrying them or seeing a C
/// pointer: every argument and result is a Swift value or an `Image`.
package final class VipsCall {
    private var operation: UnsafeMutablePointer<VipsOperation>
    private let name: String
    private var built = false
    /// The images given, which an output is computed from lazily: it keeps
    /// them (and whatever buffers they point into) alive.
    private var inputs: [Image] = []
    /// An argument that could not be set; reported when the call is built,
    /// so a chain of arguments reads as one expression.
    private var misuse: String?

    package init(_ name: String) throws {
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

    /// Sets `argument` to a value of the type the operation declares for
    /// it, after checking that type is of the `fundamental` kind the
    /// caller fills in: GLib would ignore a value of another kind silently.
    private func set(_ argument: String, _ fundamental: String, _ fill: (UnsafeMutablePointer<GValue>) -> Void) -> VipsCall {
        guard misuse == nil else { return self }
        var spec: UnsafeMutablePointer<GParamSpec>?
        var argumentClass: UnsafeMutablePointer<VipsArgumentClass>?
        var instance: UnsafeMutablePointer<VipsArgumentInstance>?
        guard vips_object_get_argument(object, argument, &spec, &argumentClass, &instance) == 0, let type = spec?.pointee.value_type else {
            misuse = "libvips's \(name) has no argument \(argument)"
            return self
        }
        guard g_type_fundamental(type) == g_type_from_name(fundamental) else {
            misuse = "libvips's \(name) takes no \(fundamental) as \(argument)"
            return self
        }
        var value = GValue()
        g_value_init(&value, type)
        fill(&value)
        g_object_set_property(gobject, argument, &value)
        g_value_unset(&value)
        return self
    }

    @discardableResult
    package func image(_ argument: String, _ image: Image) -> VipsCall {
        inputs.append(image)
        return set(argument, "GObject") { g_value_set_object($0, image.pointer) }
    }

    @discardableResult
    package func images(_ argument: String, _ images: [Image]) -> VipsCall {
        inputs += images
        return set(argument, "GBoxed") { value in
            var pointers: [UnsafeMutablePointer<VipsImage>?] = images.map(\.pointer)
            // The array holds its own reference to each image.
            guard let array = vips_array_image_new(&pointers, Int32(pointers.count)) else { return }
            g_value_set_boxed(value, array)
            vips_area_unref(UnsafeMutableRawPointer(array).assumingMemoryBound(to: VipsArea.self))
        }
    }

    /// A libvips object that is not an image (a target to write to).
    func object(_ argument: String, _ pointer: UnsafeMutableRawPointer) -> VipsCall {
        set(argument, "GObject") { g_value_set_object($0, pointer) }
    }

    @discardableResult
    package func int(_ argument: String, _ number: Int) -> VipsCall {
        set(argument, "gint") { g_value_set_int($0, Int32(number)) }
    }

    @discardableResult
    package func double(_ argument: String, _ number: Double) -> VipsCall {
        set(argument, "gdouble") { g_value_set_double($0, number) }
    }

    @discardableResult
    package func doubles(_ argument: String, _ numbers: [Double]) -> VipsCall {
        set(argument, "GBoxed") { value in numbers.withUnsafeBufferPointer { vips_value_set_array_double(value, $0.baseAddress, Int32($0.count)) } }
    }

    @discardableResult
    package func bool(_ argument: String, _ flag: Bool) -> VipsCall {
        set(argument, "gboolean") { g_value_set_boolean($0, flag ? 1 : 0) }
    }

    @discardableResult
    package func string(_ argument: String, _ text: String) -> VipsCall {
        set(argument, "gchararray") { g_value_set_string($0, text) }
    }

    /// An enumeration by its C value (VIPS_INTERPRETATION_sRGB).
    @discardableResult
    func enumeration<Value: RawRepresentable>(_ argument: String, _ value: Value) -> VipsCall where Value.RawValue: BinaryInteger {
        set(argument, "GEnum") { g_value_set_enum($0, Int32(truncatingIfNeeded: value.rawValue)) }
    }

    /// An enumeration by libvips's nickname for the value ("rgb16", "d90").
    @discardableResult
    package func enumeration(_ argument: String, nick: String) -> VipsCall {
        set(argument, "GEnum") { value in
            let raw = vips_enum_from_nick(name, valueType(value), nick)
            if raw < 0 { misuse = "libvips's \(name) takes no \(nick) as \(argument)" } else { g_value_set_enum(value, raw) }
        }
    }

    /// Builds the operation: for those with no output to read (savers).
    package func run() throws {
        guard !built else { return }
        if let misuse { throw ImagingError(misuse) }
        var cached: UnsafeMutablePointer<VipsOperation>? = operation
        let failed = vips_cache_operation_buildp(&cached) != 0
        // On success the cache may hand back an equal operation built
        // earlier, in place of this one.
        if let cached { operation = cached }
        guard !failed else { throw ImagingError("libvips's \(name) failed") }
        built = true
    }

    private func output(_ argument: String, _ type: GType, _ read: (UnsafeMutablePointer<GValue>) throws -> Void) throws {
        try run()
        var value = GValue()
        g_value_init(&value, type)
        g_object_get_property(gobject, argument, &value)
        defer { g_value_unset(&value) }
        try read(&value)
    }

    package func outputDouble(_ argument: String = "out") throws -> Double {
        var number = 0.0
        try output(argument, g_type_from_name("gdouble")) { number = g_value_get_double($0) }
        return number
    }

    /// An image output. It keeps the images it was computed from alive
    /// (and `parents`, for an input given other than as an argument), as
    /// libvips computes it from them lazily.
    package func outputImage(_ argument: String = "out", parents: [Image] = []) throws -> Image {
        var raw: UnsafeMutableRawPointer?
        try output(argument, vips_image_get_type()) { value in
            raw = g_value_get_object(value)
            if let raw { g_object_ref(raw) }
        }
        guard let raw else { throw ImagingError("libvips's \(name) made no image") }
        return Image(pointer: raw.assumingMemoryBound(to: VipsImage.self), parents: inputs + parents)
    }
}

/// GLib's G_VALUE_TYPE, a macro Swift cannot call.
private func valueType(_ value: UnsafeMutablePointer<GValue>) -> GType { value.pointee.g_type }

/// The steps Imaging takes most, named as libvips's C convenience functions are.
extension Image {
    /// a x value + b, in every band.
    func linear(_ a: Double, _ b: Double, uchar: Bool = false) throws -> Image {
        let call = try VipsCall("linear").image("in", self).doubles("a", [a]).doubles("b", [b])
        if uchar { call.bool("uchar", true) }
        return try call.outputImage()
    }

    func cast(_ format: VipsBandFormat) throws -> Image {
        try VipsCall("cast").image("in", self).enumeration("format", format).outputImage()
    }

    func colourspace(_ space: VipsInterpretation) throws -> Image {
        try VipsCall("colourspace").image("in", self).enumeration("space", space).outputImage()
    }

    /// The same pixels, said to be in `space`.
    func interpreted(as space: VipsInterpretation) throws -> Image {
        try VipsCall("copy").image("in", self).enumeration("interpretation", space).outputImage()
    }

    func extractBands(_ first: Int, count: Int) throws -> Image {
        try VipsCall("extract_band").image("in", self).int("band", first).int("n", count).outputImage()
    }
}
