import Archiving
import Foundation

/// The gzip trailer of a .tar.gz: its CRC-32 and length. libarchive's gzip
/// reader skips them, so a damaged trailer passed verify while `gzip -t` and
/// tar refuse the file (the corruption campaign found it). zlib checks both
/// (`GzipStream`); this runs on a second core beside the entry stream.
enum GzipCheck {
    static func isGzip(_ path: String) -> Bool {
        FileHandle(forReadingAtPath: path).flatMap { try? $0.read(upToCount: 2) } == Data([0x1F, 0x8B])
    }

    static func check(_ path: String) -> Problem? {
        guard let damage = GzipStream.damage(in: path) else { return nil }
        return Problem((path as NSString).lastPathComponent, "gzip-stream", damage + "; gzip -t and tar refuse it")
    }
}
