import Foundation
import MCPackSchema

/// An archive a project built before, as the source of the entries a new
/// build would make again with the same bytes (the tiles of an unchanged
/// master). It is already a complete, checksummed copy of them: its payload
/// manifest says what each entry hashes to, and the new archive's writer
/// hashes every byte it copies from it again, so a damaged archive stops the
/// write (`PreviousArchive.Damaged`) and is never shipped from. Only read,
/// never changed.
package final class PreviousArchive: @unchecked Sendable {
    /// An entry of the payload, as the previous manifest and archive give it.
    package struct Entry: Sendable {
        package var sha256: String
        package var bytes: Int
    }

    package let path: String
    /// Payload entries under data/, by path inside the bag, of the prefixes
    /// asked for when opened.
    package let entries: [String: Entry]
    /// Their paths in the manifest's order, which is the archive's.
    package let paths: [String]

    private init(path: String, entries: [String: Entry], paths: [String]) {
        self.path = path
        self.entries = entries
        self.paths = paths
    }

    /// What went wrong reading an entry to copy it: the build stops using
    /// that archive and makes the entries again.
    package struct Damaged: Error, CustomStringConvertible {
        package let archive: String
        package let entry: String
        package let reason: String

        package var description: String { "\((archive as NSString).lastPathComponent): \(entry) \(reason)" }
    }

    /// data/bundle.json of the archive at `path`, read by itself: an early
    /// entry, so a zip or a compressed tar is not read to its end. nil when
    /// the archive cannot be read or has none.
    package static func bundleJSON(at path: String) -> Data? {
        guard let reader = try? BagReader(path, only: ["data/bundle.json"], refusing: { _ in true }, keep: { _ in BagReader.Keep(.whole) }),
              let file = try? reader.next(), file.damage == nil else { return nil }
        return file.data
    }

    /// Opens the archive at `path` as a source of the payload entries under
    /// `prefixes` (`data/document/`): the manifest's hash and the archive's
    /// size of each. nil, and `why` says so, when the archive is unreadable,
    /// not one bag, or its manifest does not name exactly the entries it
    /// holds under those prefixes.
    /// `expecting`: the exact set of paths under `prefixes` the archive
    /// must hold (a pyramid's every tile): one that holds more or fewer,
    /// even with manifests that agree, is not a source.
    /// `bundleJSON`: its data/bundle.json, when already read.
    static func open(_ path: String, prefixes: [String], expecting: Set<String>? = nil, bundleJSON: Data? = nil,
                     why: (String) -> Void) -> PreviousArchive? {
        func owned(_ bagPath: String) -> Bool { prefixes.contains { PathBytes.hasPrefix(bagPath, $0) } }
        var manifest: Data?
        var bundle = bundleJSON
        var sizes: [String: Int] = [:]
        // A zip's sizes come from its central directory, without reading
        // 17,000 local headers; each is checked again as its entry is copied.
        let directory = ZipBagDirectory(path)
        for entry in directory?.entries ?? [] where owned(entry.path) {
            guard let size = Int(exactly: entry.size) else {
                why("declares \(entry.path) as \(entry.size) bytes")
                return nil
            }
            sizes[entry.path] = size
        }
        // A zip's manifest, among the last entries, is read at its own
        // local header, not by walking every tile's.
        if let directory, bundle != nil, let read = BagReader.zipFiles(path, ["manifest-sha256.txt"], directory: directory),
           let file = read.files["manifest-sha256.txt"] {
            manifest = file
        } else {
            do {
                let wanted: Set<String>? = directory == nil ? nil : ["manifest-sha256.txt", "data/bundle.json"]
                let reader = try BagReader(path, only: wanted, refusing: { $0.kind != .caseCollision }) { entry in
                    switch entry.path {
                    case "manifest-sha256.txt", "data/bundle.json": return BagReader.Keep(.whole)
                    default: return .skip
                    }
                }
                while let file = try reader.next() {
                    if file.damage != nil { throw Damaged(archive: path, entry: file.entry.path, reason: "is damaged") }
                    switch file.entry.path {
                    case "manifest-sha256.txt": manifest = file.data
                    case "data/bundle.json": bundle = file.data
                    case let other where owned(other) && directory == nil:
                        guard let size = file.entry.size else { throw Damaged(archive: path, entry: other, reason: "has no size") }
                        sizes[other] = Int(size)
                    default: break
                    }
                }
                guard reader.complete, reader.tops.count == 1 else { throw Damaged(archive: path, entry: "", reason: "cannot be read to its end") }
            } catch {
                why("cannot be read (\(error))")
                return nil
            }
        }
        guard let manifest, bundle != nil else {
            why("has no \(manifest == nil ? "manifest-sha256.txt" : "data/bundle.json")")
            return nil
        }
        var entries: [String: Entry] = [:]
        var paths: [String] = []
        entries.reserveCapacity(sizes.count)
        paths.reserveCapacity(sizes.count)
        let parsed = Manifest(manifest)
        for line in parsed.lines {
            guard let bagPath = parsed.path(line), owned(bagPath) else { continue }
            let checksum = parsed.checksum(line)
            guard let size = sizes.removeValue(forKey: bagPath) else {
                why("names \(bagPath) in its manifest but does not hold it")
                return nil
            }
            // Lowercase already, as mcpack writes it: then no copy is made.
            entries[bagPath] = Entry(sha256: BagNames.folded(checksum), bytes: size)
            paths.append(bagPath)
        }
        if let extra = sizes.keys.min() {
            why("holds \(extra), which its manifest does not name")
            return nil
        }
        // The manifest's paths are each met once (a second line of a path
        // finds its size taken), so equal counts and containment are equality.
        if let expecting, paths.count != expecting.count || !paths.allSatisfy(expecting.contains) {
            let missing = expecting.subtracting(paths).count, extra = Set(paths).subtracting(expecting).count
            why("does not hold exactly the entries its record implies (\(missing) missing, \(extra) more)")
            return nil
        }
        return PreviousArchive(path: path, entries: entries, paths: paths)
    }
}

