import Foundation
@testable import MCPackKit
@testable import MCPackReader
import MCPackSchema

/// What `mcpack pull` and the app's updater read from a server before
/// and after its signature is checked: index.json and its signature (one
/// input: the index, a NUL byte, the signature), and a version's file list.
extension FuzzTarget {
    static let channel = FuzzTarget(name: "channel") { data in
        let parts = data.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let index = Data(parts[0]), signature = parts.count > 1 ? Data(parts[1]) : Data()
        let key = ChannelKeySeeds.trusted
        if case .success(let accepted) = ChannelIndexCheck.check(index: index, signature: signature, keys: [key]) {
            // Only what the key signed passes; a signed index keeps every rule.
            guard (try? ChannelIndex.decode(index)) == accepted else { fatalError("an accepted index that does not decode to itself") }
        }
        // The index and a list as if signed: every rule, any bytes.
        if let decoded = try? ChannelIndex.decode(index) {
            for (earlier, later) in zip(decoded.versions, decoded.versions.dropFirst())
            where SemanticOrder.compare(earlier.version, later.version) != .orderedAscending {
                fatalError("versions out of order passed: \(earlier.version), \(later.version)")
            }
        }
        if let list = try? JSONDecoder().decode(ChannelFileList.self, from: index) {
            let version = ChannelIndex.Version(version: list.version, top: list.top, list: ChannelObject(sha256: String(repeating: "0", count: 64), size: 0),
                                               files: list.all.count, bytes: list.bytes)
            if (try? ChannelFileList.decode(index, for: version)) != nil {
                for file in list.all where !(BagPath.isPlain(file.path) || file.path.split(separator: "/").allSatisfy { $0 != ".." && !$0.isEmpty }) {
                    fatalError("an unsafe path passed: \(file.path)")
                }
            }
        }
        if let parsed = try? MinisignText.signature(signature), let comment = ChannelTrustedComment.parse(parsed.trustedComment),
           comment.description != parsed.trustedComment {
            fatalError("a trusted comment that does not read back: \(parsed.trustedComment)")
        }
    }
}

enum ChannelKeySeeds {
    static var trusted: ChannelKey { try! ChannelKey(minisignPublicKey: Minisign.publicKeyText(FuzzKeys.minisignPublic)) }

    /// A signed index of two versions, a damaged one, and a file list.
    static func write(root: URL) throws {
        let folder = root.appendingPathComponent("channel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let list = ChannelFileList(version: "1.1.0", top: "fuzz-1.1.0",
                                   files: [ChannelFile(path: "data/bundle.json", size: 12, sha256: String(repeating: "a", count: 64))],
                                   tags: [ChannelFile(path: "bagit.txt", size: 55, sha256: String(repeating: "b", count: 64))])
        let listData = list.encoded()
        let index = ChannelIndex(name: "fuzz", sequence: 3, published: "2025-06-01T12:00:00Z", expires: "2025-07-01T12:00:00Z", versions: [
            ChannelIndex.Version(version: "1.0.0", top: "fuzz-1.0.0", list: ChannelObject(sha256: String(repeating: "c", count: 64), size: 90), files: 2, bytes: 60),
            ChannelIndex.Version(version: "1.1.0", top: "fuzz-1.1.0", list: ChannelObject(sha256: String(repeating: "d", count: 64), size: Int64(listData.count)),
                                 files: 2, bytes: 67),
        ])
        let indexData = index.encoded()
        let key = ChannelSignature.Key(secret: FuzzKeys.minisign)
        let signature = try ChannelSignature.sign(indexData, comment: ChannelTrustedComment(index), key: key)
        try (indexData + Data([0]) + signature).write(to: folder.appendingPathComponent("signed"))
        var other = indexData
        other[other.count / 2] ^= 1
        try (other + Data([0]) + signature).write(to: folder.appendingPathComponent("tampered"))
        try listData.write(to: folder.appendingPathComponent("list"))
    }
}
