import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Folder work that FileManager does too slowly or too vaguely.
public enum FileSystem {
    /// The path with every symbolic link resolved, as realpath(3) gives it;
    /// for a path that does not exist yet (an output folder), its deepest
    /// existing folder resolved and the rest appended. Not Foundation's
    /// `resolvingSymlinksInPath`: on Darwin it strips `/private` from
    /// `/private/var/...` and `/private/tmp/...`, leaving the links `/var`
    /// and `/tmp` in, so a path resolved by it and one from getcwd(3) never
    /// share a prefix and every path was shown absolute.
    public static func canonical(_ url: URL) -> URL {
        var existing = url.standardizedFileURL
        var rest: [String] = []
        while true {
            if let resolved = realpath(existing.path, nil) {
                defer { free(resolved) }
                return rest.reversed().reduce(URL(fileURLWithPath: String(cString: resolved))) { $0.appendingPathComponent($1) }
            }
            let parent = existing.deletingLastPathComponent()
            if parent.path == existing.path { return url.standardizedFileURL }
            rest.append(existing.lastPathComponent)
            existing = parent
        }
    }

    /// Every regular file under `root`, relative, in byte order of the
    /// UTF-8 (what `sort` gives with LC_ALL=C). The type comes from the
    /// directory entry: a stat for each of 17,000 tiles cost a quarter of a
    /// second of a cold build.
    public static func regularFiles(under root: URL) throws -> [String] {
        try walk(root.path, inOrder: true, cannotList: { throw FileError(path: $0, message: "cannot list: \(lastSystemMessage())") }) { prefix, records, folder in
            records.compactMap { record -> (key: String, found: Found<String>)? in
                var type = record.type
                if type == UInt8(DT_UNKNOWN) {
                    // Some file systems do not say; ask.
                    var info = stat()
                    guard fstatat(folder, record.name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
                    type = (info.st_mode & S_IFMT) == S_IFDIR ? UInt8(DT_DIR) : (info.st_mode & S_IFMT) == S_IFREG ? UInt8(DT_REG) : 0
                }
                if type == UInt8(DT_DIR) { return (record.name + "/", .folder) }
                return type == UInt8(DT_REG) ? (record.name, .item(prefix + record.name)) : nil
            }
        }
    }

    /// What a folder holds besides folders, as lstat(2) tells it: a link is
    /// a link, never followed.
    public struct Entry: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            case regular, symbolicLink, other
            /// A name that is not UTF-8, whatever it names: `path` shows
            /// its other bytes as \xNN, and nothing under it is listed.
            case notUTF8
        }
        /// Relative to the folder listed.
        public let path: String
        public let kind: Kind
        /// In bytes; 0 but for a regular file.
        public let size: Int64
    }

    /// As lstat(2) found `path`; nil for a folder.
    private static func entry(_ path: String, _ info: stat) -> Entry? {
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return nil
        case S_IFREG: return Entry(path: path, kind: .regular, size: Int64(info.st_size))
        case S_IFLNK: return Entry(path: path, kind: .symbolicLink, size: 0)
        default: return Entry(path: path, kind: .other, size: 0)
        }
    }

    /// Every entry under `root` but its folders, relative, in no order;
    /// folders are walked into, links never. A folder that cannot be
    /// listed is passed over, its files with it. Not FileManager's
    /// enumerator and attributes, which on Linux took half a second for the
    /// 17,000 files of a 34,000 px bag (an account name looked up for each
    /// file's owner): readdir's types, and an lstat of each entry that is
    /// not a folder.
    public static func entries(under root: String) -> [Entry] {
        walk(root, inOrder: false, cannotList: { _ in }, entries)
    }

    /// The same entries in the byte order of their paths' UTF-8 (what
    /// `sort` gives with LC_ALL=C).
    public static func entriesInOrder(under root: String) -> [Entry] {
        walk(root, inOrder: true, cannotList: { _ in }, entries)
    }

    /// What a folder (at `prefix` from the root) holds besides folders, as
    /// `entries` lists it. Each entry not a folder is asked of the folder
    /// by lstat, not by its path from the root (the kernel looks up one
    /// name, not every folder's), and a folder of many is asked on every
    /// core: those calls were most of listing a bag's 17,000 tiles. Nothing
    /// for a name gone since it was listed.
    private static func entries(_ prefix: String, _ records: [Record], _ folder: Int32) -> [(key: String, found: Found<Entry>)] {
        var found: [(key: String, found: Found<Entry>)] = []
        var asked: [String] = []
        for record in records {
            if let shown = record.shown {
                found.append((shown, .item(Entry(path: prefix + shown, kind: .notUTF8, size: 0))))
            } else if record.type == UInt8(DT_DIR) {
                found.append((record.name + "/", .folder))
            } else {
                asked.append(record.name)
            }
        }
        for (name, info) in zip(asked, lstatAll(asked, in: folder)) {
            guard let info else { continue }
            if let entry = entry(prefix + name, info) {
                found.append((name, .item(entry)))
            } else {
                found.append((name + "/", .folder))
            }
        }
        return found
    }

    /// lstat(2) of each of `names` in the open folder `folder`: nil for a
    /// name that cannot be asked. Many are spread over the cores.
    private static func lstatAll(_ names: [String], in folder: Int32) -> [stat?] {
        let answers = Answers(count: names.count)
        defer { answers.free() }
        let batch = 256
        let batches = (names.count + batch - 1) / batch
        let ask: @Sendable (Int) -> Void = { item in
            for index in item * batch..<min(names.count, (item + 1) * batch) {
                answers.answered[index] = fstatat(folder, names[index], answers.stats.baseAddress! + index, AT_SYMLINK_NOFOLLOW) == 0
            }
        }
        if batches > 1 {
            DispatchQueue.concurrentPerform(iterations: batches, execute: ask)
        } else if batches == 1 {
            ask(0)
        }
        return names.indices.map { answers.answered[$0] ? answers.stats[$0] : nil }
    }

    /// lstat's answers, each written by the one thread that asks its name.
    private struct Answers: @unchecked Sendable {
        let stats: UnsafeMutableBufferPointer<stat>
        let answered: UnsafeMutableBufferPointer<Bool>

        init(count: Int) {
            stats = .allocate(capacity: count)
            answered = .allocate(capacity: count)
        }

        func free() {
            stats.deallocate()
            answered.deallocate()
        }
    }

    /// Whether `a` comes before `b` in the byte order of their UTF-8,
    /// compared where the bytes lie (a small string's copied to the stack),
    /// not through `String.UTF8View`'s iterators.
    private static func precedesInUTF8Order(_ a: String, _ b: String) -> Bool {
        let compared = a.utf8.withContiguousStorageIfAvailable { mine in
            b.utf8.withContiguousStorageIfAvailable { theirs -> Bool in
                let common = Swift.min(mine.count, theirs.count)
                let order = common == 0 ? 0 : memcmp(mine.baseAddress!, theirs.baseAddress!, common)
                return order != 0 ? order < 0 : mine.count < theirs.count
            }
        }
        return (compared ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// A folder's record as readdir gave it: its name (repaired, when not
    /// UTF-8), its type, and for a name that is not UTF-8, how it is shown.
    private struct Record {
        let name: String
        let type: UInt8
        let shown: String?
    }

    /// What a folder holds: an item to list, or a folder to walk into.
    private enum Found<Item> {
        case item(Item)
        case folder
    }

    /// The items under `root`, folder by folder: `classify` gets each
    /// folder's records but "." and ".." (with its path from `root`, "" or
    /// ending in "/", and its open descriptor) and says what each is, with
    /// the name it sorts by among the folder's (a folder's ends in "/",
    /// where every path under it sorts). `inOrder`: each folder's are
    /// sorted as it is read and a folder's items are given in its place, so
    /// that all come in the byte order of their paths' UTF-8 with no sort
    /// of them all. A folder that cannot be opened goes to `cannotList`, by
    /// its path. One folder is open at a time; the walk keeps its own
    /// stack, not the thread's, however deep the folders.
    private static func walk<Item>(_ root: String, inOrder: Bool, cannotList: (String) throws -> Void,
                                   _ classify: (_ prefix: String, _ records: [Record], _ folder: Int32) throws -> [(key: String, found: Found<Item>)]) rethrows -> [Item] {
        var items: [Item] = []
        // Each folder being listed, by its path from the root, and what it
        // holds that is still to be listed; and the folder to read next.
        var pending: [(prefix: String, rest: ArraySlice<(key: String, found: Found<Item>)>)] = []
        var next: String? = ""
        while true {
            if let prefix = next {
                next = nil
                let path = prefix.isEmpty ? root : root + "/" + prefix.dropLast()
                if let folder = opendir(path) {
                    defer { closedir(folder) }
                    var records: [Record] = []
                    while let record = readdir(folder) {
                        guard let name = name(of: record) else { continue }
                        records.append(Record(name: name, type: record.pointee.d_type, shown: undecodable(record, read: name)))
                    }
                    var found = try classify(prefix, records, dirfd(folder))
                    if inOrder { found.sort { precedesInUTF8Order($0.key, $1.key) } }
                    pending.append((prefix, found[...]))
                } else {
                    try cannotList(path)
                }
            }
            guard let (prefix, unlisted) = pending.popLast() else { break }
            var rest = unlisted
            while let (key, found) = rest.popFirst() {
                if case .item(let item) = found {
                    items.append(item)
                } else {
                    // Its folder's rest after it, once the folder is listed.
                    pending.append((prefix, rest))
                    next = prefix + key
                    break
                }
            }
        }
        return items
    }

    /// The entry at `relative` under `root`; nil for a folder or nothing.
    public static func entry(_ relative: String, under root: String) -> Entry? {
        var info = stat()
        guard lstat(root + "/" + relative, &info) == 0 else { return nil }
        return entry(relative, info)
    }

    /// A directory record's name; nil for "." and "..". Read in place: a
    /// record can be shorter than struct dirent.
    private static func name(of record: UnsafeMutablePointer<dirent>) -> String? {
        let name = withUnsafePointer(to: &record.pointee.d_name) {
            $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: record.pointee.d_name)) { String(cString: $0) }
        }
        return name == "." || name == ".." ? nil : name
    }

    /// A record's name shown with its bytes that are not printable ASCII
    /// as \xNN, when it is not UTF-8: `read`, its name as `name(of:)`
    /// repaired it, names nothing. Nil when it is UTF-8.
    private static func undecodable(_ record: UnsafeMutablePointer<dirent>, read: String) -> String? {
        withUnsafePointer(to: &record.pointee.d_name) {
            $0.withMemoryRebound(to: UInt8.self, capacity: MemoryLayout.size(ofValue: record.pointee.d_name)) { start in
                let bytes = UnsafeBufferPointer(start: start, count: strlen(UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self)))
                guard !read.utf8.elementsEqual(bytes) else { return nil }
                return bytes.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined()
            }
        }
    }

    /// Removes one file (not a folder), or throws saying why not.
    public static func removeFile(_ path: String) throws {
        guard unlink(path) == 0 else { throw FileError(path: path, message: "cannot remove: \(lastSystemMessage())") }
    }
}
