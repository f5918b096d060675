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

    /// The KiB of `mapping` resident now.
    static func residentKiB(_ mapping: ClosedRange<UInt>) throws -> Int {
        let start = String(mapping.lowerBound, radix: 16) + "-"
        var inMapping = false
        for line in try String(contentsOfFile: "/proc/self/smaps", encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, fields[0].contains("-"), fields[1].count == 4 {
                inMapping = fields[0].hasPrefix(start)
            } else if inMapping, fields.count >= 2, fields[0] == "Rss:" {
                return Int(fields[1]) ?? 0
            }
        }
        Issue.record("no mapping at \(start) in /proc/self/smaps")
        return 0
    }

    @Test func aTilingUnmapsTheCodeThatRanBeforeIt() throws {
        let code = try Self.codeMapping()
        // Every page of the code read, as if all of it had run.
        var sum: UInt8 = 0
        for address in stride(from: code.lowerBound, to: code.upperBound, by: 4096) {
            sum &+= UnsafeRawPointer(bitPattern: address)!.load(as: UInt8.self)
        }
        let size = Int(code.count / 1024)
        let before = try Self.residentKiB(code)
        #expect(before > size * 9 / 10, "read \(size) KiB of code (sum \(sum)), \(before) KiB resident")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("program-code-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try VipsCall("gaussnoise").int("width", 600).int("height", 400).outputImage()
        try TilePyramid.write(image, to: folder, name: "m", settings: PyramidSettings(tileSize: 254, overlap: 1, format: "jpeg", quality: 85, layout: .deepZoom))

        // What the tiling ran, and whatever other tests ran meanwhile, is
        // back; the rest is not.
        let after = try Self.residentKiB(code)
        #expect(after < before * 3 / 4, "\(before) KiB of code resident before the tiling, \(after) KiB after")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("m_files/0/0_0.jpeg").path))
    }
}
#endif
