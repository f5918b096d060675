import Foundation
import MCPackSchema

/// Where an app (or `mcpack pull`) keeps the bundles an update channel
/// installs: `folder` holds them and what the updater remembers, and
/// `link` is the current bundle, a symbolic link to one of them that an
/// update switches by one atomic rename, so whoever opens `link` gets the
/// old version or the new one, never a mix.
///
/// ```
/// folder/
///   versions/magna-carta-1.1.0/    the current version's bag (link points here)
///   versions/magna-carta-1.0.0/    the previous one, kept for rollBack()
///   downloads/                     objects being fetched (kept across launches)
///   state.json                     the highest index sequence and version seen
///   .lock                          one updater at a time
/// ```
public struct BundleStore: Sendable {
    public let folder: URL
    /// The current bundle's folder as the app opens it; `folder/current`
    /// unless given.
    public let link: URL

    public init(folder: URL, link: URL? = nil) {
        self.folder = folder.standardizedFileURL
        self.link = (link ?? folder.appendingPathComponent("current")).standardizedFileURL
    }

    var versions: URL { folder.appendingPathComponent("versions") }
    var downloads: URL { folder.appendingPathComponent("downloads") }
    var stateFile: URL { folder.appendingPathComponent("state.json") }

    /// The installed bundle's folder (behind `link`), nil before the first
    /// install.
    public var current: URL? { versionFolder(behind: link) }

    /// The version installed before the current one, kept until the next
    /// update so the app can go back to it.
    public var previous: URL? {
        guard let name = loadState().previous else { return nil }
        let url = versions.appendingPathComponent(name)
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("bagit.txt").path) && url.lastPathComponent != current?.lastPathComponent ? url : nil
    }

    /// Makes the previous version current again (one atomic switch) and the
    /// current one previous. The highest version installed stays as it
    /// was, so the updater does not install the version just left again
    /// unless a newer one is published or rollback is allowed: while the
    /// channel still offers it, an update says `.heldBack`.
    @discardableResult
    public func rollBack() throws -> URL {
        let lock = try StoreLock(folder: folder)
        defer { lock.release() }
        guard let previous, let current else { throw UpdateError.couldNot("\(folder.path): no previous version to go back to") }
        try switchLink(to: previous)
        var state = loadState()
        state.previous = current.lastPathComponent
        // Going forward again (a second rollBack() undoing the first)
        // leaves nothing held back.
        let left = BundleUpdater.version(of: current), back = BundleUpdater.version(of: previous)
        state.rolledBackFrom = left.flatMap { left in
            back.map { SemanticOrder.compare(left, $0) == .orderedDescending } == true ? left : nil
        }
        try saveState(state)
        return previous
    }

    /// The bundle folder a link points to, when it is one of `versions/`.
    func versionFolder(behind link: URL) -> URL? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link.path) else { return nil }
        let resolved = target.hasPrefix("/") ? URL(fileURLWithPath: target) : link.deletingLastPathComponent().appendingPathComponent(target)
        let folder = resolved.standardizedFileURL
        guard folder.deletingLastPathComponent().path == versions.path,
              FileManager.default.fileExists(atPath: folder.appendingPathComponent("bagit.txt").path) else { return nil }
        return folder
    }

    /// Points `link` at `version` by one rename over it: a new link is made
    /// beside it, then renamed into its place. The link is relative when
    /// it can be, so an app container that moves (iOS moves it when the app
    /// is updated) keeps a working link.
    func switchLink(to version: URL) throws {
        let manager = FileManager.default
        let parent = link.deletingLastPathComponent()
        let staged = parent.appendingPathComponent(".\(link.lastPathComponent).mcpack-switch")
        try? manager.removeItem(at: staged)
        let target = version.standardizedFileURL.path
        let relative = target.hasPrefix(parent.path + "/") ? String(target.dropFirst(parent.path.count + 1)) : target
        do {
            try manager.createDirectory(at: parent, withIntermediateDirectories: true)
            try manager.createSymbolicLink(atPath: staged.path, withDestinationPath: relative)
        } catch {
            throw UpdateError.couldNot("\(staged.path): cannot be created (\(error.localizedDescription))")
        }
        guard rename(staged.path, link.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? manager.removeItem(at: staged)
            throw UpdateError.couldNot("\(link.path): cannot be switched to \(version.lastPathComponent) (\(reason))")
        }
        Durable.syncFolder(parent)
    }

    /// Removes what a stopped update left: half-assembled versions, a
    /// staged link, and versions neither current nor previous. Objects
    /// being downloaded stay, for the next update to continue.
    func cleanUp() {
        let manager = FileManager.default
        let keep = Set([current?.lastPathComponent, loadState().previous].compactMap { $0 })
        for name in (try? manager.contentsOfDirectory(atPath: versions.path)) ?? [] where !keep.contains(name) {
            try? manager.removeItem(at: versions.appendingPathComponent(name))
        }
        try? manager.removeItem(at: link.deletingLastPathComponent().appendingPathComponent(".\(link.lastPathComponent).mcpack-switch"))
    }

    /// What the updater remembers between runs.
    struct State: Codable, Equatable {
        /// The channel's bundle name, once an index was accepted.
        var channel: String?
        /// The highest index sequence accepted, and that index's SHA-256:
        /// a lower one is an old index served again; the same one with
        /// other bytes, a misused key.
        var sequence: Int = 0
        var indexSHA256: String?
        /// The highest version ever installed (semantic version order).
        var highestVersion: String?
        /// The folder under versions/ that was current before the last switch.
        var previous: String?
        /// The version rollBack() left for an older one, until an update
        /// installs another: the channel offering it again is the staff's
        /// decision standing, not a rollback attack. Absent from a
        /// state.json written before it existed, which reads as nothing
        /// rolled back.
        var rolledBackFrom: String?
    }

    func loadState() -> State {
        guard let data = try? Data(contentsOf: stateFile), let state = try? JSONDecoder().decode(State.self, from: data) else { return State() }
        return state
    }

    func saveState(_ state: State) throws {
        do {
            try Durable.write(JSON.encode(state), to: stateFile)
        } catch {
            throw UpdateError.couldNot("\(stateFile.path): cannot be written (\(error.localizedDescription))")
        }
    }
}

