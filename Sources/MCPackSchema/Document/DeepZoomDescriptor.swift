import Foundation

/// A Deep Zoom descriptor (`<name>.dzi`), as dzsave writes it:
/// `<Image TileSize=".." Overlap=".." Format=".."><Size Width=".." Height=".."/></Image>`.
/// Read by its attributes, as viewers do, with no XML library (the app
/// reading it links nothing but Foundation).
public struct DeepZoomDescriptor: Sendable, Equatable {
    public var tileSize: Int
    public var overlap: Int
    /// The tiles' file extension.
    public var format: String
    public var width: Int
    public var height: Int

    public init(tileSize: Int, overlap: Int, format: String, width: Int, height: Int) {
        self.tileSize = tileSize
        self.overlap = overlap
        self.format = format
        self.width = width
        self.height = height
    }

    /// nil when a field is missing or a size is not positive.
    public init?(_ data: Data) {
        guard let text = String(data: data, encoding: .utf8) else { return nil }
        func attribute(_ name: String) -> String? {
            // The first `name="`, to the next quote; by the standard
            // library, as Foundation's search starts ICU.
            guard let start = text.firstRange(of: "\(name)=\"")?.upperBound,
                  let end = text[start...].firstIndex(of: "\"") else { return nil }
            return String(text[start..<end])
        }
        guard let tileSize = attribute("TileSize").flatMap(Int.init), let overlap = attribute("Overlap").flatMap(Int.init),
              let format = attribute("Format"), let width = attribute("Width").flatMap(Int.init),
              let height = attribute("Height").flatMap(Int.init), tileSize > 0, overlap >= 0, width > 0, height > 0
        else { return nil }
        self.init(tileSize: tileSize, overlap: overlap, format: format, width: width, height: height)
    }

    /// A tile's path inside the pyramid's `<name>_files/` folder, as dzsave
    /// names it: `<level>/<column>_<row>.<format>`.
    public static func tilePath(level: Int, column: Int, row: Int, format: String) -> String {
        "\(level)/\(column)_\(row).\(format)"
    }

    /// The level, column and row a name inside `<name>_files/` gives, read
    /// as `tilePath` writes it (decimal numbers without a leading zero, the
    /// extension `format`); nil for any other name. Asked of each of a
    /// pyramid's 17,000 tiles by verify, which counts them against what the
    /// descriptor implies rather than making the 17,000 names to look up.
    public static func tileIndex(of name: Substring, format: String) -> (level: Int, column: Int, row: Int)? {
        var name = name
        return name.withUTF8 { tileIndex(of: $0, format: format) }
    }

    private static func tileIndex(of name: UnsafeBufferPointer<UInt8>, format: String) -> (level: Int, column: Int, row: Int)? {
        var rest = name[...]
        func number(until end: UInt8) -> Int? {
            guard let stop = rest.firstIndex(of: end) else { return nil }
            let digits = rest[..<stop]
            guard !digits.isEmpty, digits.count <= 9, digits.first != UInt8(ascii: "0") || digits.count == 1,
                  digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            rest = rest[rest.index(after: stop)...]
            return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        guard let level = number(until: UInt8(ascii: "/")), let column = number(until: UInt8(ascii: "_")),
              let row = number(until: UInt8(ascii: ".")), rest.elementsEqual(format.utf8) else { return nil }
        return (level, column, row)
    }

    public var geometry: PyramidGeometry { PyramidGeometry(width: width, height: height, tileSize: tileSize, overlap: overlap) }
}
