import FileIO
import Foundation

/// A few named files of a bag, read from an archive or a bag folder: what
/// diff reads of each version, and what a closer look at changed files
/// (`diff --pixels`, the diff page) reads of their bytes.
package enum BagFiles {
    /// The named files (paths inside the bag) of an archive or bag folder;
    /// everything else is skipped unread.
    package static func read(_ wanted: Set<String>, of path: String) throws -> [String: Data] {
        // A zip's few wanted files are read where its directory puts them.
        if let read = BagReader.zipFiles(path, wanted) { return read.files }
        let stream = try BagEntryStream(wanted, of: path)
        var files: [String: Data] = [:]
        while let (name, data) = try stream.next() { files[name] = data }
        return files
    }
}

/// The named files of an archive or bag folder one at a time, in the order
/// the archive holds them, so that a reader of thousands of tiles keeps
/// only those it still needs.
package final class BagEntryStream {
    private let path: String
    private let reader: BagReader

    package init(_ wanted: Set<String>, of path: String) throws {
        self.path = path
        do {
            // mcpack writes the payload first and the tag files last: a zip's
            // entries are reached through its central directory, so the files
            // a diff needs are read without reading 17,000 tiles; a tar is
            // read through to its last wanted file. A file over 64 MiB is not one a
            // diff reads: it is passed by, never held. A bag that cannot be
            // read to its end is not compared at all, rather than in part.
            reader = try BagReader(path, only: wanted, refusing: { $0.stops || $0.kind == .noCentralDirectory }) { entry in
                (entry.size ?? 0) <= BagReader.Keep.wholeLimit ? BagReader.Keep(.whole) : .skip
            }
        } catch is BagReader.CannotOpen {
            throw FileError(path: path, message: "not a zip or tar archive mcpack can read")
        } catch let issue as BagReader.Issue {
            throw issue.cause ?? FileError(path: path, message: issue.description)
        }
    }

    /// The next wanted file, or nil when every one was found or the
    /// archive ends.
    package func next() throws -> (path: String, data: Data)? {
        while true {
            let file: BagReader.File?
            do { file = try reader.next() } catch let issue as BagReader.Issue {
                throw issue.cause ?? FileError(path: path, message: issue.description)
            }
            guard let file else { return nil }
            if let damage = file.damage {
                throw FileError(path: path, message: "\(file.entry.path) is damaged (\(damage)); run `mcpack verify \(path)` for the whole story")
            }
            guard let data = file.data else { continue }
            return (file.entry.path, data)
        }
    }
}
