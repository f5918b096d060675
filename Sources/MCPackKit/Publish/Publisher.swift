import MCPackInputs
import MCPackBag
import FileIO
import Foundation
import MCPackSchema

/// What `mcpack publish` is asked to do to a channel.
package struct PublishOptions: Sendable {
    package enum Action: Sendable, Equatable {
        /// Adds an archive's version; with `prune`, keeps that many newest after.
        case publish(archive: String, prune: Int?)
        /// Keeps the newest versions and removes every object no kept version names.
        case prune(keep: Int)
        /// Signs the index again with a new expiry; nothing else changes.
        case renew
    }

    package var channel: String
    package var action: Action
    /// How long the new index stays valid.
    package var lifetime: TimeInterval
    package var now: Date
    package var events: (@Sendable (PublishEvent) -> Void)?
    package var hooks: PublishHooks

    package init(channel: String, action: Action, lifetime: TimeInterval = ChannelDuration.defaultLifetime, now: Date = Date(),
                events: (@Sendable (PublishEvent) -> Void)? = nil, hooks: PublishHooks = PublishHooks()) {
        self.channel = channel
        self.action = action
        self.lifetime = lifetime
        self.now = now
        self.events = events
        self.hooks = hooks
    }
}

/// What a publisher says while it works, before its result.
package enum PublishEvent: Sendable {
    /// Another publisher holds the channel's lock (its pid, when known).
    case waiting(lock: String, holder: String?)
    /// A warning of verify's about the archive, published all the same.
    case warning(String)
    /// Something found and dealt with: a switch a killed publisher left halfway.
    case note(String)
}

/// The moments between a publish's steps, for tests that look at the
/// channel there: what is on disk then is what a kill there leaves.
package struct PublishHooks: Sendable {
    /// The version's objects and its file list are written; the index is not.
    package var afterObjects: (@Sendable () -> Void)?
    /// The new index and signature are flushed under staged names.
    package var beforeSwitch: (@Sendable () -> Void)?
    /// The new signature is in place; the new index not yet.
    package var betweenRenames: (@Sendable () -> Void)?

    package init(afterObjects: (@Sendable () -> Void)? = nil, beforeSwitch: (@Sendable () -> Void)? = nil,
                betweenRenames: (@Sendable () -> Void)? = nil) {
        self.afterObjects = afterObjects
        self.beforeSwitch = beforeSwitch
        self.betweenRenames = betweenRenames
    }
}

/// What a publish did, as `--json` prints it.
package struct PublishResult: Sendable, Encodable {
    package enum Outcome: String, Sendable, Encodable {
        /// A version was added (and, with --prune, old ones removed).
        case published
        /// The version was there with the same files: nothing changed.
        case unchanged
        case pruned
        case renewed
    }

    package var ok = true
    package var channel: String
    package var outcome: Outcome
    /// The archive's version, when one was given.
    package var version: String?
    /// The index as it stands now.
    package var sequence: Int
    package var expires: String
    package var versions: [String]
    package var objectsWritten = 0
    package var bytesWritten: Int64 = 0
    package var objectsReused = 0
    /// Versions taken out by --prune, and what that freed.
    package var pruned: [String] = []
    package var objectsRemoved = 0
    package var bytesRemoved: Int64 = 0
    /// Warnings about the archive, and anything the publisher repaired.
    package var notes: [String] = []
}

/// The minisign key a channel is signed with, read (and decrypted) once
/// before the archive is read.
package struct ChannelSigningKey {
    let key: ChannelSignature.Key

    /// The minisign key ID, as minisign prints it.
    package var id: String { key.idText }
}

