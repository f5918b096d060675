/// What a path inside a bag may be: the one rule the packager's bag reader
/// (archive entries, manifest lines, fetch.txt) and the app's MCPackReader
/// (manifest lines) both apply, so the app never checks less than the
/// packager. A path that would land outside the bag when unpacked or
/// opened (absolute, a drive letter, `~user`, a `..` past the top) or that
/// cannot be shown or typed (control characters) is refused.
public enum BagPath {
    /// Why a path is refused.
    public enum Unsafe: Error, Sendable, Equatable {
        case controlCharacters, absolute, home, dotDot

        /// The verify rule that names it.
        public var rule: String { self == .controlCharacters ? "unsafe-name" : "unsafe-path" }

        public var message: String {
            switch self {
            case .controlCharacters: return "the name holds control characters"
            case .absolute: return "absolute path; every entry must stay inside the bag"
            case .home: return "a path starting with ~ names another user's home"
            case .dotDot: return "a .. component leads outside the bag"
            }
        }
    }

    /// True for a path that needs no checking beyond this scan and no
    /// normalising: no control characters or backslashes, no empty, "." or
    /// ".." component (nor any starting with "."), not absolute, no "~" or
    /// drive letter. The common case, kept from splitting into components.
    public static func isPlain(_ path: String) -> Bool {
        // Asked of every entry of an archive: its bytes walked in place.
        let plain: (UnsafeBufferPointer<UInt8>) -> Bool = { bytes in
            var previous: UInt8 = 0x2F
            for (index, byte) in bytes.enumerated() {
                if byte < 0x20 || byte == 0x7F || byte == 0x5C { return false }
                if previous == 0x2F && (byte == 0x2F || byte == 0x2E || byte == 0x7E) { return false }
                if index == 1 && byte == 0x3A { return false }
                previous = byte
            }
            return !bytes.isEmpty && previous != 0x2F
        }
        return PathBytes.withBytes(path, plain)
    }

    /// The `/`-separated components of a path as stored, "." and empty ones
    /// dropped, or why it is unsafe. With `resolvingDotDot` (a manifest
    /// line, which names a file rather than places one) a `..` that stays
    /// inside is resolved; otherwise any `..` is refused, as an archive
    /// entry's is. Byte-level, without Foundation: it runs once per entry
    /// and per manifest line, tens of thousands of times in a large bag.
    public static func components(_ path: String, resolvingDotDot: Bool = false) -> Result<[String], Unsafe> {
        let bytes = Array(path.utf8)
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return .failure(.controlCharacters) }
        let driveLetter = bytes.count >= 2 && bytes[1] == UInt8(ascii: ":") && (bytes[0] | 0x20) >= UInt8(ascii: "a") && (bytes[0] | 0x20) <= UInt8(ascii: "z")
        if bytes.first == UInt8(ascii: "/") || bytes.first == UInt8(ascii: "\\") || driveLetter { return .failure(.absolute) }
        if bytes.first == UInt8(ascii: "~") { return .failure(.home) }
        var stack: [String] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            if component == "." { continue }
            // A Windows tool unpacking the bag reads a backslash as a separator.
            if component.hasSuffix("\\..") || component.hasPrefix("..\\") { return .failure(.dotDot) }
            if component == ".." {
                guard resolvingDotDot, !stack.isEmpty else { return .failure(.dotDot) }
                stack.removeLast()
                continue
            }
            stack.append(String(component))
        }
        return .success(stack)
    }
}
