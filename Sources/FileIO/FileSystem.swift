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
        var files: [String] = []
        func walk(_ relative: String) throws {
            let path = relative.isEmpty ? root.path : root.path + "/" + relative
            guard let folder = opendir(path) else {
                throw FileError(path: path, message: "cannot list: \(lastSystemMessage())")
            }
            defer { closedir(folder) }
            while let entry = readdir(folder) {
                // Read in place: a record can be shorter than struct dirent.
                let name = withUnsafePointer(to: &entry.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) { String(cString: $0) }
                }
                if name == "." || name == ".." { continue }
                let child = relative.isEmpty ? name : relative + "/" + name
                var type = entry.pointee.d_type
                if type == UInt8(DT_UNKNOWN) {
                    // Some file systems do not say; ask.
                    var info = stat()
                    guard lstat(root.path + "/" + child, &info) == 0 else { continue }
                    type = (info.st_mode & S_IFMT) == S_IFDIR ? UInt8(DT_DIR) : (info.st_mode & S_IFMT) == S_IFREG ? UInt8(DT_REG) : 0
                }
                if type == UInt8(DT_DIR) {
                    try walk(child)
                } else if type == UInt8(DT_REG) {
                    files.append(child)
                }
            }
        }
        try walk("")
        return files.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Removes one file (not a folder), or throws saying why not.
    public static func removeFile(_ path: String) throws {
        guard unlink(path) == 0 else { throw FileError(path: path, message: "cannot remove: \(lastSystemMessage())") }
    }
}
