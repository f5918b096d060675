import MCPackInputs
import Foundation
import Hashing
import MCPackSchema

/// One change of a channel, made under its lock: the objects first, then
/// one new index (sequence + 1) switched in, then, for a prune, the objects
/// no kept version names. A refusal before the switch removes the objects
/// this change wrote, so the channel is as it was.
struct ChannelChange {
    let folder: ChannelFolder
    let current: ChannelIndex?
    let options: PublishOptions
    let key: ChannelSignature.Key
    private(set) var versions: [ChannelIndex.Version]
    private var name: String?
    /// Versions added or dropped: the index's `published` moves.
    private var versionsChanged = false
    /// Objects written by this change, removed again if it is refused.
    private var pending: [String] = []
    /// Objects a prune removes once the new index is in place.
    private var removable: [String] = []
    var result: PublishResult

    init(folder: ChannelFolder, current: ChannelIndex?, options: PublishOptions, key: ChannelSignature.Key) {
        self.folder = folder
        self.current = current
        self.options = options
        self.key = key
        versions = current?.versions ?? []
        name = current?.name
        let outcome: PublishResult.Outcome = options.action == .renew ? .renewed : .unchanged
        result = PublishResult(channel: options.channel, outcome: outcome, sequence: current?.sequence ?? 0,
                               expires: current?.expires ?? "", versions: versions.map(\.version))
    }

    private func refuse(_ path: String, _ rule: String, _ message: String) -> PublishRefusal {
        PublishRefusal([Problem(path, rule, message)])
    }

    /// Adds the archive's version: its objects, its file list, its line in
    /// the index. The same version with the same files is nothing to do;
    /// with other files, refused: a published version never changes.
    mutating func add(_ bundle: ArchiveBundle) throws {
        if let name, name != bundle.name {
            throw refuse(bundle.path, "channel", "a bundle named \(bundle.name); the channel \(folder.shown) holds \(name) (one channel, one bundle)")
        }
        name = bundle.name
        result.version = bundle.version
        if let existing = current?.version(bundle.version) {
            let read = try ArchiveObjects.read(bundle.path, into: nil)
            let problems = read.manifestProblems()
            guard problems.isEmpty else { throw PublishRefusal(problems) }
            let list = read.list(version: bundle.version)
            guard Digest.hex(list.encoded()) == existing.list.sha256 else {
                throw refuse(bundle.path, "version-published",
                             "version \(bundle.version) is already in the channel with other files (\(differences(list, existing))): a published version never changes; build it as a new version")
            }
            try restoreLost(list, existing, from: bundle)
            return
        }
        if let twin = versions.first(where: { SemanticOrder.compare($0.version, bundle.version) == .orderedSame }) {
            throw refuse(bundle.path, "version-published", "version \(bundle.version) ranks the same as \(twin.version), already in the channel (they differ only in build metadata): an updater could not tell which is newer")
        }
        let store = folder.store
        var read = try ArchiveObjects.read(bundle.path, into: store)
        do {
            let problems = read.damaged + read.manifestProblems()
            guard problems.isEmpty else { throw PublishRefusal(problems) }
            let list = read.list(version: bundle.version)
            let data = list.encoded()
            let object = ChannelObject(sha256: Digest.hex(data), size: Int64(data.count))
            switch store.state(object) {
            case .good: read.reused += 1
            case .damaged(let why): throw refuse(store.display(object.sha256), "channel-object", "\(why): the channel is damaged")
            case .absent:
                try store.put(object, data: data)
                read.written.append(object)
                read.bytesWritten += object.size
            }
            versions.append(ChannelIndex.Version(version: bundle.version, top: read.top, list: object, files: list.all.count, bytes: list.bytes))
            versions.sort { SemanticOrder.compare($0.version, $1.version) == .orderedAscending }
        } catch {
            read.undo(store)
            throw error
        }
        pending = read.written.map(\.path)
        versionsChanged = true
        result.outcome = .published
        result.objectsWritten = read.written.count
        result.bytesWritten = read.bytesWritten
        result.objectsReused = read.reused
        options.hooks.afterObjects?()
    }