/// One updater at a time per store: flock(2) on `.lock`, which the kernel
/// releases however the holder ends.
struct StoreLock {
    private let descriptor: Int32

    init(folder: URL) throws {
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw UpdateError.couldNot("\(folder.path): cannot be created (\(error.localizedDescription))")
        }
        let path = folder.appendingPathComponent(".lock").path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw UpdateError.couldNot("\(path): cannot be opened (\(String(cString: strerror(errno))))") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw UpdateError.couldNot("\(folder.path): another update of these bundles is running")
        }
    }

    func release() { close(descriptor) }
}

/// Writes that survive a power loss: data flushed before the rename that
/// publishes it, and the folder's entry flushed after.
enum Durable {
    static func write(_ data: Data, to url: URL) throws {
        let staged = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial")
        try data.write(to: staged)
        try sync(staged)
        guard rename(staged.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        syncFolder(url.deletingLastPathComponent())
    }

    static func sync(_ file: URL) throws {
        let descriptor = open(file.path, O_RDONLY)
        guard descriptor >= 0, flush(descriptor) else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path, NSLocalizedDescriptionKey: reason])
        }
        close(descriptor)
    }

    static func syncFolder(_ folder: URL) {
        let descriptor = open(folder.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = flush(descriptor)
        close(descriptor)
    }

    /// fsync(2), which on Apple platforms reaches the drive's cache only:
    /// F_FULLFSYNC goes through it, where the file system allows.
    static func flush(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
        #endif
        return fsync(descriptor) == 0
    }
}
