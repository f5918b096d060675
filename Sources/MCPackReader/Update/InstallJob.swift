import Crypto
import Foundation
import MCPackSchema

/// One version installed from its signed file list: files the device has
/// placed and checked, the others fetched and checked, the whole checked
/// as a bag, then moved beside the current version and made current.
final class InstallJob: @unchecked Sendable {
    private let store: BundleStore
    private let options: UpdateOptions
    private let list: ChannelFileList
    private let downloads: ObjectDownloads
    private let progress: @Sendable (UpdateProgress) -> Void
    private let freeSpace: @Sendable (URL) -> Int64?
    let counter: FetchCounter
    private(set) var reused = 0
    private let staging: URL

    init(updater: BundleUpdater, list: ChannelFileList, fetcher: ChannelFetcher, progress: @escaping @Sendable (UpdateProgress) -> Void) throws {
        store = updater.store
        options = updater.options
        freeSpace = updater.freeSpace
        self.list = list
        self.progress = progress
        downloads = ObjectDownloads(store: updater.store, fetcher: fetcher)
        counter = FetchCounter(progress: progress)
        // A leading dot: cleanUp removes it if this update never finishes.
        staging = store.versions.appendingPathComponent(".staging-\(list.top)")
    }

    /// The new version's folder, current once this returns.
    func run(installedFolder: URL?) async throws -> URL {
        let files = Dictionary(grouping: list.all, by: \.sha256)
        let devices = [installedFolder].compactMap { $0 } + options.localBundles
        var local = Self.localFiles(in: devices)
        // The shipped bundle serves as well as an installed one: a first
        // update from it is as small as any later one.
        if let derived = devices.lazy.compactMap({ self.derivePayloadManifest(from: $0) }).first, local[derived.sha256] == nil {
            local[derived.sha256] = derived.url
        }
        var missing = Set(files.keys.filter { local[$0] == nil })
        try checkRoom(for: missing.reduce(0) { $0 + files[$1]![0].size })

        let manager = FileManager.default
        try? manager.removeItem(at: staging)
        do { try manager.createDirectory(at: staging, withIntermediateDirectories: true) } catch {
            throw UpdateError.couldNot("\(staging.path): cannot be created (\(error.localizedDescription))")
        }
        progress(UpdateProgress(phase: .reusing))
        for (sha256, group) in files.sorted(by: { $0.key < $1.key }) {
            guard let source = local[sha256] else { continue }
            try Task.checkCancellation()
            // A device file is used only once its bytes are the signed
            // ones; one that is not (damaged on disk) is fetched instead.
            if (try? KioskBundle.sha256(of: source)) == sha256 {
                try place(source, as: group)
                reused += group.count
            } else {
                missing.insert(sha256)
            }
        }

        let objects = missing.sorted().map { files[$0]![0].object }
        counter.start(files: objects.count, bytes: objects.reduce(0) { $0 + $1.size })
        let fetched = try await fetchAll(objects)
        for (sha256, file) in fetched { try place(file, as: files[sha256]!) }

        progress(UpdateProgress(phase: .installing, bytesFetched: counter.bytes, bytesToFetch: counter.totalBytes,
                                filesFetched: counter.files, filesToFetch: counter.totalFiles))
        try checkBag()
        return try moveIntoPlace()
    }

    /// The new payload manifest, made from a bundle on the device (the
    /// installed one, else one the app shipped): its lines in
    /// their order, each with the checksum the signed list gives. When a
    /// version changes a few files' bytes and no path, that is the new
    /// manifest byte for byte, the largest file of the update after the
    /// list (a line for each of 17,000 tiles), not fetched. Used only if
    /// its SHA-256 is the signed one; otherwise the manifest is fetched.
    private func derivePayloadManifest(from bundle: URL) -> (sha256: String, url: URL)? {
        guard let signed = list.tags.first(where: { $0.path == KioskBundle.manifestPath }),
              let data = try? Data(contentsOf: bundle.appendingPathComponent(KioskBundle.manifestPath)) else { return nil }
        let checksums = Dictionary(uniqueKeysWithValues: list.files.map { ($0.path, $0.sha256) })
        let manifest = Manifest(data)
        var entries: [(checksum: String, path: String)] = []
        for line in manifest.lines {
            guard let path = manifest.path(line), let checksum = checksums[path] else { return nil }
            entries.append((checksum, path))
        }
        guard entries.count == checksums.count else { return nil }
        let text = Manifest.text(entries)
        guard Int64(text.count) == signed.size, BundleUpdater.sha256(text) == signed.sha256 else { return nil }
        let url = store.downloads.appendingPathComponent("derived-\(signed.sha256)")
        do {
            try FileManager.default.createDirectory(at: store.downloads, withIntermediateDirectories: true)
            try text.write(to: url)
        } catch { return nil }
        return (signed.sha256, url)
    }

