import CVipsShim
import Foundation

/// Colour warnings libvips has given so far. When it cannot use an embedded
/// profile ("fallback", "does not support ... intent") it warns and carries
/// on as if the pixels were sRGB: no error, no flag on the image, only the
/// words of its warning. mcpack counts them around a conversion it checks,
/// so a conversion that did not happen is an error, not a record.
enum ColourWarnings {
    private final class Count: @unchecked Sendable {
        private let lock = NSLock()
        private var seen = 0

        var value: Int { lock.withLock { seen } }
        func add() { lock.withLock { seen += 1 } }
    }

    /// Warnings come from libvips's worker threads.
    private static let count = Count()

    static var seen: Int { count.value }

    /// Takes over libvips's warnings; call once, after libvips starts.
    static func listen() {
        let levels = G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_MESSAGE.rawValue | G_LOG_LEVEL_INFO.rawValue
        g_log_set_handler("VIPS", GLogLevelFlags(rawValue: levels), { _, _, message, _ in
            // Nothing is printed: libvips's other warnings ("Not enough
            // image data") repeat the errors mcpack reports itself, with the
            // file name, from libvips's error buffer.
            guard let message else { return }
            let text = String(cString: message)
            if ["intent", "fallback", "profile"].contains(where: { text.contains($0) }) { ColourWarnings.count.add() }
        }, nil)
    }
}
