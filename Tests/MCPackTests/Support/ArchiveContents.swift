import Foundation
import Archiving
@testable import MCPackKit

/// Every regular file of an archive, by path inside it, read with the
/// kit's own libarchive reader.
func archiveContents(_ path: URL) throws -> [String: Data] {
    let reader = try ArchiveReader(path: path.path)
    var files: [String: Data] = [:]
    while let entry = try reader.next() {
        var data = Data()
        try reader.readData { data.append(contentsOf: $0) }
        files[entry.path ?? "?"] = data
    }
    return files
}

/// What the executable does first thing, done once for this process (some
/// tests write zips in-process): zip times in UTC. Once, as setenv is not
/// thread-safe and tests run in parallel.
enum ProcessSetUp {
    static let done: Void = { ArchiveTimes.useUTC(); ArchiveNames.useUTF8() }()
}
