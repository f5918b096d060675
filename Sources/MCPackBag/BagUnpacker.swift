import FileIO
import Foundation

/// Unpacks a zip or tar bag into a folder, for a person to open (the
/// preview page). Through `BagReader`, never a shell's tar: every entry is a
/// regular file with a safe path under one top folder, each path once, and
/// the sizes and counts stay within verify's limits, so a hostile archive
/// cannot write outside the folder or fill the disk. The first thing wrong
/// refuses the whole archive.
package enum BagUnpacker {
    /// Writes the archive's files under `folder` and returns its top folder there.
    package static func unpack(_ archive: String, into folder: URL, limits: BagLimits = BagLimits()) throws -> URL {
        func refuse(_ message: String) -> FileError {
            FileError(path: archive, message: "\(message); nothing of it is opened (run `mcpack verify \(archive)` for every problem)")
        }
        func refusal(_ issue: BagReader.Issue) -> Error {
            switch issue.kind {
            case .notUTF8: return refuse("an entry's name is not UTF-8")
            case .link, .special: return refuse("\(issue.path) is not a regular file (a link or a device)")
            case .besideTop: return refuse("\(issue.path) is not inside a top folder")
            case .duplicate: return refuse("holds \(issue.path) twice")
            // On a case-insensitive disk (macOS's default) a second name that
            // differs only in case would overwrite the first.
            case .caseCollision: return refuse("holds \(issue.path) and a path that differs from it only in case")
            case .tooManyEntries: return refuse("holds more than \(limits.maxEntries) entries")
            case .tooLarge: return refuse("unpacks to more than verify's limits (\(limits.maxEntryBytes) bytes an entry, \(limits.maxTotalBytes) in all)")
            case .damaged: return refuse("\(issue.path) is damaged (\(issue.message))")
            case .truncated: return issue.cause ?? refuse(issue.description)
            default: return refuse(issue.description)
            }
        }
        var top: String?
        do {
            // A warning of libarchive's about an entry whose bytes then read
            // well is no reason to refuse; anything else is.
            let reader = try BagReader(archive, limits: limits, refusing: { $0.kind != .entryWarning }) { entry in
                if top == nil { top = entry.top }
                guard entry.top == top else { throw refuse("holds more than one top folder (\(top!)/ and \(entry.top)/)") }
                let target = folder.appendingPathComponent(entry.top + "/" + entry.path)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                let writer = try FileWriter(path: target.path)
                return BagReader.Keep.stream { try writer.write($0) }
            }
            while try reader.next() != nil {}
        } catch is BagReader.CannotOpen {
            throw FileError(path: archive, message: "not a zip or tar archive mcpack can read")
        } catch let issue as BagReader.Issue {
            throw refusal(issue)
        }
        guard let top else { throw FileError(path: archive, message: "holds no files") }
        return folder.appendingPathComponent(top)
    }
}
