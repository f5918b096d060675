import MCPackBag
import FileIO
import Foundation
import MCPackSchema
import Hashing
import Imaging

/// Files made from inputs (icon sizes, launch layers, and a cold IIIF
/// build's tiles until its archive holds them), kept in
/// `.mcpack-cache/<kind>/<key>/` where the key hashes the input's SHA-256
/// and every setting that shapes the output. A rebuild with nothing changed
/// reuses them instead of decoding and encoding again; a tile entry is
/// removed once the archive is in place (`Made.transient`), and a build
/// killed before that finds it here. Each
/// entry records every file's hash and size when it was made. Reuse trusts
/// that record, because the archive writer hashes every byte it copies
/// anyway: a file missing or changed stops that write (SourceFileChanged),
/// and the build removes the entry, makes it again and writes again. A
/// damaged file is never shipped. Safe to delete.
package struct WorkCache {
    package struct File: Codable, Sendable {
        /// Relative to the entry's `files/` folder.
        package var path: String
        package var sha256: String
        package var bytes: Int
    }

    package struct Index: Codable {
        package var key: String
        package var files: [File]
    }

    package struct Entry {
        package var root: URL
        package var files: [File]
        /// True when reused, false when just made.
        package var reused: Bool

        /// The entry's own folder (`<kind>/<key>`), holding `files/` and its index.
        package var folder: URL { root.deletingLastPathComponent() }

        /// The entry's files as payload under `prefix` (e.g. "document/").
        package func payload(under prefix: String) -> [PayloadFile] {
            let base = root.path + "/"
            return files.map { PayloadFile(path: prefix + $0.path, source: .file(path: base + $0.path), known: ($0.sha256, $0.bytes)) }
        }
    }

    package let folder: URL

    package init(project: Project, kind: String) {
        folder = project.cacheFolder.appendingPathComponent(kind)
    }

    /// A key from the parts that decide the output, plus mcpack's and
    /// libvips's versions: another version may make other bytes.
    package static func key(_ parts: [String]) -> String {
        Digest.hex(Data((["mcpack-cache-1", MCPackVersion.current, Imaging.libraryVersion] + parts).joined(separator: "\n").utf8))
    }

    /// The entry for `key`: reused when its index reads back (its files are
    /// checked as the archive is written), else made by `make`, which writes
    /// files into the folder it is given. `damage` hears why an entry could
    /// not be reused. Files `make` leaves that `leaveOut` names (by relative
    /// path) are deleted, not kept.
    package func entry(_ key: String, damage: (String) -> Void, leaveOut: (String) -> Bool = { _ in false },
               make: (URL) throws -> Void) throws -> Entry {
        if let hit = lookup(key, damage: damage) { return hit }
        return try create(key, leaveOut: leaveOut, make: make)
    }

    private func lookup(_ key: String, damage: (String) -> Void) -> Entry? {
        let entry = folder.appendingPathComponent(key)
        guard let data = FileManager.default.contents(atPath: entry.appendingPathComponent("index.json").path) else {
            if FileManager.default.fileExists(atPath: entry.path) {
                damage("cache entry \(folder.lastPathComponent)/\(key.prefix(12)) has no index; making it again")
                try? FileManager.default.removeItem(at: entry)
            }
            return nil
        }
        guard let index = try? JSONDecoder().decode(Index.self, from: data), index.key == key else {
            damage("cache entry \(folder.lastPathComponent)/\(key.prefix(12)) has an unreadable index; making it again")
            try? FileManager.default.removeItem(at: entry)
            return nil
        }
        let root = entry.appendingPathComponent("files")
        return Entry(root: root, files: index.files, reused: true)
    }

    /// The entry folder holding `path`, with the file's path inside it, when
    /// `path` is a file of some project's work cache.
    package static func entry(holding path: String) -> (folder: URL, name: String, file: String)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let cache = parts.lastIndex(of: ".mcpack-cache"), parts.count > cache + 4, parts[cache + 3] == "files" else { return nil }
        let folder = parts[...(cache + 2)].joined(separator: "/")
        return (URL(fileURLWithPath: folder), "\(parts[cache + 1])/\(parts[cache + 2].prefix(12))",
                parts[(cache + 4)...].joined(separator: "/"))
    }

    /// Makes an entry under a temporary name, hashes and indexes it, then
    /// renames it into place, so a killed build leaves no entry behind.
    private func create(_ key: String, leaveOut: (String) -> Bool, make: (URL) throws -> Void) throws -> Entry {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = OutputFile.removeAbandoned(in: folder)
        let final = folder.appendingPathComponent(key)
        let temporary = OutputFile.temporary(for: final)
        try? FileManager.default.removeItem(at: temporary)
        let root = temporary.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        do {
            try make(root)
            let listed = try FileSystem.regularFiles(under: root)
            for path in listed where leaveOut(path) { try FileSystem.removeFile(root.path + "/" + path) }
            let paths = listed.filter { !leaveOut($0) }
            let hashed = LockedArray<File?>(repeating: nil, count: paths.count)
            DispatchQueue.concurrentPerform(iterations: paths.count) { i in
                if let (sha, bytes) = try? Digest.hexOfFile(root.appendingPathComponent(paths[i])) {
                    hashed[i] = File(path: paths[i], sha256: sha, bytes: bytes)
                }
            }
            let files = hashed.values.compactMap { $0 }
            guard files.count == paths.count else { throw FileError(path: root.path, message: "cannot read back the files just made") }
            try JSON.encode(Index(key: key, files: files), pretty: false).write(to: temporary.appendingPathComponent("index.json"))
            try? FileManager.default.removeItem(at: final)
            try FileManager.default.moveItem(at: temporary, to: final)
            return Entry(root: final.appendingPathComponent("files"), files: files, reused: false)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}
