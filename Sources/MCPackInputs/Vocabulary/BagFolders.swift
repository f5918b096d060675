import Foundation
import MCPackSchema

/// A bag's paths by folder, made once for every rule: a rule about one
/// folder reads the files in it, rather than every path of the bag again
/// (17,000 for a pyramid, some twenty times over the content rules; in
/// verify's profile those walks cost more than the rules themselves).
///
/// A folder is named as a path's prefix: with its trailing slash
/// (`data/launch/screens/`), the bag's top being "". Folders are told
/// apart by their bytes, as `PathBytes.hasPrefix` tells them, so that
/// `files(under: F)` holds exactly the paths `PathBytes.hasPrefix(_, F)`
/// picks out of the bag; for a prefix that is no folder's name
/// (`data/laun`) too, from the folder it is in.
package struct BagFolders: Sendable {
    /// A folder's name, equal to another only byte for byte: two names
    /// Swift calls equal strings (one composed, one decomposed) are two
    /// folders on a file system.
    private struct Name: Hashable, Sendable {
        let text: String

        static func == (left: Name, right: Name) -> Bool {
            PathBytes.withBytes(left.text) { one in
                PathBytes.withBytes(right.text) { other in one.elementsEqual(other) }
            }
        }

        func hash(into hasher: inout Hasher) {
            PathBytes.withBytes(text) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    private struct Folder: Sendable {
        var files: [String] = []
        var folders: [String] = []
    }

    private var table: [Name: Folder] = [:]
    /// How many files were added.
    package private(set) var count = 0
    /// The folder of the path added last, and where it is in `table`.
    private var current = Name(text: "")
    private var currentIndex: [Name: Folder].Index

    package init() {
        table[Name(text: "")] = Folder()
        currentIndex = table.startIndex
    }

    package init<Paths: Sequence<String>>(_ paths: Paths) {
        self.init()
        for path in paths { add(path) }
    }

    /// Adds a file. Paths come folder by folder more often than not (a
    /// reader's order): the folder met last is compared in place, and a
    /// new one made only when the folder changes.
    package mutating func add(_ path: String) {
        let same = PathBytes.withBytes(path) { bytes in
            let end = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
            return PathBytes.withBytes(current.text) { folder in
                folder.count == end && (end == 0 || memcmp(folder.baseAddress!, bytes.baseAddress!, end) == 0)
            }
        }
        if !same {
            current = Self.parent(of: path)
            register(current)
            // Found once a folder, not hashed and looked up for each file.
            currentIndex = table.index(forKey: current)!
        }
        table.values[currentIndex].files.append(path)
        count += 1
    }

    /// The files directly in `folder`, in no order.
    package func files(in folder: String) -> [String] {
        table[Name(text: folder)]?.files ?? []
    }

    /// The folders directly in `folder`, each with its trailing slash, in no order.
    package func folders(in folder: String) -> [String] {
        table[Name(text: folder)]?.folders ?? []
    }

    /// The files in `folder` and in every folder below it, in no order;
    /// those in `excluded` (a folder below it) and below left out.
    package func files(under folder: String, outside excluded: String? = nil) -> [String] {
        if let within = Self.partial(folder) {
            return files(under: within, outside: excluded).filter { PathBytes.hasPrefix($0, folder) }
        }
        var found: [String] = []
        walk(folder, outside: excluded) { found += $0.files }
        return found
    }

    /// How many files `files(under:)` gives, without gathering them.
    package func count(under folder: String) -> Int {
        if Self.partial(folder) != nil { return files(under: folder).count }
        var count = 0
        walk(folder, outside: nil) { count += $0.files.count }
        return count
    }

    private func walk(_ folder: String, outside excluded: String?, _ body: (Folder) -> Void) {
        var waiting = [folder]
        while let next = waiting.popLast() {
            guard let entry = table[Name(text: next)] else { continue }
            body(entry)
            waiting += excluded.map { excluded in entry.folders.filter { Name(text: $0) != Name(text: excluded) } } ?? entry.folders
        }
    }

    /// Whether any file is in `folder` or below it.
    package func holds(_ folder: String) -> Bool {
        Self.partial(folder) != nil ? !files(under: folder).isEmpty : table[Name(text: folder)] != nil
    }

    /// For a prefix that does not end a folder's name, the folder it is in.
    private static func partial(_ prefix: String) -> String? {
        PathBytes.withBytes(prefix) { bytes in
            bytes.last.map { $0 != UInt8(ascii: "/") } ?? false ? parent(of: bytes[...]).text : nil
        }
    }

    /// Adds `folder` and those above it not yet known, each to its parent's folders.
    private mutating func register(_ folder: Name) {
        guard table[folder] == nil else { return }
        table[folder] = Folder()
        let parent = PathBytes.withBytes(folder.text) { bytes in Self.parent(of: bytes.dropLast()) }
        register(parent)
        table[parent]?.folders.append(folder.text)
    }

    /// The folder a path is directly in: up to and with its last slash.
    private static func parent(of path: String) -> Name {
        PathBytes.withBytes(path) { parent(of: $0[...]) }
    }

    private static func parent(of bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Name {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return Name(text: "") }
        return Name(text: String(decoding: bytes[...slash], as: UTF8.self))
    }
}
