/// The EXIF orientation tag read from bytes a file carries, where libvips
/// does not read it: ImageMagick and editors built on it keep EXIF in a
/// PNG as a text chunk, "Raw profile type exif" (a line "exif", the length,
/// then hex), and libvips reads only the eXIf chunk. Every read is bounds
/// checked: the bytes are the file's, as damaged or hostile as it is.
package enum EXIFOrientation {
    /// Hex above this many bytes is not an EXIF block a PNG would carry.
    static let largestBlock = 1 << 20

    /// The orientation in ImageMagick's "Raw profile type exif" text: nil
    /// when the text is not that, is cut short, or holds no orientation.
    package static func fromRawProfileText(_ text: [UInt8]) -> Int? {
        guard let found = firstIndex(of: Array("exif".utf8), in: text) else { return nil }
        var at = found + 4
        while at < text.count, text[at] == UInt8(ascii: "\n") || text[at] == UInt8(ascii: " ") { at += 1 }
        guard let length = declaredLength(text, &at) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        // Pairs of hex digits; whatever stands between pairs (line breaks)
        // is skipped, and a pair split by anything ends the block.
        while at < text.count, bytes.count < length {
            guard let high = hexValue(text[at]) else {
                at += 1
                continue
            }
            guard at + 1 < text.count, let low = hexValue(text[at + 1]) else { break }
            bytes.append(high << 4 | low)
            at += 2
        }
        return bytes.count == length ? fromEXIF(bytes) : nil
    }

    /// The Orientation tag (0x0112, a SHORT) of IFD0 in an EXIF block: a
    /// TIFF structure, after "Exif\0\0" or not. Nil when it has none.
    package static func fromEXIF(_ block: [UInt8]) -> Int? {
        let header = Array("Exif".utf8) + [0, 0]
        let tiff = TIFFBytes(block.starts(with: header) ? Array(block.dropFirst(header.count)) : block)
        guard let ifd = tiff.offsetOfFirstIFD, let count = tiff.u16(at: ifd) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + 12 * entry
            guard let tag = tiff.u16(at: at), let type = tiff.u16(at: at + 2), tiff.has(at + 12) else { return nil }
            if tag == 0x0112, type == 3 { return tiff.u16(at: at + 8) }
        }
        return nil
    }

    /// The decimal length before the hex, read as C's strtoul reads it
    /// (white space, a sign, digits), and `at` moved past it; nil when it
    /// is none, negative or larger than any EXIF block a PNG carries.
    static func declaredLength(_ text: [UInt8], _ at: inout Int) -> Int? {
        while at < text.count, [9, 10, 11, 12, 13, 32].contains(text[at]) { at += 1 }
        var negative = false
        if at < text.count, text[at] == UInt8(ascii: "+") || text[at] == UInt8(ascii: "-") {
            negative = text[at] == UInt8(ascii: "-")
            at += 1
        }
        var length = 0
        while at < text.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[at]) {
            // Past the limit the value no longer matters, only that it is.
            length = min(length * 10 + Int(text[at] - UInt8(ascii: "0")), largestBlock + 1)
            at += 1
        }
        return !negative && (1...largestBlock).contains(length) ? length : nil
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

/// A TIFF structure's bytes, read in the byte order its header names.
private struct TIFFBytes {
    let bytes: [UInt8]
    let bigEndian: Bool
    let valid: Bool

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        let order = bytes.count >= 8 && bytes[0] == bytes[1] ? bytes[0] : 0
        bigEndian = order == UInt8(ascii: "M")
        valid = order == UInt8(ascii: "M") || order == UInt8(ascii: "I")
    }

    /// True when the bytes reach up to (not including) `end`.
    func has(_ end: Int) -> Bool { end >= 0 && end <= bytes.count }

    func u16(at offset: Int) -> Int? {
        guard offset >= 0, has(offset + 2) else { return nil }
        let (first, second) = (Int(bytes[offset]), Int(bytes[offset + 1]))
        return bigEndian ? first << 8 | second : second << 8 | first
    }

    func u32(at offset: Int) -> Int? {
        guard let first = u16(at: offset), let second = u16(at: offset + 2) else { return nil }
        return bigEndian ? first << 16 | second : second << 16 | first
    }

    /// Where IFD0 starts, when the header is whole and says so.
    var offsetOfFirstIFD: Int? { valid ? u32(at: 4) : nil }
}
