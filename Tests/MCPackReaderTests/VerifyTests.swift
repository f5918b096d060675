import Foundation
import MCPackReader
import Testing

/// verify against the bag's manifests: an intact bag passes, and each kind
/// of damage is named by its path.
@Suite struct VerifyTests {
    @Test(arguments: ["dz", "iiif3"])
    func theIntactBagPasses(layout: String) async throws {
        let fixture = try await (layout == "dz" ? ReaderFixture.deepZoom : ReaderFixture.iiif).value
        let bundle = try fixture.open()
        let heard = Progress()
        #expect(Self.verifyHere(bundle, heard: heard).isEmpty)
        let calls = heard.calls
        let manifest = try String(contentsOf: fixture.bag.appendingPathComponent("manifest-sha256.txt"), encoding: .utf8)
        let tags = try String(contentsOf: fixture.bag.appendingPathComponent("tagmanifest-sha256.txt"), encoding: .utf8)
        let files = manifest.split(separator: "\n").count + tags.split(separator: "\n").count
        #expect(calls.count == files)
        #expect(calls.map(\.done) == Array(1...files))
        #expect(calls.allSatisfy { $0.total == files })
    }

    @Test func aChangedByteIsDamage() async throws {
        let fixture = try await ReaderFixture.deepZoom.value
        let copy = try fixture.copy()
        let tile = "data/document/master_files/9/1_1.jpeg"
        var bytes = try Data(contentsOf: copy.appendingPathComponent(tile))
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: copy.appendingPathComponent(tile))
        let problems = try KioskBundle(folder: copy).verify()
        #expect(problems.map(\.kind) == [.damaged])
        #expect(problems.map(\.path) == [tile])
        #expect(problems.first?.description.hasPrefix("\(tile): its SHA-256 is ") == true)
    }

    @Test func aMissingAndAnExtraFileAreNamed() async throws {
        let fixture = try await ReaderFixture.iiif.value
        let copy = try fixture.copy()
        let bundle = try KioskBundle(folder: copy)
        let tile = bundle.document.tile(level: bundle.document.fullLevel, column: 2, row: 1)
        try FileManager.default.removeItem(at: tile.url)
        try Data("notes".utf8).write(to: copy.appendingPathComponent("data/Assets.xcassets/Categories/notes.txt"))
        try FileManager.default.createDirectory(at: copy.appendingPathComponent("data/extra/deeper"), withIntermediateDirectories: true)
        try Data().write(to: copy.appendingPathComponent("data/extra/deeper/empty"))
        let problems = bundle.verify()
        let tilePath = "data/document/master/" + tile.url.path.components(separatedBy: "/data/document/master/")[1]
        #expect(Set(problems.map { "\($0.kind) \($0.path)" }) == ["missing \(tilePath)", "extra data/Assets.xcassets/Categories/notes.txt", "extra data/extra/deeper/empty"])
    }

    /// A link is a file the manifest does not list, never a folder walked
    /// into: one to a folder above would make the walk endless.
    @Test func linksAreExtraFilesNotFolders() async throws {
        let fixture = try await ReaderFixture.deepZoom.value
        let copy = try fixture.copy()
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: copy.appendingPathComponent("data/document/up").path, withDestinationPath: "..")
        try manager.createSymbolicLink(atPath: copy.appendingPathComponent("data/to-clauses.json").path, withDestinationPath: "clauses.json")
        let problems = try KioskBundle(folder: copy).verify()
        #expect(Set(problems.map { "\($0.kind) \($0.path)" }) == ["extra data/document/up", "extra data/to-clauses.json"])
    }

    /// A folder where a listed file should be: a payload file's is missing
    /// (the listing finds no file there, whatever opening the path does),
    /// and its folder's file extra; a tag file's cannot be read, in the
    /// system's words. A file where a listed one's folder should be: the
    /// files under it missing. A link to nothing in a listed file's place
    /// is there, and cannot be read.
    @Test func aFolderOrAFileInAListedFilesPlaceIsNamed() async throws {
        let fixture = try await ReaderFixture.deepZoom.value
        let copy = try fixture.copy()
        let manager = FileManager.default
        let tile = copy.appendingPathComponent("data/document/master_files/8/0_0.jpeg")
        try manager.removeItem(at: tile)
        try manager.createDirectory(at: tile, withIntermediateDirectories: false)
        try Data("x".utf8).write(to: tile.appendingPathComponent("inside"))
        try manager.removeItem(at: copy.appendingPathComponent("bag-info.txt"))
        try manager.createDirectory(at: copy.appendingPathComponent("bag-info.txt"), withIntermediateDirectories: false)
        let level = copy.appendingPathComponent("data/document/master_files/9")
        let tiles = try manager.contentsOfDirectory(atPath: level.path)
        try manager.removeItem(at: level)
        try Data("not a folder".utf8).write(to: level)
        let dangling = copy.appendingPathComponent("data/document/master_files/7/0_0.jpeg")
        try manager.removeItem(at: dangling)
        try manager.createSymbolicLink(atPath: dangling.path, withDestinationPath: "nowhere.jpeg")

        let problems = try KioskBundle(folder: copy).verify()
        let expected = Set(["missing data/document/master_files/8/0_0.jpeg", "extra data/document/master_files/8/0_0.jpeg/inside", "unreadable bag-info.txt",
                            "unreadable data/document/master_files/7/0_0.jpeg",
                            "extra data/document/master_files/9"] + tiles.map { "missing data/document/master_files/9/\($0)" })
        #expect(Set(problems.map { "\($0.kind) \($0.path)" }) == expected)
        #expect(problems.count == expected.count)
        #expect(problems.first { $0.path == "bag-info.txt" }?.detail == "cannot be read (Is a directory)", "\(problems)")
        #expect(problems.first { $0.path.hasSuffix("7/0_0.jpeg") }?.detail == "cannot be read (No such file or directory)", "\(problems)")
        #expect(problems.first { $0.path == "data/document/master_files/8/0_0.jpeg" }?.detail == "is listed in manifest-sha256.txt but not in the bundle")
    }

    @Test func aManifestEditedToMatchIsCaughtByTheTagManifest() async throws {
        let fixture = try await ReaderFixture.deepZoom.value
        let copy = try fixture.copy()
        let manifest = copy.appendingPathComponent("manifest-sha256.txt")
        var text = try String(contentsOf: manifest, encoding: .utf8)
        text = text.replacingOccurrences(of: "data/clauses.json", with: "data/clauses2.json")
        try text.write(to: manifest, atomically: true, encoding: .utf8)
        let problems = try KioskBundle(folder: copy).verify()
        #expect(Set(problems.map { "\($0.kind) \($0.path)" }) == ["damaged manifest-sha256.txt", "missing data/clauses2.json", "extra data/clauses.json"])
    }

    @Test func aMissingOrMalformedManifestIsSaid() async throws {
        let fixture = try await ReaderFixture.deepZoom.value
        let copy = try fixture.copy()
        let manifest = copy.appendingPathComponent("manifest-sha256.txt")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        try (text + "nothex  data/x\nabc\n" + String(repeating: "0", count: 64) + "  ../outside\n").write(to: manifest, atomically: true, encoding: .utf8)
        let problems = try KioskBundle(folder: copy).verify().filter { $0.kind == .unreadableManifest }
        #expect(problems.count == 3)
        #expect(problems.allSatisfy { $0.path == "manifest-sha256.txt" })
        try FileManager.default.removeItem(at: manifest)
        #expect(try KioskBundle(folder: copy).verify() == [BundleProblem(kind: .unreadableManifest, path: "manifest-sha256.txt", detail: "is missing: nothing can be checked")])
    }

    /// The app holds manifest lines to the packager's own rule (BagPath):
    /// a home folder, a drive letter, a control character or a .. past the
    /// top is refused, naming the line and why; a .. that stays inside
    /// names a file.
    @Test func manifestLinesAreHeldToThePackagersSafePathRule() async throws {
        let fixture = try await ReaderFixture.deepZoom.value
        let copy = try fixture.copy()
        let manifest = copy.appendingPathComponent("manifest-sha256.txt")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let zero = String(repeating: "0", count: 64)
        let hostile = ["~root/.ssh/authorized_keys", "C:/Windows/evil", "data/bell\u{07}", "data/../../outside", "data/..\\..\\evil"]
        try (text + hostile.map { "\(zero)  \($0)\n" }.joined()).write(to: manifest, atomically: true, encoding: .utf8)
        let refused = try KioskBundle(folder: copy).verify().filter { $0.kind == .unreadableManifest }
        #expect(refused.count == hostile.count, "\(refused)")
        #expect(refused.contains { $0.detail.contains("another user's home") })
        #expect(refused.contains { $0.detail.contains("absolute path") })
        #expect(refused.contains { $0.detail.contains("control characters") })
        #expect(refused.filter { $0.detail.contains("leads outside the bag") }.count == 2)

        // A line that climbs and comes back names a file inside, read as
        // that file: here one listed already, so it is listed twice. (The
        // edited manifest no longer matches the tag manifest either.)
        let listed = try String(contentsOf: manifest, encoding: .utf8).split(separator: "\n").first { $0.hasSuffix("data/clauses.json") }!
        try (text + listed.replacingOccurrences(of: "data/clauses.json", with: "data/document/../clauses.json") + "\n").write(to: manifest, atomically: true, encoding: .utf8)
        let left = try KioskBundle(folder: copy).verify()
        #expect(left.map(\.path) == ["manifest-sha256.txt", "manifest-sha256.txt"], "\(left)")
        #expect(left.contains { $0.kind == .damaged } && left.contains { $0.detail.hasSuffix("lists data/clauses.json a second time") }, "\(left)")
    }

    @Test func theAsyncVerifyRunsOffTheCallersActorAndStopsWhenCancelled() async throws {
        let fixture = try await ReaderFixture.deepZoom.value
        let bundle = try fixture.open()
        let heard = Progress()
        let problems = try await MainActorCaller.verify(bundle, heard: heard)
        #expect(problems.isEmpty)
        #expect(heard.calls.last.map { $0.done == $0.total } == true)
        #expect(heard.offMain)

        // Cancelled in its own body, before the verify: cancelled from
        // here, the task could finish a small bag's verify before the
        // cancel came, on a busy machine.
        let started = Progress()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await bundle.verify(progress: { started.add($0, $1) })
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(started.calls.count < heard.calls.count)
    }
}

extension VerifyTests {
    /// The synchronous verify, on this thread (in an async context the
    /// async variant is the one a call with a progress closure picks).
    static func verifyHere(_ bundle: KioskBundle, heard: Progress) -> [BundleProblem] {
        bundle.verify(progress: { heard.add($0, $1) })
    }
}

@MainActor enum MainActorCaller {
    static func verify(_ bundle: KioskBundle, heard: Progress) async throws -> [BundleProblem] {
        try await bundle.verify(progress: { done, total in heard.add(done, total) })
    }
}

/// What a progress callback heard, from any thread.
final class Progress: @unchecked Sendable {
    private let lock = NSLock()
    private var heard: [(done: Int, total: Int)] = []
    private var onMain = false

    func add(_ done: Int, _ total: Int) {
        lock.lock()
        defer { lock.unlock() }
        heard.append((done, total))
        if Thread.isMainThread { onMain = true }
    }

    var calls: [(done: Int, total: Int)] {
        lock.lock()
        defer { lock.unlock() }
        return heard
    }

    var offMain: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !onMain
    }
}