    /// Refuses before any download when the disk cannot take the files to
    /// fetch and the margin.
    private func checkRoom(for bytes: Int64) throws {
        try? FileManager.default.createDirectory(at: store.versions, withIntermediateDirectories: true)
        guard let free = freeSpace(store.folder) else { return }
        let needed = bytes + options.spaceMargin
        if free < needed {
            throw UpdateError.couldNot("\(store.folder.path): \(free) bytes free; version \(list.version) needs \(bytes) bytes fetched and \(options.spaceMargin) kept free")
        }
    }

    /// Every object, at most `concurrentDownloads` at a time. A refused
    /// object does not stop the others, so every bad one is named; a
    /// network or disk failure stops them all.
    private func fetchAll(_ objects: [ChannelObject]) async throws -> [String: URL] {
        var fetched: [String: URL] = [:]
        var refusals: [String] = []
        var stopped: Error?
        var pending = objects[...]
        let downloads = self.downloads, counter = self.counter, limit = max(1, options.concurrentDownloads)
        await withTaskGroup(of: Fetched.self) { group in
            var running = 0
            while true {
                while stopped == nil, running < limit, let object = pending.popFirst() {
                    group.addTask { await Fetched(object, downloads: downloads, counter: counter) }
                    running += 1
                }
                guard let done = await group.next() else { break }
                running -= 1
                switch done.outcome {
                case .fetched(let url): fetched[done.sha256] = url
                case .refused(let problems): refusals += problems
                case .stopped(let error):
                    if stopped == nil { stopped = error }
                    group.cancelAll()
                }
            }
        }
        if let stopped { throw stopped }
        guard refusals.isEmpty else { throw UpdateError(.refused, refusals.sorted()) }
        return fetched
    }

    /// One object's fetch as a value: child tasks never throw, so the
    /// group decides what a failure stops.
    private struct Fetched: Sendable {
        enum Outcome: Sendable {
            case fetched(URL)
            case refused([String])
            case stopped(Error)
        }

        let sha256: String
        let outcome: Outcome

        init(_ object: ChannelObject, downloads: ObjectDownloads, counter: FetchCounter) async {
            sha256 = object.sha256
            do {
                outcome = .fetched(try await downloads.fetch(object, counter: counter))
            } catch let error as UpdateError where error.kind == .refused {
                outcome = .refused(error.problems)
            } catch {
                outcome = .stopped(error)
            }
        }
    }

    /// `source` at each file's path: a hard link when the file system
    /// allows (the bytes are never changed in place), else a copy, flushed.
    private func place(_ source: URL, as group: [ChannelFile]) throws {
        let manager = FileManager.default
        for file in group {
            let target = staging.appendingPathComponent(file.path)
            do {
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                do { try manager.linkItem(at: source, to: target) } catch {
                    try manager.copyItem(at: source, to: target)
                    try Durable.sync(target)
                }
            } catch {
                throw UpdateError.couldNot("\(target.path): cannot be written (\(error.localizedDescription))")
            }
        }
    }

    /// The assembled version as a bag: it opens as a bundle, and its own
    /// manifests list exactly the payload the signed list names, with the
    /// same SHA-256 (each file was checked against the list as it was
    /// placed).
    private func checkBag() throws {
        let bundle: KioskBundle
        do { bundle = try KioskBundle(folder: staging) } catch {
            throw UpdateError.refused("version \(list.version) does not open as a bundle: \(error)")
        }
        let expected = Dictionary(uniqueKeysWithValues: list.all.map { ($0.path, $0.sha256) })
        var found: [BundleProblem] = []
        var problems: [String] = []
        var named = Set<String>()
        let payload = bundle.readManifest(KioskBundle.manifestPath, required: true, problems: &found) ?? []
        let tags = bundle.readManifest(KioskBundle.tagManifestPath, required: false, problems: &found) ?? []
        for (manifest, entries) in [(KioskBundle.manifestPath, payload), (KioskBundle.tagManifestPath, tags)] {
            for entry in entries {
                named.insert(entry.path)
                if let sha256 = expected[entry.path], sha256 != entry.checksum {
                    problems.append("\(manifest) line \(entry.line): \(entry.path) is listed with \(entry.checksum); its signed SHA-256 is \(sha256)")
                } else if expected[entry.path] == nil {
                    problems.append("\(manifest) line \(entry.line) names \(entry.path), which version \(list.version) does not hold")
                }
            }
        }
        for file in list.files where !named.contains(file.path) {
            problems.append("\(file.path) is in version \(list.version) but not in \(KioskBundle.manifestPath)")
        }
        problems += found.map(\.description)
        guard problems.isEmpty else { throw UpdateError(.refused, problems) }
    }

