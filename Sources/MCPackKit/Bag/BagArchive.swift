import Foundation

extension Bag {
    /// Every entry of the archive, in the order it is written: tag files
    /// first, so a reader can check the payload while it streams.
    private var expectedEntries: [(path: String, sha256: String)] {
        tagFiles.map { ("\(top)/\($0.path)", Digest.hex($0.data)) } + payload.map { ("\(top)/\($0.path)", $0.sha256) }
    }

    /// Serializes the bag into one archive with a single top folder;
    /// returns the archive's SHA-256 and size.
    @discardableResult
    func write(to path: String, format: ArchiveFormat, mtime: Int) throws -> (sha256: String, bytes: Int) {
        let writer = try ArchiveWriter(path: path, format: format)
        for tag in tagFiles {
            try writer.add(path: "\(top)/\(tag.path)", data: tag.data, mtime: mtime, compress: true)
        }
        for entry in payload {
            let entryPath = "\(top)/\(entry.path)"
            switch entry.source {
            case .bytes(let data):
                try writer.add(path: entryPath, data: data, mtime: mtime, compress: entry.compress)
            case .file(let path):
                // Hashed again while copied: a file that changed since it was
                // hashed would make the manifest lie.
                let hasher = Digest()
                try writer.add(path: entryPath, size: entry.size, mtime: mtime, compress: entry.compress) { write in
                    try FileChunks.read(path) { chunk in
                        hasher.update(chunk)
                        try write(chunk)
                    }
                }
                guard hasher.finish() == entry.sha256 else {
                    throw FileError(path: path, message: "changed while the archive was being written; build again")
                }
            }
        }
        return try writer.finish()
    }

    /// Reads a written archive back and confirms it holds exactly the
    /// entries of this bag, in order, with their hashes.
    func check(archive path: String) throws {
        let reader = try ArchiveReader(path: path)
        var expected = expectedEntries[...]
        while let entry = try reader.next() {
            guard let want = expected.popFirst() else {
                throw FileError(path: path, message: "unexpected entry \(entry.path ?? "?") after the last file")
            }
            guard entry.path == want.path else {
                throw FileError(path: path, message: "entry \(entry.path ?? "?") where \(want.path) was written")
            }
            let hasher = Digest()
            try reader.readData { hasher.update($0) }
            guard hasher.finish() == want.sha256 else {
                throw FileError(path: path, message: "\(want.path) does not read back as written")
            }
        }
        if let missing = expected.first {
            throw FileError(path: path, message: "\(missing.path) is missing when read back")
        }
    }
}
