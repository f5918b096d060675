import Foundation
import Imaging

/// An 8-bit RGB picture's pixels in memory, read through libvips (as a
/// PPM file): for references libvips has no operation for, and for a
/// difference per band.
struct Pixels: Equatable {
    var width: Int
    var height: Int
    /// Row by row, R, G, B.
    var bytes: [UInt8]

    init(width: Int, height: Int, bytes: [UInt8]) {
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    init(_ image: Image) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-reader-\(UUID().uuidString).ppm")
        defer { try? FileManager.default.removeItem(at: file) }
        try image.srgb().write(to: file.path)
        let data = [UInt8](try Data(contentsOf: file))
        // "P6", width, height, maximum, each after white space, then one
        // white-space byte and the pixels.
        var fields: [Int] = []
        var index = 2
        while fields.count < 3 {
            while data[index] == 0x20 || data[index] == 0x0A || data[index] == 0x09 || data[index] == 0x0D { index += 1 }
            var value = 0
            while (0x30...0x39).contains(data[index]) {
                value = value * 10 + Int(data[index] - 0x30)
                index += 1
            }
            fields.append(value)
        }
        precondition(data[0] == 0x50 && data[1] == 0x36 && fields[2] == 255, "not an 8-bit binary PPM")
        self.init(width: fields[0], height: fields[1], bytes: Array(data[(index + 1)...]))
        precondition(bytes.count == width * height * 3)
    }

    /// Half the size, each pixel the mean of 2 x 2 (rounded), an odd last
    /// row or column averaged with a copy of itself: how libvips's dzsave
    /// makes each level from the one above.
    func halved() -> Pixels {
        let (w, h) = ((width + 1) / 2, (height + 1) / 2)
        var out = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            let (y0, y1) = (2 * y, min(2 * y + 1, height - 1))
            for x in 0..<w {
                let (x0, x1) = (2 * x, min(2 * x + 1, width - 1))
                for band in 0..<3 {
                    let sum = Int(bytes[(y0 * width + x0) * 3 + band]) + Int(bytes[(y0 * width + x1) * 3 + band])
                        + Int(bytes[(y1 * width + x0) * 3 + band]) + Int(bytes[(y1 * width + x1) * 3 + band])
                    out[(y * w + x) * 3 + band] = UInt8((sum + 2) / 4)
                }
            }
        }
        return Pixels(width: w, height: h, bytes: out)
    }

    func cropped(x: Int, y: Int, width w: Int, height h: Int) -> Pixels {
        var out: [UInt8] = []
        out.reserveCapacity(w * h * 3)
        for row in y..<(y + h) { out += bytes[((row * width + x) * 3)..<((row * width + x + w) * 3)] }
        return Pixels(width: w, height: h, bytes: out)
    }

    /// The mean absolute difference of each band, 0...255.
    func meanDifference(to other: Pixels) -> [Double] {
        precondition(width == other.width && height == other.height, "\(width) x \(height) against \(other.width) x \(other.height)")
        var sums = [0, 0, 0]
        for i in bytes.indices { sums[i % 3] += abs(Int(bytes[i]) - Int(other.bytes[i])) }
        return sums.map { Double($0) / Double(width * height) }
    }

    /// The largest difference, over every `block` x `block` px block and
    /// band, of the two pictures' block means: a tile left out or put in
    /// the wrong place moves some block far, where JPEG's noise averages out.
    func largestBlockDifference(to other: Pixels, block: Int = 8) -> Double {
        precondition(width == other.width && height == other.height)
        var largest = 0.0
        for top in stride(from: 0, to: height, by: block) {
            for left in stride(from: 0, to: width, by: block) {
                var sums = [0, 0, 0]
                let (bottom, right) = (min(top + block, height), min(left + block, width))
                for y in top..<bottom {
                    for x in left..<right {
                        for band in 0..<3 {
                            let i = (y * width + x) * 3 + band
                            sums[band] += Int(bytes[i]) - Int(other.bytes[i])
                        }
                    }
                }
                let count = Double((bottom - top) * (right - left))
                largest = max(largest, sums.map { abs(Double($0)) / count }.max()!)
            }
        }
        return largest
    }
}
