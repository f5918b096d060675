import Crypto
import Foundation
import MCPackSchema

/// What the app tells the updater: where the channel is, whose signature
/// it trusts, and how strict to be.
public struct UpdateOptions: Sendable {
    /// The channel's folder URL, the one holding index.json.
    public var channel: URL
    /// The sender's minisign public keys; an index signed by any other is
    /// refused.
    public var trustedKeys: [ChannelKey]
    /// The bundle the channel must be of (bundle.toml's name); nil takes
    /// the first channel's name, and the store holds to it after.
    public var bundleName: String?
    /// Sent with every request: a private channel's token, say.
    public var headers: [String: String] = [:]
    /// How far past its expiry an index is still accepted, for a kiosk
    /// whose clock is off.
    public var clockGrace: TimeInterval = 24 * 3600
    /// Install the channel's newest version even when it is not newer
    /// than every version installed before.
    public var allowRollback = false
    /// Bundles already on the device (the one shipped inside the app):
    /// their files are reused by SHA-256, so a first update fetches only
    /// what differs from them.
    public var localBundles: [URL] = []
    /// Waits before fetching the index and its signature again when they
    /// do not match (a publisher or an upload between the two requests).
    public var retryDelays: [TimeInterval] = [2, 10, 30]
    /// Objects fetched at once.
    public var concurrentDownloads = 4
    /// A request that receives nothing for this long fails.
    public var requestTimeout: TimeInterval = 60
    /// Room kept free beside the new files, in bytes.
    public var spaceMargin: Int64 = 64 << 20

    public init(channel: URL, trustedKeys: [ChannelKey]) {
        self.channel = channel
        self.trustedKeys = trustedKeys
    }
}

/// How far an update is, as it goes.
public struct UpdateProgress: Sendable, Equatable {
    public enum Phase: String, Sendable {
        /// Fetching and checking the index, then the version's file list.
        case checking
        /// Files already on the device, placed and checked.
        case reusing
        /// Fetching the files the device lacks.
        case fetching
        /// The new version checked whole as a bag, then made current.
        case installing
    }

    public var phase: Phase
    public var bytesFetched: Int64
    public var bytesToFetch: Int64
    public var filesFetched: Int
    public var filesToFetch: Int

    public init(phase: Phase, bytesFetched: Int64 = 0, bytesToFetch: Int64 = 0, filesFetched: Int = 0, filesToFetch: Int = 0) {
        self.phase = phase
        self.bytesFetched = bytesFetched
        self.bytesToFetch = bytesToFetch
        self.filesFetched = filesFetched
        self.filesToFetch = filesToFetch
    }
}

/// What an update did.
public struct UpdateResult: Sendable, Equatable, Codable {
    public enum Outcome: String, Sendable, Codable {
        /// A new version was installed and is current.
        case installed
        /// The installed version is the channel's newest: nothing to do.
        case current
        /// The channel's newest version is the one `BundleStore.rollBack()`
        /// left (`heldBack`): it is not installed again until a newer one
        /// is published or rollback is allowed. Nothing fetched.
        case heldBack
    }

    public var outcome: Outcome
    /// The version now current, and the one before it when it changed.
    public var version: String
    public var previousVersion: String?
    /// The current version's folder (behind the store's link).
    public var folder: String
    /// The channel index's sequence.
    public var sequence: Int
    public var bytesFetched: Int64
    public var filesFetched: Int
    /// Files taken from the device rather than fetched.
    public var filesReused: Int
    /// With `.heldBack`, the channel's newest version, the one rolled back
    /// from.
    public var heldBack: String?

    public init(outcome: Outcome, version: String, previousVersion: String? = nil, folder: String, sequence: Int,
                bytesFetched: Int64, filesFetched: Int, filesReused: Int, heldBack: String? = nil) {
        self.outcome = outcome
        self.version = version
        self.previousVersion = previousVersion
        self.folder = folder
        self.sequence = sequence
        self.bytesFetched = bytesFetched
        self.filesFetched = filesFetched
        self.filesReused = filesReused
        self.heldBack = heldBack
    }
}

