import Foundation

/// The lines in which two payload manifests differ, found without turning
/// the 17,000 lines they share into strings: a diff of a large bundle is
/// mostly this comparison, and only the few hundred paths that differ are
/// ever looked at by name.
struct ManifestDelta {
    /// Payload path to its hash before and after; nil where it is absent.
    private(set) var paths: [String: (old: String?, new: String?)] = [:]

    init(old: Data, new: Data) {
        old.withUnsafeBytes { a in
            new.withUnsafeBytes { b in
                compare(Lines(a.bindMemory(to: UInt8.self)), Lines(b.bindMemory(to: UInt8.self)))
            }
        }
    }

    subscript(path: String) -> (old: String?, new: String?)? { paths[path] }

    /// A changed hash: both sides hold the path with different hashes.
    func changed(_ path: String) -> Bool {
        guard let pair = paths[path] else { return false }
        return pair.old != nil && pair.new != nil
    }

    /// Both manifests walked in path order, as a merge: mcpack writes them
    /// sorted, so ordering costs one pass; other tools' manifests are sorted
    /// here first.
    private mutating func compare(_ a: Lines, _ b: Lines) {
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            let order: Int32 = i == a.count ? 1 : j == b.count ? -1 : Lines.comparePaths(a, i, b, j)
            if order < 0 {
                record(a.path(i), old: a.hash(i), new: nil)
                i += 1
            } else if order > 0 {
                record(b.path(j), old: nil, new: b.hash(j))
                j += 1
            } else {
                if !Lines.sameHash(a, i, b, j) { record(a.path(i), old: a.hash(i), new: b.hash(j)) }
                i += 1
                j += 1
            }
        }
    }

    /// Two byte spellings of one name (NFC on one side, NFD from a Mac on
    /// the other) are one Swift string: their halves meet here, and a path
    /// whose two halves agree did not change.
    private mutating func record(_ path: String, old: String?, new: String?) {
        let was = paths[path]
        let pair = (old: was?.old ?? old, new: was?.new ?? new)
        paths[path] = pair.old != nil && pair.old == pair.new ? nil : pair
    }
}

/// The lines of one manifest as byte ranges: `hash<spaces>[*]path`, with a
/// trailing carriage return tolerated.
private struct Lines {
    let bytes: UnsafeBufferPointer<UInt8>
    private typealias Line = (start: Int, hashEnd: Int, pathStart: Int, pathEnd: Int)
    private var ranges: [Line] = []

    var count: Int { ranges.count }

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        ranges.reserveCapacity(bytes.count / 80)
        guard let base = bytes.baseAddress else { return }
        var start = 0
        while start < bytes.count {
            let end = memchr(base + start, 0x0A, bytes.count - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? bytes.count
            let space = memchr(base + start, 0x20, end - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? end
            if space < end {
                var pathStart = space
                while pathStart < end, bytes[pathStart] == 0x20 || bytes[pathStart] == 0x2A { pathStart += 1 }
                var pathEnd = end
                if pathEnd > pathStart, bytes[pathEnd - 1] == 0x0D { pathEnd -= 1 }
                ranges.append((start, space, pathStart, pathEnd))
            }
            start = end + 1
        }
        // Strictly increasing, or sorted here: a path listed twice also
        // takes the slow way, to keep only its first line.
        var ordered = true
        for k in ranges.indices.dropFirst() where Self.compare(bytes, ranges[k - 1], bytes, ranges[k]) >= 0 {
            ordered = false
            break
        }
        if !ordered {
            let bytes = self.bytes
            // Stable, so of a path listed twice the first line is kept below.
            ranges = ranges.enumerated().sorted { x, y in
                let order = Self.compare(bytes, x.element, bytes, y.element)
                return order != 0 ? order < 0 : x.offset < y.offset
            }.map(\.element)
            ranges = ranges.indices.filter { $0 == 0 || Self.compare(bytes, ranges[$0 - 1], bytes, ranges[$0]) != 0 }.map { ranges[$0] }
        }
    }

    func path(_ k: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[ranges[k].pathStart..<ranges[k].pathEnd]), as: UTF8.self)
    }

    func hash(_ k: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[ranges[k].start..<ranges[k].hashEnd]), as: UTF8.self)
    }

    /// Byte order of two lines' paths, each in its own manifest's bytes.
    private static func compare(_ p: UnsafeBufferPointer<UInt8>, _ x: Line, _ q: UnsafeBufferPointer<UInt8>, _ y: Line) -> Int32 {
        let m = x.pathEnd - x.pathStart
        let n = y.pathEnd - y.pathStart
        let order = memcmp(p.baseAddress! + x.pathStart, q.baseAddress! + y.pathStart, min(m, n))
        return order != 0 ? order : m < n ? -1 : m > n ? 1 : 0
    }

    static func comparePaths(_ a: Lines, _ i: Int, _ b: Lines, _ j: Int) -> Int32 {
        compare(a.bytes, a.ranges[i], b.bytes, b.ranges[j])
    }

    static func sameHash(_ a: Lines, _ i: Int, _ b: Lines, _ j: Int) -> Bool {
        let x = a.ranges[i].start
        let y = b.ranges[j].start
        let m = a.ranges[i].hashEnd - x
        let n = b.ranges[j].hashEnd - y
        return m == n && memcmp(a.bytes.baseAddress! + x, b.bytes.baseAddress! + y, m) == 0
    }
}