    /// A version published already, republished from the same files:
    /// nothing to do, unless the channel lost some of its objects (moved
    /// away as damaged, say), which are then written again from the archive.
    private mutating func restoreLost(_ list: ChannelFileList, _ published: ChannelIndex.Version, from bundle: ArchiveBundle) throws {
        let store = folder.store
        let lost = (list.all.map(\.object) + [published.list]).filter { !store.isPresent($0) }
        guard !lost.isEmpty else {
            result.notes.append("\(bundle.version) is already in the channel with these files: nothing to publish")
            return
        }
        var read = try ArchiveObjects.read(bundle.path, into: store)
        do {
            let problems = read.damaged + read.manifestProblems()
            guard problems.isEmpty else { throw PublishRefusal(problems) }
            if !store.isPresent(published.list) {
                try store.put(published.list, data: list.encoded())
                read.written.append(published.list)
                read.bytesWritten += published.list.size
            }
        } catch {
            read.undo(store)
            throw error
        }
        result.objectsWritten = read.written.count
        result.bytesWritten = read.bytesWritten
        result.objectsReused = read.reused
        result.notes.append("\(bundle.version) is already in the channel with these files; \(read.written.count) of its objects were missing and are written again")
    }

    /// The paths whose content differs between an archive's list and the
    /// one published, the first few, for the refusal to name.
    private func differences(_ list: ChannelFileList, _ published: ChannelIndex.Version) -> String {
        guard let data = try? folder.store.read(published.list), let old = try? ChannelFileList.decode(data, for: published) else {
            return "its file list \(published.list.sha256.prefix(16))... differs"
        }
        let before = Dictionary(old.all.map { ($0.path, $0.sha256) }, uniquingKeysWith: { a, _ in a })
        let after = Dictionary(list.all.map { ($0.path, $0.sha256) }, uniquingKeysWith: { a, _ in a })
        let paths = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        if paths.isEmpty { return "the same files under another top folder than \(old.top)/" }
        return "\(paths.prefix(5).joined(separator: ", "))\(paths.count > 5 ? " and \(paths.count - 5) more" : "") differ"
    }

    /// Keeps the `keep` newest versions, and marks for removal every object
    /// none of them names (a dropped version's, or one a killed publisher
    /// left). Each kept version's file list is read back and checked first:
    /// nothing is removed on the word of a damaged list.
    mutating func prune(keeping keep: Int) throws {
        let dropped = versions.dropLast(keep)
        let kept = Array(versions.suffix(keep))
        let store = folder.store
        var named = Set<String>()
        for version in kept {
            named.insert(version.list.path)
            let list: ChannelFileList
            do {
                list = try ChannelFileList.decode(try store.read(version.list), for: version)
            } catch let error as FileError {
                throw refuse(error.path, "channel-object", "the file list of \(version.version): \(error.message); the channel is damaged, nothing was pruned")
            } catch let error as ChannelFormatError {
                throw refuse(store.display(version.list.sha256), "channel-object", "\(error.message); the channel is damaged, nothing was pruned")
            }
            for file in list.all { named.insert(file.object.path) }
        }
        removable = try store.everything().filter { !named.contains($0) }
        if !dropped.isEmpty {
            versions = kept
            versionsChanged = true
            result.pruned = dropped.map(\.version)
        }
        if result.outcome == .unchanged && (!dropped.isEmpty || !removable.isEmpty) { result.outcome = .pruned }
    }

    /// Switches the new index in, then removes what the prune let go. A
    /// prune that drops no version (only objects nothing names) and a
    /// publish of nothing new leave the index as it is.
    mutating func commit() throws {
        guard versionsChanged || options.action == .renew, let name else {
            try removeUnnamed()
            return
        }
        let index = ChannelIndex(name: name, sequence: (current?.sequence ?? 0) + 1,
                                 published: versionsChanged || current == nil ? ChannelTime.string(options.now) : current!.published,
                                 expires: ChannelTime.string(options.now.addingTimeInterval(options.lifetime)), versions: versions)
        do {
            try index.validate()
            try folder.write(index, key: key, hooks: options.hooks)
        } catch {
            _ = try? folder.store.remove(pending)
            if let error = error as? ChannelFormatError { throw refuse(folder.display(ChannelNames.index), "channel", error.message) }
            throw error
        }
        result.sequence = index.sequence
        result.expires = index.expires
        result.versions = versions.map(\.version)
        try removeUnnamed()
    }

    private mutating func removeUnnamed() throws {
        guard !removable.isEmpty else { return }
        result.bytesRemoved = try folder.store.remove(removable)
        result.objectsRemoved = removable.count
        removable = []
    }
}
