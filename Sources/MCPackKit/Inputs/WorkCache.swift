import Foundation
import Imaging

/// Files made from inputs (tile pyramids, icon sizes, launch layers), kept
/// between builds in `.mcpack-cache/<kind>/<key>/` where the key hashes the
/// input's SHA-256 and every setting that shapes the output. A rebuild with
/// nothing changed reuses them instead of decoding and encoding again. Each
/// entry records every file's hash when it was made; an entry that no longer
/// matches is removed and made again, never shipped. Safe to delete.
struct WorkCache {
    struct File: Codable, Sendable {
        /// Relative to the entry's `files/` folder.
        var path: String
        var sha256: String
        var bytes: Int
    }

    struct Index: Codable {
        var key: String
        var files: [File]
    }

    struct Entry {
        var root: URL
        var files: [File]
        /// True when reused, false when just made.
        var reused: Bool

        /// The entry's files as payload under `prefix` (e.g. "document/").
        func payload(under prefix: String) -> [PayloadFile] {
            let base = root.path + "/"
            return files.map { PayloadFile(path: prefix + $0.path, source: .file(path: base + $0.path), known: ($0.sha256, $0.bytes)) }
        }
    }

    let folder: URL

    init(project: Project, kind: String) {
        folder = project.cacheFolder.appendingPathComponent(kind)
    }

    /// A key from the parts that decide the output, plus mcpack's and
    /// libvips's versions: another version may make other bytes.
    static func key(_ parts: [String]) -> String {
        Digest.hex(Data((["mcpack-cache-1", MCPackVersion.current, Imaging.libraryVersion] + parts).joined(separator: "\n").utf8))
    }

    /// The entry for `key`: reused if complete and undamaged, else made by
    /// `make`, which writes files into the folder it is given. `damage`
    /// hears why an entry could not be reused.
    func entry(_ key: String, damage: (String) -> Void, make: (URL) throws -> Void) throws -> Entry {
        if let hit = lookup(key, damage: damage) { return hit }
        return try create(key, make: make)
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
        let base = root.path + "/"
        let bad = LockedArray<String?>(repeating: nil, count: index.files.count)
        DispatchQueue.concurrentPerform(iterations: index.files.count) { i in
            let file = index.files[i]
            if let (sha, bytes) = try? Digest.hexOfFile(base + file.path), sha == file.sha256, bytes == file.bytes {
                return
            }
            bad[i] = file.path
        }
        let damaged = bad.values.compactMap { $0 }
        if !damaged.isEmpty {
            damage("cache: \(damaged.count) file\(damaged.count == 1 ? "" : "s") of \(folder.lastPathComponent) missing or changed (first: \(damaged[0])); making them again")
            try? FileManager.default.removeItem(at: entry)
            return nil
        }
        return Entry(root: root, files: index.files, reused: true)
    }

    /// Makes an entry under a temporary name, hashes and indexes it, then
    /// renames it into place, so a killed build leaves no entry behind.
    private func create(_ key: String, make: (URL) throws -> Void) throws -> Entry {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = OutputFile.removeAbandoned(in: folder)
        let final = folder.appendingPathComponent(key)
        let temporary = folder.appendingPathComponent(".\(key)\(OutputFile.marker)\(getpid())")
        try? FileManager.default.removeItem(at: temporary)
        let root = temporary.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        do {
            try make(root)
            let paths = try Self.listFiles(in: root)
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

    /// Every regular file under `root`, relative, in byte order. Paths
    /// come straight from the enumerator: resolving each of 17,000 tiles'
    /// symlinks cost seconds of a cold build.
    static func listFiles(in root: URL) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else {
            throw FileError(path: root.path, message: "cannot list")
        }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if enumerator.fileAttributes?[.type] as? FileAttributeType == .typeRegular { files.append(relative) }
        }
        return files.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}
