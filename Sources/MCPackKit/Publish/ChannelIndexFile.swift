import MCPackInputs
import FileIO
import Foundation
import MCPackSchema

/// A channel's folder and the two files that make its state: `index.json`
/// and `index.json.minisig`. They are replaced by two renames, the
/// signature first, so an index is never in place before its signature;
/// between the two, the new signature stands beside the old index, and a
/// reader retries (docs/channel.md). A publisher killed in that instant
/// leaves its new index staged beside them, and the next publisher, which
/// finds the signature in place admits that staged index, finishes the
/// switch before anything else.
struct ChannelFolder {
    let url: URL
    /// As the user named it, for messages.
    let shown: String

    init(_ path: String) {
        url = URL(fileURLWithPath: path).standardizedFileURL
        shown = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
    }

    var index: URL { url.appendingPathComponent(ChannelNames.index) }
    var signature: URL { url.appendingPathComponent(ChannelNames.signature) }
    var store: ObjectStore { ObjectStore(channel: url, shown: shown) }

    func display(_ relative: String) -> String { shown + "/" + relative }

    /// Staged indexes of publishers no longer running.
    private func stagedIndexes() -> [URL] {
        let own = OutputFile.temporary(for: index).lastPathComponent
        let prefix = "." + ChannelNames.index + OutputFile.marker
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0 != own }.sorted().map { url.appendingPathComponent($0) }
    }

    /// Finishes a switch a killed publisher left halfway: a signature in
    /// place that admits not the index beside it but one staged. Returns
    /// what it did, or nil when there was nothing to finish.
    func finishInterruptedSwitch(key: ChannelSignature.Key) throws -> String? {
        guard let signature = try? Data(contentsOf: self.signature) else { return nil }
        let current = try? Data(contentsOf: index)
        if let current, case .success = ChannelSignature.check(current, signature: signature, key: key.publicKey) {
            return nil
        }
        for staged in stagedIndexes() {
            guard let data = try? Data(contentsOf: staged),
                  case .success = ChannelSignature.check(data, signature: signature, key: key.publicKey) else { continue }
            let output = OutputFile(final: index)
            try FileManager.default.moveItem(at: staged, to: output.temporary)
            try output.commit()
            return "\(display(ChannelNames.index)): a publisher was stopped between writing the signature and the index; its index is now in place"
        }
        return nil
    }

    /// The index in place, its signature checked with the sender's key;
    /// nil for a channel never published to. Anything else is a damaged
    /// channel, refused.
    func current(key: ChannelSignature.Key) throws -> ChannelIndex? {
        let indexName = display(ChannelNames.index), signatureName = display(ChannelNames.signature)
        func contents(_ url: URL, _ name: String) throws -> Data? {
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            do { return try Data(contentsOf: url) } catch { throw FileError(path: name, message: "cannot read it: \(error.localizedDescription)") }
        }
        let indexData = try contents(index, indexName)
        let signatureData = try contents(signature, signatureName)
        func refuse(_ path: String, _ message: String) -> PublishRefusal {
            PublishRefusal([Problem(path, "channel", message)])
        }
        guard let indexData else {
            if signatureData == nil { return nil }
            throw refuse(indexName, "missing beside \(ChannelNames.signature): the channel is damaged; restore index.json from a copy")
        }
        guard let signatureData else {
            throw refuse(signatureName, "missing: \(ChannelNames.index) has no signature beside it, and readers refuse it so; restore it from a copy")
        }
        switch ChannelSignature.check(indexData, signature: signatureData, key: key.publicKey) {
        case .failure(.damaged(let why)):
            throw refuse(signatureName, "\(why): the channel is damaged")
        case .failure(.prehashed):
            throw refuse(signatureName, "a prehashed (\"ED\") signature, which readers refuse: a channel's index is signed whole (\"Ed\") so the app can check it without BLAKE2b")
        case .failure(.untrustedKey(let id)):
            throw refuse(signatureName, "signed by minisign key \(id), not by --sign-key's key \(key.idText): kiosks that trust \(id) would refuse an index signed with this key; sign with \(id)'s secret key, or publish to a new channel")
        case .failure(.mismatch):
            throw refuse(indexName, "does not match its signature \(ChannelNames.signature): the channel is damaged (changed after signing?); restore both from a copy")
        case .failure(.commentAltered):
            throw refuse(signatureName, "its trusted comment was changed after signing: the channel is damaged")
        case .success(let comment):
            let parsed: ChannelIndex
            do { parsed = try ChannelIndex.decode(indexData) } catch { throw refuse(indexName, error.message) }
            guard ChannelTrustedComment.parse(comment)?.matches(parsed) == true else {
                throw refuse(signatureName, "its trusted comment \"\(comment)\" does not name this index's channel, sequence and expiry")
            }
            return parsed
        }
    }

    /// Writes `index` and its signature, each flushed under a staged name,
    /// then renames the signature into place and then the index.
    func write(_ index: ChannelIndex, key: ChannelSignature.Key, hooks: PublishHooks) throws {
        let data = index.encoded()
        guard data.count <= ChannelLimits.maxIndexBytes else {
            throw PublishRefusal([Problem(display(ChannelNames.index), "channel", "would be \(data.count) bytes, over the \(ChannelLimits.maxIndexBytes) readers accept: prune old versions (--prune)")])
        }
        let signature = try ChannelSignature.sign(data, comment: ChannelTrustedComment(index), key: key)
        let indexOutput = OutputFile(final: self.index)
        let signatureOutput = OutputFile(final: self.signature)
        try Self.flushed(data, to: indexOutput.temporary, shown: display(ChannelNames.index))
        try Self.flushed(signature, to: signatureOutput.temporary, shown: display(ChannelNames.signature))
        hooks.beforeSwitch?()
        try signatureOutput.commit()
        hooks.betweenRenames?()
        try indexOutput.commit()
    }

    private static func flushed(_ data: Data, to url: URL, shown: String) throws {
        do {
            let writer = try FileWriter(path: url.path)
            try data.withUnsafeBytes { try writer.write($0) }
            try writer.sync()
        } catch let error as FileError {
            throw FileError(path: shown, message: "cannot write: \(error.message)")
        }
    }
}

/// A publish refused: the archive does not verify, the channel is
/// damaged, or the version is there with other contents. Exit 1; every
/// problem found is listed.
package struct PublishRefusal: Error, Sendable, CustomStringConvertible {
    package var problems: [Problem]

    package init(_ problems: [Problem]) { self.problems = problems }

    package var description: String { problems.map(\.description).joined(separator: "\n") }
}
