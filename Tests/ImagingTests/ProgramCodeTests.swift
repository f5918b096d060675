#if os(Linux)
import Foundation
import Imaging
import Testing

/// A tiling is a build's peak of memory: the program's code that ran
/// before it is unmapped as it starts (`mcvips_unmap_program_code`), and
/// what the tiling runs comes back from the page cache.
@Suite struct ProgramCodeTests {
    /// The program's code: its largest executable mapping of its own file.
    static func codeMapping() throws -> ClosedRange<UInt> {
        let program = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let mappings = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8).split(separator: "\n").compactMap { line -> ClosedRange<UInt>? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "r-xp", fields[5...].joined(separator: " ") == program else { return nil }
            let bounds = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
            return bounds.count == 2 ? bounds[0]...(bounds[1] - 1) : nil
        }
        return try #require(mappings.max { $0.count < $1.count })
    }

    /// Whether the page at `address` is mapped in this process: the
    /// present bit of its entry in /proc/self/pagemap.
    static func mapped(_ address: UInt) throws -> Bool {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/pagemap"))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(address / pageSize * 8))
        let entry = try #require(try handle.read(upToCount: 8))
        try #require(entry.count == 8)
        return entry[entry.startIndex + 7] & 0x80 != 0
    }

    static let pageSize = UInt(getpagesize())

    /// Under a debugger nothing is unmapped: its breakpoints are written
    /// into the code.
    static var traced: Bool {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").contains { $0.hasPrefix("TracerPid:") && $0.split(separator: "\t").last != "0" }
    }

    /// Pages read across the code are mapped; after a tiling most are not.
    /// Other tests run in this process meanwhile: their tilings unmap the
    /// pages too, and the code they run may bring a few back, hence "most".
    @Test(.enabled(if: !traced, "a debugger is attached")) func aTilingUnmapsTheCodeThatRanBeforeIt() throws {
        let code = try Self.codeMapping()
        let step = UInt(code.count) / 64 / Self.pageSize * Self.pageSize
        let pages = (0..<64).map { code.lowerBound + UInt($0) * step }
        var sum: UInt8 = 0
        for page in pages { sum &+= UnsafeRawPointer(bitPattern: page)!.load(as: UInt8.self) }

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("program-code-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try VipsCall("gaussnoise").int("width", 600).int("height", 400).outputImage()
        try TilePyramid.write(image, to: folder, name: "m", settings: PyramidSettings(tileSize: 254, overlap: 1, format: "jpeg", quality: 85, layout: .deepZoom))

        let stillMapped = try pages.filter(Self.mapped).count
        #expect(stillMapped < 32, "\(stillMapped) of the 64 pages read before the tiling are mapped after it (their bytes sum to \(sum))")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("m_files/0/0_0.jpeg").path))
    }
}
#endif