/// `mcpack publish`: adds a verified archive's version to an update
/// channel, prunes old versions, or renews the index's signature
/// (docs/channel.md). One publisher at a time, by the channel's lock.
package enum Publisher {
    package static func loadKey(_ file: String, password: () throws -> String) throws -> ChannelSigningKey {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) else { throw FileError(path: file, message: "--sign-key: no such file") }
        guard !isFolder.boolValue else { throw FileError(path: file, message: "--sign-key: a folder, not a key file") }
        switch try ArchiveSigner.loadKey(file, password: password).kind {
        case .minisign(let secret): return ChannelSigningKey(key: ChannelSignature.Key(secret: secret))
        case .ssh:
            throw FileError(path: file, message: "an OpenSSH key: a channel is signed with a minisign secret key (minisign -G), whose Ed25519 signature the app checks with CryptoKit")
        }
    }

    package static func run(_ options: PublishOptions, key: ChannelSigningKey) throws -> PublishResult {
        let folder = ChannelFolder(options.channel)
        var bundle: ArchiveBundle?
        if case .publish(let archive, _) = options.action {
            bundle = try ArchiveBundle.check(archive)
            for warning in bundle!.warnings { options.events?(.warning(warning)) }
            try makeFolder(folder)
        } else {
            guard FileManager.default.fileExists(atPath: folder.index.path) || FileManager.default.fileExists(atPath: folder.signature.path) else {
                throw FileError(path: folder.display(ChannelNames.index), message: "no such file: \(options.channel) is not a channel yet (publish an archive to it first)")
            }
        }
        let lock = try ChannelLock(folder: folder.url) { holder in
            options.events?(.waiting(lock: folder.display(ChannelLock.name), holder: holder))
        }
        defer { withExtendedLifetime(lock) {} }
        var notes = bundle?.warnings ?? []
        if let note = try folder.finishInterruptedSwitch(key: key.key) {
            notes.append(note)
            options.events?(.note(note))
        }
        _ = OutputFile.removeAbandoned(in: folder.url)
        let current = try folder.current(key: key.key)
        var change = ChannelChange(folder: folder, current: current, options: options, key: key.key)
        change.result.notes = notes
        if let bundle { try change.add(bundle) }
        switch options.action {
        case .publish(_, let keep?), .prune(let keep): try change.prune(keeping: keep)
        case .publish, .renew: break
        }
        try change.commit()
        return change.result
    }

    private static func makeFolder(_ folder: ChannelFolder) throws {
        do {
            try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        } catch {
            throw FileError(path: folder.shown, message: "cannot make the channel's folder: \(error.localizedDescription)")
        }
    }
}

/// The archive to publish, verified, with its bundle's name and version.
struct ArchiveBundle {
    var path: String
    var name: String
    var version: String
    var warnings: [String]

    /// The kit's verify, whole: a bag that is not valid is refused with
    /// every problem it has. Then bag-info.txt names the bundle.
    static func check(_ archive: String) throws -> ArchiveBundle {
        guard FileManager.default.fileExists(atPath: archive) else { throw FileError(path: archive, message: "no such file or folder") }
        let report = try Verifier.verify(archive)
        guard report.ok else {
            throw PublishRefusal(report.problems.filter { $0.severity == .error } + [Problem(archive, "verify", "does not verify: nothing was published")])
        }
        let warnings = report.problems.map { "\(archive): \($0)" }
        let info = BagInfo.labels(String(decoding: try BagFiles.read(["bag-info.txt"], of: archive)["bag-info.txt"] ?? Data(), as: UTF8.self))
        let name = info.first { $0.0 == "Bundle-Name" }?.1, version = info.first { $0.0 == "Bundle-Version" }?.1
        guard let name, ChannelNames.isBundleName(name) else {
            throw PublishRefusal([Problem("bag-info.txt", "bundle", "has no Bundle-Name mcpack wrote: a channel holds bundles mcpack built")])
        }
        guard let version, SemanticOrder.isVersion(version) else {
            throw PublishRefusal([Problem("bag-info.txt", "bundle", "Bundle-Version \(version.map { "\"\($0)\" is not a semantic version" } ?? "is missing"): a channel's versions are semantic versions")])
        }
        return ArchiveBundle(path: archive, name: name, version: version, warnings: warnings)
    }
}
