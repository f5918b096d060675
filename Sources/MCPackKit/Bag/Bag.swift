import Foundation
import MCPackSchema
import Hashing

/// A file that goes into the bag's data/ folder.
public struct PayloadFile: Sendable {
    public enum Source: Sendable {
        case bytes(Data)
        /// Streamed from disk when the archive is written (tiles), so the
        /// whole payload never sits in memory.
        case file(path: String)
        /// Copied from an archive built before (`path` inside its bag,
        /// `data/...`), whose manifest gives the hash and size.
        case archived(PreviousArchive, path: String)
    }

    /// The path under data/, `/`-separated: `categories/1.png`.
    public var path: String
    public var source: Source
    /// The hash and size when already known (a verified cache entry), so
    /// the file is not read an extra time; it is still checked while being
    /// archived.
    public var known: (sha256: String, bytes: Int)?
    /// Deflated in a zip or stored: by default text is deflated and
    /// pictures and archives, compressed already, are stored. An input
    /// whose files are compressed some other way (audio, video) says so.
    public var compress: Bool

    public init(path: String, source: Source, known: (sha256: String, bytes: Int)? = nil, compress: Bool? = nil) {
        self.path = path
        self.source = source
        self.known = known
        let ext = (path as NSString).pathExtension.lowercased()
        self.compress = compress ?? !["png", "jpg", "jpeg", "webp", "gif", "zip", "gz", "zst"].contains(ext)
    }

    public init(path: String, bytes: Data) { self.init(path: path, source: .bytes(bytes)) }
}

/// A BagIt 1.0 bag (RFC 8493) ready to be serialized: tag files and a
/// payload whose every file has been hashed once.
struct Bag {
    struct Entry {
        /// The path inside the bag, e.g. `data/clauses.json`.
        var path: String
        var source: PayloadFile.Source
        var sha256: String
        var size: Int
        var compress: Bool
    }

    let top: String
    let tagFiles: [(path: String, data: Data)]
    let payload: [Entry]

    var payloadBytes: Int { payload.reduce(0) { $0 + $1.size } }

    /// Hashes the payload on every core and writes the tag files.
    /// `info` is bag-info.txt's labels in order; Payload-Oxum is added.
    /// `tags`: other tag files (the BagIt profile), after bag-info.txt.
    static func assemble(top: String, payload files: [PayloadFile], info: [(String, String)], tags otherTags: [(String, Data)] = []) throws -> Bag {
        let hashed = try hashAll(files)
        let payload = hashed.sorted { $0.path.precedesInByteOrder($1.path) }
        var seen = Set<String>()
        for entry in payload where !seen.insert(entry.path).inserted {
            throw FileError(path: entry.path, message: "two payload files share this path")
        }
        let oxum = "\(payload.reduce(0) { $0 + $1.size }).\(payload.count)"

        let bagit = Data("BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n".utf8)
        var infoText = ""
        for (label, value) in info + [("Payload-Oxum", oxum)] {
            infoText += "\(label): \(value.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " "))\n"
        }
        let bagInfo = Data(infoText.utf8)
        let manifest = Manifest.text(payload.lazy.map { (checksum: $0.sha256, path: $0.path) })
        let tags: [(String, Data)] = [("bagit.txt", bagit), ("bag-info.txt", bagInfo)] + otherTags + [("manifest-sha256.txt", manifest)]
        let tagManifest = Manifest.text(tags.map { (checksum: Digest.hex($0.1), path: $0.0) })
        return Bag(top: top, tagFiles: tags + [("tagmanifest-sha256.txt", tagManifest)], payload: payload)
    }

    private static func hashAll(_ files: [PayloadFile]) throws -> [Entry] {
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
                }
                return Entry(path: "data/" + file.path, source: file.source, sha256: sha, size: size, compress: file.compress)
            }
            results[index] = result
        }
        return try results.values.map { try $0!.get() }
    }
}

/// An array that concurrent workers fill, each at its own index.
final class LockedArray<Element>: @unchecked Sendable {
    private var storage: [Element]
    private let lock = NSLock()

    init(repeating value: Element, count: Int) { storage = Array(repeating: value, count: count) }

    subscript(index: Int) -> Element {
        get { lock.withLock { storage[index] } }
        set { lock.withLock { storage[index] = newValue } }
    }

    var values: [Element] { lock.withLock { storage } }
}
