import MCPackInputs
import MCPackBag
import FileIO
import Foundation
import Hashing
import MCPackSchema

/// One read of a verified archive through the bag reader: each entry
/// hashed as it is read and, when a store is given, kept as an object of
/// the channel unless one with its content is there already. The digests
/// are then held to the bag's own manifests, so what is published is the
/// bag verify passed, even if the file changed since.
struct ArchiveObjects {
    var top = ""
    var files: [ChannelFile] = []
    var tags: [ChannelFile] = []
    /// The tag files' bytes: the manifests and bag-info.txt are read from them.
    var tagData: [String: Data] = [:]
    /// The objects this read wrote, which a refusal removes again.
    var written: [ChannelObject] = []
    var bytesWritten: Int64 = 0
    /// Entries whose object was there already (several entries of one
    /// content count once each).
    var reused = 0
    /// Objects found damaged: the channel's fault, not the archive's.
    var damaged: [Problem] = []

    /// Entries up to this size are held in memory until their digest names
    /// them; larger ones go to a staged file as they are read.
    static let inMemory: Int64 = 2 << 20

    /// Reads `archive`; with `store`, writes the objects it lacks.
    static func read(_ archive: String, into store: ObjectStore?) throws -> ArchiveObjects {
        var result = ArchiveObjects()
        let staged = StagedFiles()
        defer { staged.discard() }
        let reader: BagReader
        do {
            // Any issue at all refuses: verify has just passed this archive,
            // so one now means it changed under us.
            reader = try BagReader(archive, refusing: { $0.kind != .entryWarning }) { entry in
                if BagNames.isTagFile(entry.path) { return BagReader.Keep(.whole, digests: [.sha256]) }
                guard let store else { return BagReader.Keep(.digestsOnly, digests: [.sha256]) }
                if let size = entry.size, size <= inMemory { return BagReader.Keep(.whole, digests: [.sha256]) }
                let (writer, url) = try store.stage()
                staged.add(entry.path, writer, url)
                return BagReader.Keep.stream(digests: [.sha256]) { try writer.write($0) }
            }
            while let file = try reader.next() {
                try result.take(file, store: store, staged: staged, archive: archive)
            }
        } catch is BagReader.CannotOpen {
            throw FileError(path: archive, message: "not a zip or tar archive mcpack can read")
        } catch let issue as BagReader.Issue {
            if let store { result.undo(store) }
            // A kiosk's disk may ignore case, which verify only warns of.
            let why = issue.kind == .caseCollision ? ": a kiosk's disk may not tell the two apart" : " (the archive changed since it was verified?)"
            throw PublishRefusal([Problem(issue.path, issue.rule, issue.message + why)])
        } catch {
            if let store { result.undo(store) }
            throw error
        }
        result.top = reader.isFolder ? URL(fileURLWithPath: archive).standardizedFileURL.lastPathComponent : (reader.top ?? "")
        return result
    }

    private mutating func take(_ file: BagReader.File, store: ObjectStore?, staged: StagedFiles, archive: String) throws {
        let path = file.entry.path
        if let damage = file.damage { throw PublishRefusal([Problem(path, "archive-damaged", damage)]) }
        guard let sha256 = file.digests[.sha256] else { throw FileError(path: archive, message: "\(path) was not hashed") }
        let record = ChannelFile(path: path, size: file.size, sha256: sha256)
        if BagNames.isTagFile(path) {
            guard let data = file.data else { throw PublishRefusal([Problem(path, "tag-file", "a tag file over 64 MiB is not one mcpack wrote")]) }
            tags.append(record)
            tagData[path] = data
        } else {
            files.append(record)
        }
        guard let store else { return }
        let stagedURL = staged.take(path)
        let state = store.state(record.object)
        if state != .absent, let stagedURL { try? FileManager.default.removeItem(at: stagedURL.url) }
        switch state {
        case .good:
            reused += 1
        case .damaged(let why):
            damaged.append(Problem(store.display(sha256), "channel-object",
                                   "\(why): the channel is damaged (move the file away, then publish again an archive that holds \(path): the object is written anew)"))
        case .absent:
            if let stagedURL {
                try stagedURL.writer.sync()
                try store.adopt(record.object, staged: stagedURL.url)
            } else if let data = file.data {
                try store.put(record.object, data: data)
            } else {
                throw PublishRefusal([Problem(path, "limits", "claims \(file.entry.size ?? 0) bytes but holds \(file.size) (the archive changed since it was verified?)")])
            }
            written.append(record.object)
            bytesWritten += record.size
        }
    }

    /// Removes what this read wrote: a refused publish leaves the channel
    /// as it found it.
    mutating func undo(_ store: ObjectStore) {
        _ = try? store.remove(written.map(\.path))
        written = []
        bytesWritten = 0
    }

    /// The payload and tag digests held to manifest-sha256.txt and
    /// tagmanifest-sha256.txt: every file listed, every digest equal.
    func manifestProblems() -> [Problem] {
        var problems: [Problem] = []
        for (manifestName, group) in [("manifest-sha256.txt", files), ("tagmanifest-sha256.txt", tags)] {
            guard let text = tagData[manifestName] else {
                problems.append(Problem(manifestName, "manifest", "missing: a bag mcpack publishes has SHA-256 manifests"))
                continue
            }
            let manifest = Manifest(text)
            var listed: [String: String] = [:]
            for line in manifest.lines {
                if let path = manifest.path(line) { listed[path] = manifest.checksum(line).lowercased() }
            }
            for file in group where file.path != "tagmanifest-sha256.txt" && listed[file.path] != file.sha256 {
                let said = listed[file.path].map { "lists SHA-256 \($0.prefix(16))..." } ?? "does not list it"
                problems.append(Problem(file.path, "fixity", "read as SHA-256 \(file.sha256.prefix(16))...; \(manifestName) \(said) (the archive changed since it was verified?)"))
            }
        }
        return problems
    }

    /// The version's file list.
    func list(version: String) -> ChannelFileList {
        ChannelFileList(version: version, top: top, files: files, tags: tags)
    }
}

/// The files entries are streamed into, by entry path, until each is
/// adopted as an object or thrown away.
private final class StagedFiles {
    private var open: [String: (writer: FileWriter, url: URL)] = [:]

    func add(_ path: String, _ writer: FileWriter, _ url: URL) { open[path] = (writer, url) }

    func take(_ path: String) -> (writer: FileWriter, url: URL)? { open.removeValue(forKey: path) }

    func discard() {
        for (_, file) in open { try? FileManager.default.removeItem(at: file.url) }
        open = [:]
    }
}
