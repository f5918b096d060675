import Foundation
import MCPackSchema

/// The lines in which two payload manifests differ, found without turning
/// the 17,000 lines they share into strings: a diff of a large bundle is
/// mostly this comparison, and only the few hundred paths that differ are
/// ever looked at by name.
package struct ManifestDelta {
    /// Payload path to its checksum before and after; nil where it is absent.
    package private(set) var paths: [String: (old: String?, new: String?)] = [:]

    package init(old: Manifest, new: Manifest) {
        let a = Self.ordered(old)
        let b = Self.ordered(new)
        old.text.withUnsafeBytes { p in
            new.text.withUnsafeBytes { q in
                var i = 0
                var j = 0
                while i < a.count || j < b.count {
                    let order = i == a.count ? 1 : j == b.count ? -1 : Self.compare(p, a[i].path!, q, b[j].path!)
                    if order < 0 {
                        record(old.path(a[i])!, old: old.checksum(a[i]), new: nil)
                        i += 1
                    } else if order > 0 {
                        record(new.path(b[j])!, old: nil, new: new.checksum(b[j]))
                        j += 1
                    } else {
                        if Self.compare(p, a[i].checksum, q, b[j].checksum) != 0 {
                            record(old.path(a[i])!, old: old.checksum(a[i]), new: new.checksum(b[j]))
                        }
                        i += 1
                        j += 1
                    }
                }
            }
        }
    }

    package subscript(path: String) -> (old: String?, new: String?)? { paths[path] }

    /// A changed checksum: both sides hold the path with different ones.
    package func changed(_ path: String) -> Bool {
        guard let pair = paths[path] else { return false }
        return pair.old != nil && pair.new != nil
    }

    /// Two byte spellings of one name (NFC on one side, NFD from a Mac on
    /// the other; `%0a` and `%0A`) are one Swift string: their halves meet
    /// here, and a path whose two halves agree did not change.
    private mutating func record(_ path: String, old: String?, new: String?) {
        let was = paths[path]
        let pair = (old: was?.old ?? old, new: was?.new ?? new)
        paths[path] = pair.old != nil && pair.old == pair.new ? nil : pair
    }

    /// The lines with a path in byte order of their paths, a path listed
    /// twice kept at its first line. mcpack writes manifests sorted, so
    /// this is one pass; other tools' manifests are sorted here.
    private static func ordered(_ manifest: Manifest) -> [Manifest.Line] {
        var lines = manifest.lines
        if lines.contains(where: { $0.path == nil }) { lines.removeAll { $0.path == nil } }
        manifest.text.withUnsafeBytes { p in
            var ordered = true
            for k in lines.indices.dropFirst() where compare(p, lines[k - 1].path!, p, lines[k].path!) >= 0 {
                ordered = false
                break
            }
            guard !ordered else { return }
            // Stable, so of a path listed twice the first line is kept below.
            lines = lines.enumerated().sorted { x, y in
                let order = compare(p, x.element.path!, p, y.element.path!)
                return order != 0 ? order < 0 : x.offset < y.offset
            }.map(\.element)
            lines = lines.indices.filter { $0 == 0 || compare(p, lines[$0 - 1].path!, p, lines[$0].path!) != 0 }.map { lines[$0] }
        }
        return lines
    }

    /// Byte order of two ranges, each of its own buffer: eight bytes a step,
    /// read big-endian so that integer order is byte order.
    @inline(__always)
    private static func compare(_ p: UnsafeRawBufferPointer, _ x: Range<Int>, _ q: UnsafeRawBufferPointer, _ y: Range<Int>) -> Int {
        let m = x.count
        let n = y.count
        let common = min(m, n)
        guard common > 0 else { return m < n ? -1 : m > n ? 1 : 0 }
        let a = p.baseAddress! + x.lowerBound
        let b = q.baseAddress! + y.lowerBound
        var k = 0
        while k + 8 <= common {
            let u = UInt64(bigEndian: a.loadUnaligned(fromByteOffset: k, as: UInt64.self))
            let v = UInt64(bigEndian: b.loadUnaligned(fromByteOffset: k, as: UInt64.self))
            if u != v { return u < v ? -1 : 1 }
            k += 8
        }
        while k < common {
            let u = a.load(fromByteOffset: k, as: UInt8.self)
            let v = b.load(fromByteOffset: k, as: UInt8.self)
            if u != v { return u < v ? -1 : 1 }
            k += 1
        }
        return m < n ? -1 : m > n ? 1 : 0
    }
}
