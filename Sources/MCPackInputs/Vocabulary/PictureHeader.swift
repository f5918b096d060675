import Foundation

/// The pixel size a JPEG, PNG or WebP file declares, from its first bytes.
/// verify checks the size of every tile of a pyramid (tens of thousands
/// for a large master) while it streams the archive; opening each through
/// libvips would hold every tile in memory first. No pixel is decoded.
package enum PictureHeader {
    package static func size(of data: Data) -> (width: Int, height: Int)? {
        let b = [UInt8](data)
        func be16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
        func le16(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
        func le24(_ i: Int) -> Int { le16(i) | Int(b[i + 2]) << 16 }
        if b.count >= 24, b[0..<8].elementsEqual(ImageFileCheck.pngSignature), String(decoding: b[12..<16], as: UTF8.self) == "IHDR" {
            return (be32(16), be32(20))
        }
        if b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 {
            // Markers until a start of frame (SOF0...SOF15, less DHT, JPG, DAC).
            var i = 2
            while i + 4 <= b.count {
                guard b[i] == 0xFF else { return nil }
                let marker = b[i + 1]
                if marker == 0xFF { i += 1; continue }
                if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
                let length = be16(i + 2)
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    guard i + 9 <= b.count else { return nil }
                    return (be16(i + 7), be16(i + 5))
                }
                i += 2 + length
            }
            return nil
        }
        if b.count >= 30, String(decoding: b[0..<4], as: UTF8.self) == "RIFF", String(decoding: b[8..<12], as: UTF8.self) == "WEBP" {
            switch String(decoding: b[12..<16], as: UTF8.self) {
            case "VP8 " where b[23] == 0x9D && b[24] == 0x01 && b[25] == 0x2A:
                return (le16(26) & 0x3FFF, le16(28) & 0x3FFF)
            case "VP8L" where b[20] == 0x2F:
                let bits = Int(b[21]) | Int(b[22]) << 8 | Int(b[23]) << 16 | Int(b[24]) << 24
                return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
            case "VP8X":
                return (le24(24) + 1, le24(27) + 1)
            default:
                return nil
            }
        }
        return nil
    }
}
