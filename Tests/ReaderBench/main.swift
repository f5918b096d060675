// mcpack-reader-bench BAG: what MCPackReader costs an app holding the
// unpacked bag at BAG. It verifies every file (as the kiosk's first launch
// after a new bundle does), then gives the decoded bytes of the tiles in
// view for a full-screen viewport on each iPad screen, portrait and
// landscape, at every level of the pyramid (the level shown at one screen
// pixel a pixel), and the most any zoom needs. Prints one JSON object;
// scripts/bench.sh turns it into rows of bench/results.md.
import Foundation
import MCPackReader

/// The iPad screens in pixels, portrait (REFERENCE.md, Launch screens).
let screens = [(768, 1024), (1536, 2048), (1620, 2160), (1640, 2360), (1668, 2224), (1668, 2388), (2048, 2732)]

struct Report: Encodable {
    struct Level: Encodable {
        var level: Int
        var downsample: Int
        var width: Int
        var height: Int
        /// Bytes for each screen, portrait then landscape, in `screens` order.
        var portrait: [Int]
        var landscape: [Int]
    }

    var bag: String
    var document: String
    var files: Int
    var problems: [String]
    var verifySeconds: Double
    /// The process's peak resident memory after verifying (VmHWM), in KiB.
    var peakRSSKiB: Int?
    var screens: [String]
    var levels: [Level]
    /// The most any zoom needs, portrait and landscape, per screen.
    var anyZoomPortrait: [Int]
    var anyZoomLandscape: [Int]
}

/// Linux's high-water mark of resident memory; nil where /proc is absent.
func peakRSS() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
    return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" })[1])
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: mcpack-reader-bench BAG (the unpacked bag's top folder)\n".utf8))
    exit(2)
}
let bundle: KioskBundle
do { bundle = try KioskBundle(folder: URL(fileURLWithPath: arguments[1])) } catch {
    FileHandle.standardError.write(Data("mcpack-reader-bench: \(error)\n".utf8))
    exit(2)
}
var files = 0
let started = Date()
let problems = bundle.verify { done, total in files = total; _ = done }
let seconds = Date().timeIntervalSince(started)
let peak = peakRSS()

let document = bundle.document
func sizes(_ portrait: Bool) -> [CGSize] {
    screens.map { portrait ? CGSize(width: $0.0, height: $0.1) : CGSize(width: $0.1, height: $0.0) }
}
let report = Report(
    bag: arguments[1], document: document.description, files: files, problems: problems.map(\.description),
    verifySeconds: seconds, peakRSSKiB: peak, screens: screens.map { "\($0.0) x \($0.1)" },
    levels: document.levels.map { level in
        Report.Level(level: level.level, downsample: level.downsample, width: level.width, height: level.height,
                     portrait: sizes(true).map { document.decodedBytes(viewport: $0, in: level) },
                     landscape: sizes(false).map { document.decodedBytes(viewport: $0, in: level) })
    },
    anyZoomPortrait: sizes(true).map { document.decodedBytes(viewport: $0) },
    anyZoomLandscape: sizes(false).map { document.decodedBytes(viewport: $0) })
let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
FileHandle.standardOutput.write(try! encoder.encode(report))
FileHandle.standardOutput.write(Data("\n".utf8))
exit(problems.isEmpty ? 0 : 1)
