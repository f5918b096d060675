import MCPackInputs
import MCPackBag
import Foundation

/// The gzip trailer of a .tar.gz: its CRC-32 and length. libarchive's gzip
/// reader skips them, so a damaged trailer passed verify while `gzip -t` and
/// tar refuse the file (the corruption campaign found it). zlib checks both
/// (`BagReader.gzipDamage`); this runs on a second core beside the entry stream.
enum GzipCheck {
    static func isGzip(_ path: String) -> Bool { BagReader.isGzip(path) }

    static func check(_ path: String) -> Problem? {
        guard let damage = BagReader.gzipDamage(path) else { return nil }
        return Problem((path as NSString).lastPathComponent, "gzip-stream", damage + "; gzip -t and tar refuse it")
    }
}
