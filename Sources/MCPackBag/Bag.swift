import FileIO
import Foundation
import MCPackSchema
import Hashing

/// A file that goes into the bag's data/ folder.
package struct PayloadFile: Sendable {
    package enum Source: Sendable {
        case bytes(Data)
        /// Streamed from disk when the archive is written (tiles), so the
        /// whole payload never sits in memory.
        case file(path: String)
        /// Copied from an archive built before (`path` inside its bag,
        /// `data/...`), whose manifest gives the hash and size.
        case archived(PreviousArchive, path: String)
        /// Handed over by a `PayloadStream` while the archive was written,
        /// and hashed then: nothing to read again.
        case streamed
    }

    /// The path under data/, `/`-separated: `categories/1.png`.
    package var path: String
    package var source: Source
    /// The hash and size when already known (a verified cache entry), so
    /// the file is not read an extra time; it is still checked while being
    /// archived.
    package var known: (sha256: String, bytes: Int)?
    /// Deflated in a zip or stored: by default text is deflated and
    /// pictures and archives, compressed already, are stored. An input
    /// whose files are compressed some other way (audio, video) says so.
    package var compress: Bool
    /// Its place in its input's own order (a pyramid's tiles in the order
    /// they are made). Such files follow the others, in that order, so an
    /// archive written as the tiles are made and one written by copying
    /// them from an earlier archive hold the same bytes.
    package var order: Int?

    package init(path: String, source: Source, known: (sha256: String, bytes: Int)? = nil, compress: Bool? = nil, order: Int? = nil) {
        self.path = path
        self.source = source
        self.known = known
        self.order = order
        self.compress = compress ?? Self.compressedByDefault(path)
    }

    package init(path: String, bytes: Data) { self.init(path: path, source: .bytes(bytes)) }

    /// Text is deflated; pictures and archives, compressed already, are stored.
    package static func compressedByDefault(_ path: String) -> Bool {
        guard let ending = PathBytes.ending(path) else { return true }
        return !storedEndings.contains(ending)
    }

    private static let storedEndings = Set(["png", "jpg", "jpeg", "webp", "gif"]).union(ArchiveFormat.compressedEndings)
}

/// Files an input makes only while the archive is written, each handed
/// straight from its maker to the archive writer (a master's tiles, from
/// libvips): their paths are known before, their bytes and hashes only as
/// they come, so nothing is written twice and nothing is held whole.
package protocol PayloadStream: Sendable {
    /// How many files it makes.
    var count: Int { get }
    /// The `index`th file's path under data/, in the order `make` hands
    /// them over: made when asked, so a stream of many files need not hold
    /// every path while it runs.
    func path(at index: Int) -> String
    /// Makes the files and hands each to `body`, in their order. Throws
    /// when one cannot be made, is missing, or is not one of them.
    func make(_ body: (_ path: String, _ bytes: Data) throws -> Void) throws
}

extension PayloadStream {
    /// Every path under data/, in order.
    package var paths: [String] { (0..<count).map(path(at:)) }
}

