import Foundation

/// A BagIt manifest (`manifest-<alg>.txt`, `tagmanifest-<alg>.txt`): one
/// `<checksum> <path>` line per file (RFC 8493 §2.1.3, §2.2.1). The one
/// place manifests are written (build), read line by line (verify) and
/// compared (diff, through `ManifestDelta`).
///
/// Lines are kept as byte ranges of the text: a manifest of 17,000 lines
/// split into Swift strings, or as Characters, cost more than hashing the
/// payload, and a diff only ever looks at the few lines that differ.
///
/// A line is `checksum`, then spaces or tabs, then md5sum's optional `*`
/// binary marker, then the path to the end of the line; a CR before the
/// LF is dropped, and blank lines are skipped.
public struct Manifest: Sendable {
    /// One line, as offsets into the text: 32-bit, so that the lines of a
    /// large manifest take half the memory (callers read at most 64 MiB).
    public struct Line: Sendable {
        private let start, separator, pathStart, end, line: UInt32
        /// The path was preceded by md5sum's `*` binary marker.
        public let starred: Bool

        public init(number: Int, checksum: Range<Int>, path: Range<Int>?, starred: Bool) {
            line = UInt32(number)
            start = UInt32(checksum.lowerBound)
            separator = UInt32(checksum.upperBound)
            pathStart = path.map { UInt32($0.lowerBound) } ?? .max
            end = path.map { UInt32($0.upperBound) } ?? .max
            self.starred = starred
        }

        /// 1-based, counting every line of the text, blank ones too.
        public var number: Int { Int(line) }
        public var checksum: Range<Int> { Int(start)..<Int(separator) }
        /// nil for a line with no space or tab after its first word.
        public var path: Range<Int>? { pathStart == .max ? nil : Int(pathStart)..<Int(end) }
    }

    /// The manifest's bytes.
    public let text: Data
    /// Every line that is not blank, in order.
    public private(set) var lines: [Line] = []
    /// BagIt 1.0 percent-encodes CR, LF and % in paths; the 0.9x drafts
    /// wrote them as they are.
    public let percentEncoded: Bool

    public init(_ data: Data = Data(), percentEncoded: Bool = true) {
        precondition(data.count < UInt32.max, "a manifest of 4 GiB")
        text = data
        self.percentEncoded = percentEncoded
        lines = data.withUnsafeBytes { Self.scan($0.bindMemory(to: UInt8.self)) }
    }

    /// The checksum as written.
    public func checksum(_ line: Line) -> String {
        text.withUnsafeBytes { String(decoding: UnsafeRawBufferPointer(rebasing: $0[line.checksum]), as: UTF8.self) }
    }

    /// The checksum in lower case when it is `count` hex digits, in either
    /// case; nil for anything else. One pass over its bytes, where the
    /// string, its lowercased copy and a check of each made three for
    /// every line of a manifest of 17,000.
    public func hexChecksum(_ line: Line, count: Int) -> String? {
        let range = line.checksum
        guard range.count == count, count > 0 else { return nil }
        return text.withUnsafeBytes { raw in
            let bytes = UnsafeRawBufferPointer(rebasing: raw[range])
            var valid = true
            let lower = String(unsafeUninitializedCapacity: count) { out in
                for index in 0..<count {
                    let byte = bytes[index]
                    switch byte {
                    case 0x30...0x39, 0x61...0x66: out[index] = byte
                    case 0x41...0x46: out[index] = byte | 0x20
                    default:
                        valid = false
                        return 0
                    }
                }
                return count
            }
            return valid ? lower : nil
        }
    }

    /// The path as a name (percent-decoded, a leading `./` dropped); nil for
    /// a line without one.
    public func path(_ line: Line) -> String? {
        guard let range = line.path else { return nil }
        return text.withUnsafeBytes { Self.name(UnsafeRawBufferPointer(rebasing: $0[range]), percentEncoded: percentEncoded) }
    }

    /// Lines with md5sum's `*` marker.
    public var starredCount: Int { lines.reduce(0) { $0 + ($1.starred ? 1 : 0) } }

    // MARK: Writing

    /// A manifest's text: `<checksum>  <path>` lines, the paths encoded,
    /// in the order given.
    public static func text<Entries: Sequence>(_ entries: Entries) -> Data where Entries.Element == (checksum: String, path: String) {
        var text = ""
        for entry in entries {
            text += entry.checksum
            text += "  "
            text += encodePath(entry.path)
            text += "\n"
        }
        return Data(text.utf8)
    }