    /// versions/<top>, then the link switched to it.
    private func moveIntoPlace() throws -> URL {
        let manager = FileManager.default
        Self.syncFolders(under: staging)
        let target = store.versions.appendingPathComponent(list.top)
        try? manager.removeItem(at: target)
        guard rename(staging.path, target.path) == 0 else {
            throw UpdateError.couldNot("\(target.path): cannot be made (\(String(cString: strerror(errno))))")
        }
        Durable.syncFolder(store.versions)
        try store.switchLink(to: target)
        return target
    }

    /// Every folder's entries flushed, so the renames that follow publish
    /// files a power loss cannot take back.
    private static func syncFolders(under root: URL) {
        var folders = [root]
        while let folder = folders.popLast() {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
                let child = folder.appendingPathComponent(name)
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: child.path, isDirectory: &isFolder), isFolder.boolValue { folders.append(child) }
            }
            Durable.syncFolder(folder)
        }
    }

    /// Files of bundles on the device by their SHA-256, as their manifests
    /// say: a hint only, each checked before it is used.
    static func localFiles(in folders: [URL]) -> [String: URL] {
        var found: [String: URL] = [:]
        for folder in folders {
            guard let bundle = try? KioskBundle(folder: folder) else { continue }
            var ignored: [BundleProblem] = []
            for manifest in [KioskBundle.manifestPath, KioskBundle.tagManifestPath] {
                for entry in bundle.readManifest(manifest, required: false, problems: &ignored) ?? [] where found[entry.checksum] == nil {
                    let url = folder.appendingPathComponent(entry.path)
                    if FileManager.default.fileExists(atPath: url.path) { found[entry.checksum] = url }
                }
            }
        }
        return found
    }
}

/// The channel's objects, fetched into `downloads/`: `SHA256.part` while
/// it comes (kept across launches, continued by a Range request), renamed
/// `SHA256` once its bytes are checked.
struct ObjectDownloads: Sendable {
    let store: BundleStore
    let fetcher: ChannelFetcher

    func fetch(_ object: ChannelObject, counter: FetchCounter?) async throws -> URL {
        let manager = FileManager.default
        do { try manager.createDirectory(at: store.downloads, withIntermediateDirectories: true) } catch {
            throw UpdateError.couldNot("\(store.downloads.path): cannot be created (\(error.localizedDescription))")
        }
        let done = store.downloads.appendingPathComponent(object.sha256)
        if manager.fileExists(atPath: done.path) {
            if (try? KioskBundle.sha256(of: done)) == object.sha256 {
                counter?.fileDone()
                return done
            }
            try? manager.removeItem(at: done)
        }
        let part = store.downloads.appendingPathComponent(object.sha256 + ".part")
        try await fetcher.file(object.path, to: part, size: object.size) { counter?.add(bytes: $0) }
        let digest: String
        do { digest = try KioskBundle.sha256(of: part) } catch {
            throw UpdateError.couldNot("\(part.path): cannot be read back (\(error.localizedDescription))")
        }
        guard digest == object.sha256 else {
            try? manager.removeItem(at: part)
            throw UpdateError.refused("\(object.path): its SHA-256 is \(digest), not the one the signed index names")
        }
        guard rename(part.path, done.path) == 0 else {
            throw UpdateError.couldNot("\(done.path): cannot be made (\(String(cString: strerror(errno))))")
        }
        counter?.fileDone()
        return done
    }
}

/// Bytes and files fetched so far, told to the app as they change.
final class FetchCounter: @unchecked Sendable {
    private let lock = NSLock()
    private let progress: @Sendable (UpdateProgress) -> Void
    private var state = UpdateProgress(phase: .fetching)

    init(progress: @escaping @Sendable (UpdateProgress) -> Void) { self.progress = progress }

    var bytes: Int64 { lock.withLock { state.bytesFetched } }
    var files: Int { lock.withLock { state.filesFetched } }
    var totalBytes: Int64 { lock.withLock { state.bytesToFetch } }
    var totalFiles: Int { lock.withLock { state.filesToFetch } }

    func start(files: Int, bytes: Int64) {
        report { $0.filesToFetch = files; $0.bytesToFetch = bytes }
    }

    func add(bytes: Int64) { report { $0.bytesFetched += bytes } }

    func fileDone() { report { $0.filesFetched += 1 } }

    private func report(_ change: (inout UpdateProgress) -> Void) {
        let now = lock.withLock { () -> UpdateProgress in
            change(&state)
            return state
        }
        progress(now)
    }
}