/// A BagIt 1.0 bag (RFC 8493) ready to be serialized. In the archive, the
/// payload comes first and the tag files last, because the payload
/// manifest of a bag whose tiles are made while it is written is known only
/// at its end. The payload's order: the files of no input order, in byte
/// order; then those with an order (the pyramid), in it, whether copied or
/// streamed; then the files that describe the payload's sizes (HANDOVER.md),
/// made once everything before them is written.
package struct Bag {
    package struct Entry {
        /// The path inside the bag, e.g. `data/clauses.json`.
        package var path: String
        package var source: PayloadFile.Source
        package var sha256: String
        package var size: Int
        package var compress: Bool
    }

    /// Made once every file before them is known: given each one's path
    /// under data/ and size.
    package typealias MadeLast = ([(path: String, size: Int)]) throws -> [PayloadFile]

    package let top: String
    /// Every payload file known before the write, in the archive's order;
    /// with no streams, the whole payload.
    package let payload: [Entry]
    /// Written after `payload`, in turn.
    package let streams: [any PayloadStream]
    /// With streams, the files made after them; nil once in `payload`.
    package let madeLast: MadeLast?
    package let info: [(String, String)]
    package let otherTags: [(String, Data)]

    /// Hashes the known payload on every core. `info` is bag-info.txt's
    /// labels in order; Payload-Oxum is added. `tags`: other tag files (the
    /// BagIt profile), after bag-info.txt. `madeLast` makes the files that
    /// follow the streams; with none, it runs now.
    package static func assemble(top: String, payload files: [PayloadFile], streams: [any PayloadStream] = [], madeLast: MadeLast? = nil,
                         info: [(String, String)], tags otherTags: [(String, Data)] = []) throws -> Bag {
        var payload = try ordered(hashAll(files))
        if streams.isEmpty, let madeLast { payload += try lastEntries(madeLast, after: payload) }
        try checkUnique(payload.map(\.path) + streams.flatMap { $0.paths.map { "data/" + $0 } })
        return Bag(top: top, payload: payload, streams: streams, madeLast: streams.isEmpty ? nil : madeLast, info: info, otherTags: otherTags,
                   knownTags: streams.isEmpty ? tagFiles(payload: payload, info: info, otherTags: otherTags) : nil)
    }

    /// The files `madeLast` makes once `entries` are known, in byte order.
    package static func lastEntries(_ madeLast: MadeLast, after entries: [Entry]) throws -> [Entry] {
        try hashAll(madeLast(entries.map { (String($0.path.dropFirst("data/".count)), $0.size) })).map(\.0)
            .sorted { $0.path.precedesInUTF8Order($1.path) }
    }

    /// The files of no order in byte order, then the ordered ones in theirs.
    package static func ordered(_ entries: [(Entry, Int?)]) -> [Entry] {
        let free = entries.filter { $0.1 == nil }.map(\.0).sorted { $0.path.precedesInUTF8Order($1.path) }
        let placed = entries.compactMap { entry, order in order.map { (entry, $0) } }.sorted { $0.1 < $1.1 }.map(\.0)
        return free + placed
    }

    package static func checkUnique(_ paths: [String]) throws {
        var seen = Set<String>()
        for path in paths where !seen.insert(path).inserted {
            throw FileError(path: path, message: "two payload files share this path")
        }
    }

    /// With no streams the whole bag is known before it is written: its tag
    /// files, compared with an archive's before anything is written.
    package let knownTags: [(path: String, data: Data)]?

    /// bagit.txt, bag-info.txt, the other tag files, the payload manifest
    /// and the tag manifest, for `payload` in its archive order.
    package static func tagFiles(payload: [Entry], info: [(String, String)], otherTags: [(String, Data)]) -> [(path: String, data: Data)] {
        let oxum = "\(payload.bytes).\(payload.count)"
        let bagit = Data("BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n".utf8)
        var infoText = ""
        for (label, value) in info + [("Payload-Oxum", oxum)] {
            infoText += "\(label): \(value.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " "))\n"
        }
        let bagInfo = Data(infoText.utf8)
        let manifest = Manifest.text(payload.lazy.map { (checksum: $0.sha256, path: $0.path) })
        let tags: [(String, Data)] = [("bagit.txt", bagit), ("bag-info.txt", bagInfo)] + otherTags + [("manifest-sha256.txt", manifest)]
        let tagManifest = Manifest.text(tags.map { (checksum: Digest.hex($0.1), path: $0.0) })
        return (tags + [("tagmanifest-sha256.txt", tagManifest)]).map { (path: $0.0, data: $0.1) }
    }

    package static func hashAll(_ files: [PayloadFile]) throws -> [(Entry, Int?)] {
        let results = LockedArray<Result<Entry, Error>?>(repeating: nil, count: files.count)
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let file = files[index]
            let result = Result<Entry, Error> {
                let (sha, size): (String, Int)
                switch (file.source, file.known) {
                case (.bytes(let data), _): (sha, size) = (Digest.hex(data), data.count)
                case (.file, let known?): (sha, size) = known
                case (.file(let path), nil): (sha, size) = try Digest.hexOfFile(path)
                case (.archived(_, _), let known?): (sha, size) = known
                case (.archived(let archive, let path), nil):
                    guard let entry = archive.entries[path] else {
                        throw PreviousArchive.Damaged(archive: archive.path, entry: path, reason: "is not in its manifest")
                    }
                    (sha, size) = (entry.sha256, entry.bytes)
                case (.streamed, _):
                    throw FileError(path: file.path, message: "a streamed file is only written by its stream")
                }
                return Entry(path: "data/" + file.path, source: file.source, sha256: sha, size: size, compress: file.compress)
            }
            results[index] = result
        }
        return try zip(results.values, files).map { (try $0.0!.get(), $0.1.order) }
    }
}

/// Frees `value` on another thread. For what a verify held of each of
/// 17,000 entries (tables, records, strings): freed one at a time where it
/// goes out of use, it held up the work after it, and a process that ends
/// next need not wait for it.
package func releaseElsewhere<Value>(_ value: consuming Value) {
    let held = LockedArray<Value?>(repeating: nil, count: 1)
    held[0] = consume value
    DispatchQueue.global(qos: .utility).async { held[0] = nil }
}

/// An array that concurrent workers fill, each at its own index.
package final class LockedArray<Element>: @unchecked Sendable {
    private var storage: [Element]
    private let lock = NSLock()

    package init(repeating value: Element, count: Int) { storage = Array(repeating: value, count: count) }

    package subscript(index: Int) -> Element {
        get { lock.withLock { storage[index] } }
        set { lock.withLock { storage[index] = newValue } }
    }

    package var values: [Element] { lock.withLock { storage } }
}

extension [Bag.Entry] {
    /// The entries' sizes added up: the payload's bytes.
    package var bytes: Int { reduce(0) { $0 + $1.size } }
}