/// Keeps a bundle current from an update channel (docs/channel.md) that
/// `mcpack publish` writes and any web server serves: the index's
/// signature checked before it is read, an older or expired index refused,
/// only files the device lacks fetched, every byte checked against its
/// SHA-256, the new version assembled beside the current one, checked
/// whole, and made current by one atomic switch.
///
/// Call `update` off the main thread's critical moments (it awaits the
/// network and reads every file of the new version once); cancel its task
/// to stop it, at no harm: what was fetched is kept for the next try.
public final class BundleUpdater: Sendable {
    public let store: BundleStore
    public let options: UpdateOptions
    let now: @Sendable () -> Date
    let freeSpace: @Sendable (URL) -> Int64?

    public convenience init(store: BundleStore, options: UpdateOptions) {
        self.init(store: store, options: options, now: { Date() }, freeSpace: BundleUpdater.availableSpace)
    }

    init(store: BundleStore, options: UpdateOptions, now: @escaping @Sendable () -> Date, freeSpace: @escaping @Sendable (URL) -> Int64?) {
        self.store = store
        self.options = options
        self.now = now
        self.freeSpace = freeSpace
    }

    /// Checks the channel and installs its newest version when it is newer
    /// than the installed one. Throws `UpdateError` (refused or could not)
    /// or `CancellationError`; either way the current bundle is untouched.
    public func update(progress: @escaping @Sendable (UpdateProgress) -> Void = { _ in }) async throws -> UpdateResult {
        guard !options.trustedKeys.isEmpty else { throw UpdateError.couldNot("no trusted key: give the channel's minisign public key") }
        let lock = try StoreLock(folder: store.folder)
        defer { lock.release() }
        store.cleanUp()
        let fetcher = ChannelFetcher(base: options.channel, headers: options.headers, timeout: options.requestTimeout)
        defer { fetcher.close() }

        progress(UpdateProgress(phase: .checking))
        let (index, _) = try await acceptIndex(fetcher)
        let installed = store.current.flatMap { folder in Self.version(of: folder).map { (folder: folder, version: $0) } }
        guard let newest = index.newest else { throw UpdateError.refused("\(ChannelNames.index) lists no version") }
        if let installed, installed.version == newest.version {
            try finishInterruptedSwitch(to: installed.version)
            return UpdateResult(outcome: .current, version: installed.version, folder: installed.folder.path, sequence: index.sequence,
                                bytesFetched: 0, filesFetched: 0, filesReused: 0)
        }
        if let installed, !options.allowRollback, store.loadState().rolledBackFrom == newest.version {
            return UpdateResult(outcome: .heldBack, version: installed.version, folder: installed.folder.path, sequence: index.sequence,
                                bytesFetched: 0, filesFetched: 0, filesReused: 0, heldBack: newest.version)
        }
        try checkNewer(newest.version, installed: installed?.version)

        let list = try await fetchList(newest, fetcher)
        // The installed version is named previous before the switch, so a
        // kill just after it still leaves it kept for rollBack().
        var state = store.loadState()
        if let installed {
            state.previous = installed.folder.lastPathComponent
            try store.saveState(state)
        }
        let job = try InstallJob(updater: self, list: list, fetcher: fetcher, progress: progress)
        let folder = try await job.run(installedFolder: installed?.folder)

        state = store.loadState()
        if state.highestVersion.map({ SemanticOrder.compare(newest.version, $0) == .orderedDescending }) ?? true {
            state.highestVersion = newest.version
        }
        state.rolledBackFrom = nil
        try store.saveState(state)
        store.cleanUp()
        try? FileManager.default.removeItem(at: store.downloads)
        return UpdateResult(outcome: .installed, version: newest.version, previousVersion: installed?.version, folder: folder.path,
                            sequence: index.sequence, bytesFetched: job.counter.bytes, filesFetched: job.counter.files, filesReused: job.reused)
    }

    /// A kill after the link switched and before the state was written
    /// leaves the newest version installed under the state of the one
    /// before: its highest version not raised, its downloads kept. Found
    /// current next time, that update is finished here, or the store would
    /// keep both until some later update.
    private func finishInterruptedSwitch(to version: String) throws {
        var state = store.loadState()
        if state.highestVersion.map({ SemanticOrder.compare(version, $0) == .orderedDescending }) ?? true {
            state.highestVersion = version
            state.rolledBackFrom = nil
            try store.saveState(state)
        }
        if FileManager.default.fileExists(atPath: store.downloads.path) {
            try? FileManager.default.removeItem(at: store.downloads)
        }
    }

