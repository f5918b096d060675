import Foundation
@testable import MCPackKit
import Testing

/// verify checks a signature on one read of an archive and the bag on
/// another: an archive replaced or rewritten between the two must fail the
/// signature, not pass it for bytes it was not checked against.
@Suite struct FileSnapshotTests {
    @Test func anArchiveReplacedOrRewrittenIsNoLongerTheOneSigned() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-snapshot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("a.zip").path
        try Data("first".utf8).write(to: URL(fileURLWithPath: archive))
        let good = SignatureReport(file: archive + ".minisig", format: "minisign", checked: true, valid: true, signer: "key", trustedComment: nil, problem: nil)

        let before = try #require(FileSnapshot(archive))
        #expect(FileSnapshot(archive) == before)
        #expect(good.failed(ifChangedSince: before, archive: archive).valid)

        // Another file of the same size renamed over it.
        let other = folder.appendingPathComponent("b.zip").path
        try Data("other".utf8).write(to: URL(fileURLWithPath: other))
        _ = rename(other, archive)
        let replaced = good.failed(ifChangedSince: before, archive: archive)
        #expect(!replaced.valid)
        #expect(replaced.problem?.contains("changed while it was being verified") == true)

        // Rewritten in place, one byte longer.
        let again = try #require(FileSnapshot(archive))
        let handle = try #require(FileHandle(forWritingAtPath: archive))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("!".utf8))
        try handle.close()
        #expect(!good.failed(ifChangedSince: again, archive: archive).valid)

        // A signature not checked (no --public-key) is left as it was.
        let unchecked = SignatureReport(file: archive + ".sig", format: "sshsig", checked: false, valid: false, signer: nil, trustedComment: nil, problem: nil)
        #expect(unchecked.failed(ifChangedSince: before, archive: archive).problem == nil)
    }
}
