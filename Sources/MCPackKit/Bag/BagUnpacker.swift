import Archiving
import FileIO
import Foundation

/// Unpacks a zip or tar bag into a folder, for a person to open (the
/// preview page). Through libarchive, never a shell's tar: every entry is a
/// regular file with a safe path under one top folder, each path once, and
/// the sizes and counts stay within verify's limits, so a hostile archive
/// cannot write outside the folder or fill the disk.
enum BagUnpacker {
    /// Writes the archive's files under `folder` and returns its top folder there.
    static func unpack(_ archive: String, into folder: URL, limits: BagLimits = BagLimits()) throws -> URL {
        let reader: ArchiveReader
        do { reader = try ArchiveReader(path: archive) } catch {
            throw FileError(path: archive, message: "not a zip or tar archive mcpack can read")
        }
        func refuse(_ message: String) -> FileError {
            FileError(path: archive, message: "\(message); nothing of it is opened (run `mcpack verify \(archive)` for every problem)")
        }
        var top: String?
        var written = Set<String>()
        // On a case-insensitive disk (macOS's default) a second name that
        // differs only in case would overwrite the first.
        var folded = Set<String>()
        var total: Int64 = 0
        while let entry = try reader.next() {
            guard let name = entry.path else { throw refuse("an entry's name is not UTF-8") }
            if entry.isDirectory { continue }
            guard entry.isRegular else { throw refuse("\(name) is not a regular file (a link or a device)") }
            let components: [String]
            switch BagNames.components(name) {
            case .success(let safe): components = safe
            case .failure(let unsafe): throw refuse("\(name): \(unsafe.message)")
            }
            guard components.count >= 2 else { throw refuse("\(name) is not inside a top folder") }
            if top == nil { top = components[0] }
            guard components[0] == top else { throw refuse("holds more than one top folder (\(top!)/ and \(components[0])/)") }
            let relative = components.joined(separator: "/")
            guard written.insert(relative).inserted else { throw refuse("holds \(name) twice") }
            guard folded.insert(relative.lowercased()).inserted else { throw refuse("holds \(name) and a path that differs from it only in case") }
            guard written.count <= limits.maxEntries else { throw refuse("holds more than \(limits.maxEntries) entries") }
            let target = folder.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            let writer = try FileWriter(path: target.path)
            var size: Int64 = 0
            do {
                try reader.readData { chunk in
                    size += Int64(chunk.count)
                    total += Int64(chunk.count)
                    guard size <= limits.maxEntryBytes, total <= limits.maxTotalBytes else {
                        throw refuse("unpacks to more than verify's limits (\(limits.maxEntryBytes) bytes an entry, \(limits.maxTotalBytes) in all)")
                    }
                    try writer.write(chunk)
                }
            } catch let damage as ArchiveReader.EntryDamaged {
                throw refuse("\(name) is damaged (\(damage))")
            }
        }
        guard let top else { throw FileError(path: archive, message: "holds no files") }
        return folder.appendingPathComponent(top)
    }
}
