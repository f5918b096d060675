import Foundation

/// What an image file's bytes tell before any pixel is decoded: that it is
/// empty, or that a PNG is cut short or claims more pixels than its data
/// could hold. Opening an image reads only its header, so without this a
/// damaged master passed every check and failed part-way through tiling
/// with "libpng read error". Other formats are left to libvips.
package enum ImageFileCheck {
    package static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Deflate never shrinks data more than 1032 to 1, so compressed image
    /// data of n bytes cannot hold more than about 1032 * n bytes of pixels.
    package static let deflateMaxRatio = 1032

    /// The kind of picture file mcpack does not take, named as its maker
    /// would ("a Photoshop document (PSD)"), from its first bytes; nil for
    /// TIFF, PNG, JPEG and anything it does not recognise.
    package static func foreignKind(_ head: [UInt8]) -> String? {
        func starts(_ text: String, at offset: Int = 0) -> Bool { head.starts(with: Array(text.utf8), at: offset) }
        if starts("8BPS") { return "a Photoshop document (PSD)" }
        if starts("GIF8") { return "a GIF" }
        if starts("BM") { return "a BMP" }
        if head.starts(with: Signatures.riff, at: 0), head.starts(with: Signatures.webp, at: 8) { return "a WebP" }
        if starts("ftypheic", at: 4) || starts("ftypheix", at: 4) || starts("ftypmif1", at: 4) { return "a HEIC" }
        if starts("ftypavif", at: 4) { return "an AVIF" }
        if head.starts(with: Signatures.pdf, at: 0) { return "a PDF" }
        if Signatures.jpeg2000.contains(where: { head.starts(with: $0, at: 0) }) { return "a JPEG 2000" }
        return nil
    }

    /// Whether the bytes may be a picture only one of libvips's optional
    /// loaders reads (`OptionalLoaders`): a PDF (`%PDF` in its first
    /// kilobyte, where newer libvips looks for it), a HEIF or AVIF, a JPEG
    /// XL, a picture ImageMagick reads as text (XPM, XBM, its own pixel
    /// list), or anything else but what libvips reads itself from memory
    /// (PNG, JPEG, GIF, WebP, TIFF, JPEG 2000; SVG as text) and text.
    package static func needsOptionalLoader<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        // Asked of every file verify keeps bytes of (thousands of tiles'
        // heads): the signatures first, from a few bytes.
        let start = Array(bytes.prefix(16))
        if start.isEmpty { return false }
        if Signatures.optional.contains(where: { start.starts(with: $0.bytes, at: $0.offset) }) { return true }
        if Signatures.own.contains(where: { start.starts(with: $0.bytes, at: $0.offset) })
            || (start.starts(with: Signatures.riff, at: 0) && start.starts(with: Signatures.webp, at: 8)) { return false }
        let head = Array(bytes.prefix(1024))
        if head.indices.contains(where: { head.starts(with: Signatures.pdf, at: $0) }) { return true }
        if Signatures.imageMagickText.contains(where: { head.starts(with: $0, at: 0) }) { return true }
        // Text: JSON, the tag files, a page, an SVG (which libvips reads).
        return !head.prefix(64).allSatisfy { $0 >= 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0C || $0 == 0x0D }
    }

    private enum Signatures {
        /// HEIF and AVIF (an ISO media file's `ftyp` box), JPEG XL's
        /// codestream and its container's first box.
        static let optional: [(bytes: [UInt8], offset: Int)] = [
            (Array("ftyp".utf8), 4), ([0xFF, 0x0A], 0), ([0, 0, 0, 0x0C] + Array("JXL ".utf8), 0),
        ]
        /// PNG, JPEG, GIF, TIFF (both byte orders), JPEG 2000.
        static let own: [(bytes: [UInt8], offset: Int)] = [
            (pngSignature, 0), ([0xFF, 0xD8, 0xFF], 0), (Array("GIF8".utf8), 0), (Array("II*".utf8) + [0], 0),
            (Array("MM".utf8) + [0, 0x2A], 0),
        ] + jpeg2000.map { ($0, 0) }
        /// JPEG 2000: its box and its codestream.
        static let jpeg2000: [[UInt8]] = [[0, 0, 0, 0x0C] + Array("jP  ".utf8), [0xFF, 0x4F, 0xFF, 0x51]]
        static let riff = Array("RIFF".utf8)
        static let webp = Array("WEBP".utf8)
        static let pdf = Array("%PDF".utf8)
        static let imageMagickText = ["/* XPM */", "#define", "# ImageMagick"].map { Array($0.utf8) }
    }

    /// `foreignKind` of the file at `path`.
    package static func foreignKind(atPath path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return foreignKind([UInt8]((try? handle.read(upToCount: 16)) ?? Data()))
    }

    /// The problem with an image already read into memory, or nil.
    package static func problem(in data: Data) -> String? {
        problem(size: data.count) { offset, count in
            let start = data.startIndex + offset
            return [UInt8](data[start..<min(start + count, data.endIndex)])
        }
    }

    /// The problem with the image file at `path`, or nil. Reads only the
    /// chunk headers, so a master of gigabytes costs milliseconds.
    package static func problem(atPath path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd() else { return nil }
        return problem(size: Int(size)) { offset, count in
            guard (try? handle.seek(toOffset: UInt64(offset))) != nil,
                  let data = try? handle.read(upToCount: count) else { return [] }
            return [UInt8](data)
        }
    }

    private static func problem(size: Int, read: (_ offset: Int, _ count: Int) -> [UInt8]) -> String? {
        if size == 0 { return "is empty (0 bytes); export or copy the image again" }
        if read(0, 24) == Array("version https://git-lfs.".utf8) {
            return "is a Git LFS pointer (a small text file that stands for the image), not the image itself; run `git lfs pull` to fetch it"
        }
        guard size >= 8, read(0, 8) == pngSignature else { return nil }
        var offset = 8
        var last = "signature"
        var header: (width: Int, height: Int, bitsPerPixel: Int)?
        var imageData = 0
        while true {
            guard offset < size else {
                return cutShort(size, "after its \(last)\(last == "signature" ? "" : " chunk")", noImageData: imageData == 0)
            }
            let head = read(offset, 8)
            guard head.count == 8 else { return cutShort(size, "inside a chunk header", noImageData: imageData == 0) }
            let length = head[0..<4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: head[4..<8], as: UTF8.self)
            guard offset + 12 + length <= size else {
                return cutShort(size, "inside its \(type) chunk", noImageData: imageData == 0 && type != "IDAT")
            }
            if type == "IHDR", length >= 13 {
                let fields = read(offset + 8, 13)
                let number = { (range: Range<Int>) in fields[range].reduce(0) { $0 << 8 | Int($1) } }
                let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(fields[9])] ?? 1
                header = (number(0..<4), number(4..<8), channels * Int(fields[8]))
            }
            if type == "IDAT" { imageData += length }
            if type == "IEND" { break }
            last = type
            offset += 12 + length
        }
        if let header {
            // Each row is a filter byte and its pixels; in Double, as a
            // damaged header may claim sizes whose product overflows Int.
            let pixelBytes = Double(header.height) * (1 + (Double(header.width) * Double(header.bitsPerPixel) / 8).rounded(.up))
            if pixelBytes / Double(deflateMaxRatio) > Double(imageData + 64) {
                return "its header claims \(header.width) x \(header.height) px, but it holds only \(imageData) bytes of compressed image data, "
                    + "far too few for that many pixels: the header is wrong or the file is damaged"
            }
        }
        return nil
    }

    private static func cutShort(_ size: Int, _ place: String, noImageData: Bool) -> String {
        let data = noImageData ? ", before any image data" : ""
        return "is cut short: the PNG file ends after \(size) bytes, \(place)\(data), with no IEND chunk; export or copy it again"
    }
}

private extension Array where Element == UInt8 {
    func starts(with signature: [UInt8], at offset: Int) -> Bool {
        count >= offset + signature.count && self[offset..<(offset + signature.count)].elementsEqual(signature)
    }
}
