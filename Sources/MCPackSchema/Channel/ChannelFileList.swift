import Foundation

/// One version's file list, an object of the channel named by the index:
/// every file of the bag with its size and SHA-256, payload and tag files
/// apart, each in UTF-8 byte order of its path. With it and the objects a
/// reader rebuilds the bag byte for byte, under `top`.
public struct ChannelFileList: Codable, Sendable, Equatable {
    public var format: Int
    public var version: String
    public var top: String
    /// The payload: every path starts `data/`.
    public var files: [ChannelFile]
    /// bagit.txt, bag-info.txt, the manifests, bagit-profile.json, ...
    public var tags: [ChannelFile]

    public init(version: String, top: String, files: [ChannelFile], tags: [ChannelFile]) {
        format = ChannelIndex.currentFormat
        self.version = version
        self.top = top
        self.files = files.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        self.tags = tags.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    public var all: [ChannelFile] { files + tags }

    public var bytes: Int64 { all.reduce(0) { $0 + $1.size } }

    /// Compact: a list of 17,000 tiles is what a one-clause update fetches
    /// beside the clause, so its indentation would be most of the update.
    public func encoded() -> Data { JSON.encode(self, pretty: false) }

    /// Decodes and checks a list the index named for `version` (whose
    /// SHA-256 and size were checked first).
    public static func decode(_ data: Data, for version: ChannelIndex.Version) throws(ChannelFormatError) -> ChannelFileList {
        let list: ChannelFileList
        do { list = try JSONDecoder().decode(ChannelFileList.self, from: data) } catch {
            throw ChannelFormatError("the file list of \(version.version): \(JSON.describe(error))")
        }
        try list.validate(for: version)
        return list
    }

    /// The rules a reader writes files by: safe paths only (the bag
    /// reader's), the payload under data/ and the tags beside it, each path
    /// once even to a disk that ignores case, and the counts the index gave.
    public func validate(for version: ChannelIndex.Version) throws(ChannelFormatError) {
        let name = "the file list of \(version.version)"
        guard format == ChannelIndex.currentFormat else { throw ChannelFormatError("\(name) is format \(format), not \(ChannelIndex.currentFormat)") }
        guard self.version == version.version, top == version.top else {
            throw ChannelFormatError("\(name) says it is \(self.version) in \(top)/, not \(version.version) in \(version.top)/")
        }
        guard files.count + tags.count == version.files, bytes == version.bytes else {
            throw ChannelFormatError("\(name) holds \(files.count + tags.count) files of \(bytes) bytes; the index says \(version.files) of \(version.bytes)")
        }
        var folded = Set<String>()
        for (group, payload) in [(files, true), (tags, false)] {
            for (position, file) in group.enumerated() {
                let at = "\(name): \(payload ? "files" : "tags")[\(position)]"
                guard case .success(let components) = BagPath.components(file.path), components.joined(separator: "/") == file.path else {
                    throw ChannelFormatError("\(at): \"\(file.path)\" is not a safe path inside a bag")
                }
                guard PathBytes.hasPrefix(file.path, "data/") == payload else {
                    throw ChannelFormatError("\(at): \(file.path) \(payload ? "is not under data/" : "is under data/, so it is payload, not a tag file")")
                }
                do { try ChannelObject(sha256: file.sha256, size: file.size).validate() } catch { throw ChannelFormatError("\(at): \(error.message)") }
                if position > 0, !group[position - 1].path.utf8.lexicographicallyPrecedes(file.path.utf8) {
                    throw ChannelFormatError("\(at): \(file.path) is out of order or twice")
                }
                guard folded.insert(file.path.lowercased()).inserted else {
                    throw ChannelFormatError("\(at): \(file.path) differs from another path only by case")
                }
            }
        }
    }
}

/// A file of a version: where it goes in the bag and what it holds.
public struct ChannelFile: Codable, Sendable, Equatable {
    public var path: String
    public var size: Int64
    public var sha256: String

    public init(path: String, size: Int64, sha256: String) {
        self.path = path
        self.size = size
        self.sha256 = sha256
    }

    public var object: ChannelObject { ChannelObject(sha256: sha256, size: size) }
}
