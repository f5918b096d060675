import Imaging
import Testing

/// The orientation read from EXIF bytes a file carries: whole blocks in
/// either byte order, and every way a block can be cut short or lie about
/// its offsets, which must give no orientation rather than read past it.
@Suite struct EXIFOrientationTests {
    /// A TIFF structure with IFD0 at `ifd` holding the given entries
    /// (tag, type, value), little- or big-endian.
    static func tiff(bigEndian: Bool = false, ifd: Int = 8, entries: [(Int, Int, Int)]) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] {
            let bytes = [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
            return bigEndian ? bytes : bytes.reversed()
        }
        func u32(_ value: Int) -> [UInt8] { bigEndian ? u16(value >> 16) + u16(value & 0xFFFF) : u16(value & 0xFFFF) + u16(value >> 16) }
        var bytes = Array((bigEndian ? "MM" : "II").utf8) + u16(42) + u32(ifd)
        bytes += [UInt8](repeating: 0, count: max(0, ifd - bytes.count)) + u16(entries.count)
        for (tag, type, value) in entries { bytes += u16(tag) + u16(type) + u32(1) + u16(value) + u16(0) }
        return bytes + u32(0)
    }

    @Test(arguments: [false, true]) func aWholeBlockIsRead(_ bigEndian: Bool) {
        let block = Self.tiff(bigEndian: bigEndian, entries: [(0x0100, 3, 640), (0x0112, 3, 6)])
        #expect(EXIFOrientation.fromEXIF(block) == 6)
        #expect(EXIFOrientation.fromEXIF(Array("Exif".utf8) + [0, 0] + block) == 6)
    }

    @Test func aBlockWithoutTheTagOrWithAnotherTypeHasNone() {
        #expect(EXIFOrientation.fromEXIF(Self.tiff(entries: [(0x0100, 3, 640)])) == nil)
        #expect(EXIFOrientation.fromEXIF(Self.tiff(entries: [(0x0112, 4, 6)])) == nil)
    }

    @Test func aDamagedBlockHasNone() {
        let whole = Self.tiff(entries: [(0x0100, 3, 640), (0x0112, 3, 6)])
        // Cut anywhere before the tag's value ends.
        for length in 0..<(8 + 2 + 12 + 10) {
            #expect(EXIFOrientation.fromEXIF(Array(whole.prefix(length))) == nil, "cut at \(length)")
        }
        var wrongOrder = whole
        wrongOrder[1] = UInt8(ascii: "M")
        #expect(EXIFOrientation.fromEXIF(wrongOrder) == nil)
        // IFD0 said to be past the end, or thousands of entries in a few bytes.
        var farOff = whole
        farOff.replaceSubrange(4..<8, with: [0xF0, 0xFF, 0xFF, 0xFF])
        #expect(EXIFOrientation.fromEXIF(farOff) == nil)
        var counted = Self.tiff(entries: [(0x0100, 3, 640)])
        counted.replaceSubrange(8..<10, with: [0xFF, 0xFF])
        #expect(EXIFOrientation.fromEXIF(counted) == nil)
    }

    static func rawProfileText(_ block: [UInt8], length: String? = nil) -> [UInt8] {
        let hex = block.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        return Array("\nexif\n      \(length ?? String(block.count))\n\(hex)\n".utf8)
    }

    @Test func imageMagicksTextIsRead() {
        let block = Array("Exif".utf8) + [0, 0] + Self.tiff(bigEndian: true, entries: [(0x0112, 3, 8)])
        #expect(EXIFOrientation.fromRawProfileText(Self.rawProfileText(block)) == 8)
        // Hex broken over lines, as ImageMagick writes it.
        var lines = Self.rawProfileText(block)
        lines.insert(UInt8(ascii: "\n"), at: lines.count - 21)
        #expect(EXIFOrientation.fromRawProfileText(lines) == 8)
    }

    @Test func damagedTextHasNone() {
        let block = Self.tiff(entries: [(0x0112, 3, 3)])
        #expect(EXIFOrientation.fromRawProfileText(Array("no profile here".utf8)) == nil)
        for length in ["0", "-5", "+", "", "99999999999999999999999", String(block.count + 1), "2000000"] {
            #expect(EXIFOrientation.fromRawProfileText(Self.rawProfileText(block, length: length)) == nil, "length \(length)")
        }
        // The hex cut short, or a pair split by something else.
        let text = Self.rawProfileText(block)
        #expect(EXIFOrientation.fromRawProfileText(Array(text.dropLast(3))) == nil)
        var split = text
        split.insert(UInt8(ascii: "-"), at: split.count - 10)
        #expect(EXIFOrientation.fromRawProfileText(split) == nil)
        #expect(EXIFOrientation.fromRawProfileText(Self.rawProfileText(block, length: "+\(block.count)")) == 3)
    }
}