/// The archives a build may copy unchanged entries from: this version's
/// archive first, then the project's other archives, newest first. One
/// found damaged while copied is left out of the build's next attempt.
package struct PreviousArchives: Sendable {
    package let candidates: [String]

    package init(candidates: [String]) { self.candidates = candidates }

    /// Archives named like the project's (`<name>-<version>.zip`, or any
    /// other format mcpack builds) in `folders`, `first` leading when it
    /// exists; none of `untrusted`.
    package static func find(first: URL, named name: String, in folders: [URL], untrusted: Set<String>) -> PreviousArchives {
        var found: [(path: String, modified: Date)] = []
        var seen = Set<String>()
        for folder in folders {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            for file in names where file.hasPrefix(name + "-") && !file.hasPrefix(".")
                && ArchiveFormat.written(file) != nil {
                let path = folder.appendingPathComponent(file).standardizedFileURL.path
                guard seen.insert(path).inserted, !untrusted.contains(path),
                      let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                      attributes[.type] as? FileAttributeType == .typeRegular else { continue }
                found.append((path, attributes[.modificationDate] as? Date ?? .distantPast))
            }
        }
        let firstPath = first.standardizedFileURL.path
        let ordered = found.sorted { a, b in
            if (a.path == firstPath) != (b.path == firstPath) { return a.path == firstPath }
            return a.modified != b.modified ? a.modified > b.modified : a.path < b.path
        }
        return PreviousArchives(candidates: ordered.map(\.path))
    }

    /// The first archive whose bundle.json `accept`s, opened as a source of
    /// its entries under `prefixes`; `note` hears why one that was accepted
    /// could not be used.
    package func first(under prefixes: [String], expecting: Set<String>? = nil, where accept: (Data) -> Bool, note: (String) -> Void) -> PreviousArchive? {
        for path in candidates {
            let name = (path as NSString).lastPathComponent
            guard let json = PreviousArchive.bundleJSON(at: path) else {
                note("\(name) cannot be read (damaged, cut short, or not a bag); not copying from it")
                continue
            }
            guard accept(json) else { continue }
            if let archive = PreviousArchive.open(path, prefixes: prefixes, expecting: expecting, bundleJSON: json,
                                                  why: { note("\(name) \($0); not copying from it") }) {
                return archive
            }
        }
        return nil
    }
}