    /// RFC 8493 §2.1.3: CR, LF and % in a manifest path are percent-encoded.
    public static func encodePath(_ path: String) -> String {
        guard path.utf8.contains(where: { $0 == 0x25 || $0 == 0x0A || $0 == 0x0D }) else { return path }
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count + 6)
        for byte in path.utf8 {
            switch byte {
            case 0x25: out += [0x25, 0x32, 0x35]  // %25
            case 0x0A: out += [0x25, 0x30, 0x41]  // %0A
            case 0x0D: out += [0x25, 0x30, 0x44]  // %0D
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The reverse of `encodePath`: %25, %0A and %0D (either case) decoded;
    /// any other % is left as it is.
    public static func decodePath<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        guard bytes.contains(0x25) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            let next = bytes.index(after: index)
            if byte == 0x25, next != bytes.endIndex, bytes.index(after: next) != bytes.endIndex {
                let high = bytes[next]
                let low = bytes[bytes.index(after: next)] | 0x20  // lower case
                let decoded: UInt8? = high == 0x32 && low == 0x35 ? 0x25 : high == 0x30 && low == 0x61 ? 0x0A : high == 0x30 && low == 0x64 ? 0x0D : nil
                if let decoded {
                    out.append(decoded)
                    index = bytes.index(next, offsetBy: 2)
                    continue
                }
            }
            out.append(byte)
            index = next
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Reading

    private static func name(_ bytes: UnsafeRawBufferPointer, percentEncoded: Bool) -> String {
        var path = percentEncoded ? decodePath(bytes) : String(decoding: bytes, as: UTF8.self)
        if path.hasPrefix("./") { path.removeFirst(2) }
        return path
    }

    /// Splits the text into lines. Byte-level: it runs over every byte of
    /// two manifests at the start of each diff.
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> [Line] {
        var lines: [Line] = []
        guard let base = bytes.baseAddress else { return lines }
        let raw = UnsafeRawPointer(base)
        let count = bytes.count
        lines.reserveCapacity(count / 64 + 16)
        var start = 0
        var number = 0
        while start < count {
            number += 1
            // The checksum ends at the first space or tab; a line feed first
            // means the line has no separator. Other control bytes go on.
            var separator = start
            var lineEnd = -1
            while true {
                separator = firstControlOrSpace(raw, from: separator, to: count)
                if separator == count { lineEnd = count; break }
                let byte = bytes[separator]
                if byte == 0x20 || byte == 0x09 { break }
                if byte == 0x0A { lineEnd = separator; break }
                separator += 1
            }
            if lineEnd < 0 { lineEnd = firstByte(0x0A, raw, from: separator, to: count) }
            defer { start = lineEnd + 1 }
            var end = lineEnd
            if end > start && bytes[end - 1] == 0x0D { end -= 1 }
            guard separator < end else {
                // No separator: blank (only a CR), or a malformed line.
                if end > start { lines.append(Line(number: number, checksum: start..<end, path: nil, starred: false)) }
                continue
            }
            var pathStart = separator
            while pathStart < end && (bytes[pathStart] == 0x20 || bytes[pathStart] == 0x09) { pathStart += 1 }
            var starred = false
            if pathStart < end && bytes[pathStart] == 0x2A {
                starred = true
                pathStart += 1
            }
            if separator == start && pathStart == end && !starred { continue }  // only spaces and tabs
            lines.append(Line(number: number, checksum: start..<separator, path: pathStart..<end, starred: starred))
        }
        return lines
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The index of the first `byte` in `from..<to`, or `to`. Eight bytes
    /// a step (a zero byte of `word ^ pattern` is a match; the lowest flag
    /// set is exact, as borrows only run upwards).
    @inline(__always)
    public static func firstByte(_ byte: UInt8, _ raw: UnsafeRawPointer, from: Int, to: Int) -> Int {
        var i = from
        let pattern = ones &* UInt64(byte)
        while i + 8 <= to {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) ^ pattern
            let found = (word &- ones) & ~word & highs
            if found != 0 { return i + found.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < to && raw.load(fromByteOffset: i, as: UInt8.self) != byte { i += 1 }
        return i
    }

    /// The index of the first byte at or below 0x20 (space, tab, CR, LF and
    /// the other control bytes) in `from..<to`, or `to`: the checksum's end.
    @inline(__always)
    public static func firstControlOrSpace(_ raw: UnsafeRawPointer, from: Int, to: Int) -> Int {
        var i = from
        while i + 8 <= to {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            // A byte below 0x21 borrows when 0x21 is taken from it.
            let found = (word &- ones &* 0x21) & ~word & highs
            if found != 0 { return i + found.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < to && raw.load(fromByteOffset: i, as: UInt8.self) > 0x20 { i += 1 }
        return i
    }
}
