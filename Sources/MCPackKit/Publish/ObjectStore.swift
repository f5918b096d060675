import FileIO
import Foundation
import Hashing
import MCPackSchema

/// A channel's `objects/`: every file of every version once, at
/// `objects/<first two hex digits>/<sha256>`. An object is written once and
/// never again: a new one is made under a temporary name in the channel's
/// own folder (never inside objects/, so an upload of objects/ at any
/// moment carries only whole objects), flushed, then renamed into place.
/// An object already there is read back before it is counted on: bytes
/// that differ from their name are a damaged channel, never overwritten.
struct ObjectStore {
    let channel: URL
    /// The channel's folder as the user named it, for messages.
    let shown: String

    func url(_ sha256: String) -> URL { channel.appendingPathComponent(ChannelObject.path(sha256)) }

    func display(_ sha256: String) -> String { shown + "/" + ChannelObject.path(sha256) }

    enum State: Equatable {
        case absent
        case good
        case damaged(String)
    }

    /// Whether the object is there and holds what its name says.
    func state(_ object: ChannelObject) -> State {
        let path = url(object.sha256).path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            return FileManager.default.fileExists(atPath: path) ? .damaged("cannot be read") : .absent
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { return .damaged("is not a regular file") }
        let size = Int64(attributes[.size] as? Int ?? -1)
        guard size == object.size else { return .damaged("holds \(size) bytes, not the \(object.size) its content has") }
        guard let (sha256, _) = try? Digest.hexOfFile(path) else { return .damaged("cannot be read") }
        return sha256 == object.sha256 ? .good : .damaged("holds bytes whose SHA-256 is \(sha256), not its name")
    }

    /// Whether a file of the object's size is there, without reading it:
    /// enough to find the objects a published version has lost.
    func isPresent(_ object: ChannelObject) -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url(object.sha256).path) else { return false }
        return attributes[.type] as? FileAttributeType == .typeRegular && Int64(attributes[.size] as? Int ?? -1) == object.size
    }

    /// A new file to stream an entry into before its digest is known.
    func stage() throws -> (FileWriter, URL) {
        let staged = channel.appendingPathComponent(".object-\(UUID().uuidString)\(OutputFile.marker)\(ProcessInfo.processInfo.processIdentifier)")
        return (try FileWriter(path: staged.path), staged)
    }

    /// Writes `data` as a new object.
    func put(_ object: ChannelObject, data: Data) throws {
        let (writer, staged) = try stage()
        do {
            try data.withUnsafeBytes { try writer.write($0) }
            try writer.sync()
            try adopt(object, staged: staged)
        } catch {
            try? FileManager.default.removeItem(at: staged)
            throw error
        }
    }

    /// Moves a staged file, written in full and flushed, into place as a
    /// new object: a rename within the channel's file system, so the object
    /// appears whole or not at all.
    func adopt(_ object: ChannelObject, staged: URL) throws {
        let final = url(object.sha256)
        let folder = final.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw FileError(path: shown + "/" + ChannelNames.objects, message: "cannot make \(folder.lastPathComponent)/: \(error.localizedDescription)")
            }
            // The new folder's own name must reach the disk before an index names what is in it.
            Self.flushFolder(folder.deletingLastPathComponent())
            Self.flushFolder(channel)
        }
        let output = OutputFile(final: final)
        do {
            try FileManager.default.moveItem(at: staged, to: output.temporary)
        } catch {
            throw FileError(path: display(object.sha256), message: "cannot move the new object into place: \(error.localizedDescription)")
        }
        try output.commit()
    }

    /// An object's bytes, checked against its name and read no further
    /// than its size: the file lists prune and publish read back.
    func read(_ object: ChannelObject) throws -> Data {
        switch state(object) {
        case .absent: throw FileError(path: display(object.sha256), message: "missing")
        case .damaged(let why): throw FileError(path: display(object.sha256), message: why)
        case .good: break
        }
        do { return try Data(contentsOf: url(object.sha256)) } catch {
            throw FileError(path: display(object.sha256), message: "cannot be read: \(error.localizedDescription)")
        }
    }

    /// Every file under objects/, as paths relative to the channel: the
    /// objects, and anything else that does not belong there.
    func everything() throws -> [String] {
        let folder = channel.appendingPathComponent(ChannelNames.objects)
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        return try FileSystem.regularFiles(under: folder).map { ChannelNames.objects + "/" + $0 }
    }

    /// Removes objects (paths relative to the channel), then any folder of
    /// objects left empty; returns the bytes freed.
    func remove(_ paths: [String]) throws -> Int64 {
        var freed: Int64 = 0
        var folders = Set<URL>()
        for path in paths {
            let file = channel.appendingPathComponent(path)
            freed += Int64((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int ?? 0)
            try FileSystem.removeFile(file.path)
            folders.insert(file.deletingLastPathComponent())
        }
        for folder in folders where (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == true {
            try? FileManager.default.removeItem(at: folder)
        }
        return freed
    }

    /// fsync(2) of a folder, so that the names made in it last a power cut.
    static func flushFolder(_ folder: URL) {
        guard let handle = try? FileHandle(forReadingFrom: folder) else { return }
        try? handle.synchronize()
        try? handle.close()
    }
}
