import Archiving
import Foundation

/// A fresh folder under the system's temporary one, removed by `remove()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-boundary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

extension Data {
    /// Bytes that deflate well but not to nothing.
    static func pattern(_ count: Int, seed: Int = 1) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: ($0 / 7) &* 31 &+ seed) })
    }
}

/// What the executable does first thing, done once for this process (it
/// writes zips too): zip times in UTC. Once, as setenv is not thread-safe
/// and tests run in parallel.
enum ProcessSetUp {
    static let done: Void = { ArchiveTimes.useUTC(); ArchiveNames.useUTF8() }()
}