    /// The index, its signature checked (fetched again after a pause when
    /// the two do not match, as a publish between the two requests
    /// leaves them), then held to what this store has accepted before.
    func acceptIndex(_ fetcher: ChannelFetcher) async throws -> (ChannelIndex, Data) {
        var attempt = 0
        while true {
            let data = try await fetcher.data(ChannelNames.index, limit: ChannelLimits.maxIndexBytes)
            let signature = try await fetcher.data(ChannelNames.signature, limit: ChannelLimits.maxSignatureBytes)
            switch ChannelIndexCheck.check(index: data, signature: signature, keys: options.trustedKeys) {
            case .success(let index):
                try accept(index, bytes: data)
                return (index, data)
            case .failure(.mismatch) where attempt < options.retryDelays.count:
                try await Task.sleep(nanoseconds: UInt64(options.retryDelays[attempt] * 1e9))
                attempt += 1
            case .failure(let failure):
                throw UpdateError.refused(failure.message)
            }
        }
    }

    private func accept(_ index: ChannelIndex, bytes: Data) throws {
        var state = store.loadState()
        let digest = BundleUpdater.sha256(bytes)
        var problems: [String] = []
        if let expected = options.bundleName, expected != index.name {
            problems.append("\(ChannelNames.index) is the channel of \(index.name), not of \(expected)")
        } else if let channel = state.channel, channel != index.name {
            problems.append("\(ChannelNames.index) is the channel of \(index.name); the bundles in \(store.folder.path) come from \(channel)")
        }
        if index.sequence < state.sequence {
            problems.append("\(ChannelNames.index): sequence \(index.sequence) is older than sequence \(state.sequence), accepted before (an old index served again)")
        } else if index.sequence == state.sequence, let known = state.indexSHA256, known != digest {
            problems.append("\(ChannelNames.index): another index with sequence \(index.sequence) was accepted before: the signing key made two indexes with one sequence")
        }
        let expires = ChannelTime.parse(index.expires) ?? .distantPast
        if expires.addingTimeInterval(options.clockGrace) < now() {
            problems.append("\(ChannelNames.index) expired at \(index.expires) (now \(ChannelTime.string(now())), grace \(Int(options.clockGrace)) s): the channel must be renewed (mcpack publish --renew)")
        }
        guard problems.isEmpty else { throw UpdateError(.refused, problems) }
        state.channel = index.name
        state.sequence = index.sequence
        state.indexSHA256 = digest
        try store.saveState(state)
    }

    private func checkNewer(_ newest: String, installed: String?) throws {
        guard !options.allowRollback else { return }
        let highest = [store.loadState().highestVersion, installed].compactMap { $0 }
            .max { SemanticOrder.compare($0, $1) == .orderedAscending }
        if let highest, SemanticOrder.compare(newest, highest) != .orderedDescending {
            throw UpdateError.refused("the channel's newest version is \(newest), not newer than \(highest), installed here before (a rollback: allow it to install \(newest))")
        }
    }

    private func fetchList(_ version: ChannelIndex.Version, _ fetcher: ChannelFetcher) async throws -> ChannelFileList {
        let file = try await ObjectDownloads(store: store, fetcher: fetcher).fetch(version.list, counter: nil)
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw UpdateError.couldNot("\(file.path): cannot be read back (\(error.localizedDescription))")
        }
        do { return try ChannelFileList.decode(data, for: version) } catch {
            throw UpdateError.refused(error.message)
        }
    }

    /// bundle.json's version, nil when the folder holds no readable bundle.
    static func version(of folder: URL) -> String? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(BundleJSON.path)),
              let head = try? JSONDecoder().decode(BundleJSON.Head.self, from: data) else { return nil }
        return head.bundle?.version
    }

    static func sha256(_ data: Data) -> String { KioskBundle.hex(SHA256.hash(data: data)) }

    /// Bytes free where the store is, as the system reports it to apps.
    @Sendable static func availableSpace(_ folder: URL) -> Int64? {
        #if canImport(Darwin)
        if let values = try? folder.resourceValues(forKeys: [.volumeAvailableCapacityForImportantUsageKey]),
           let bytes = values.volumeAvailableCapacityForImportantUsage {
            return bytes
        }
        #endif
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: folder.path)
        return (attributes?[.systemFreeSize] as? NSNumber)?.int64Value
    }
}
