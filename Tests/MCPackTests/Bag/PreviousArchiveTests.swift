import Archiving
import Foundation
@testable import MCPackInputs
@testable import MCPackKit
import Testing

/// A rebuild copies the tiles of an unchanged master from the archive built
/// before, which is their one copy; an archive that is not what its
/// manifest says is never copied from.
@Suite struct PreviousArchiveTests {
    static let tile = "data/document/master_files/10/1_1.jpeg"

    /// A build in this process, with the events it reported.
    private func build(_ project: TestProject) async throws -> (BuildResult, [BuildEvent]) {
        _ = ProcessSetUp.done
        let events = EventLog()
        let result = try await Builder.build(BuildOptions(configPath: project.url("bundle.toml").path, environment: [:],
                                                          events: { events.add($0) }))
        return (result, events.all)
    }

    private func tiled(_ events: [BuildEvent]) -> Bool {
        events.contains { event in
            if case .progress(let task, _, _, _, _, _) = event { return task == "tiling" }
            return false
        }
    }

    @Test func aRebuildCopiesTheTilesAndGivesTheColdBuildsBytes() async throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        let (first, firstEvents) = try await build(project)
        #expect(first.outcome == .written)
        #expect(tiled(firstEvents))

        try project.edit("bundle.toml", #"version = "1.0.0""#, #"version = "1.1.0""#)
        try project.edit("assets/clauses.toml", "Also still law.", "Also still law, in part.")
        let (second, events) = try await build(project)
        #expect(second.outcome == .written)
        #expect(!tiled(events), "the master was tiled again")
        #expect(try Data(contentsOf: project.url("dist/test-bundle-1.0.0.zip")) != Data(contentsOf: project.url("dist/test-bundle-1.1.0.zip")))

        // The same inputs, built with no archive to copy from.
        try FileManager.default.moveItem(at: project.url("dist"), to: project.url("kept"))
        let (cold, coldEvents) = try await build(project)
        #expect(tiled(coldEvents))
        #expect(cold.sha256 == second.sha256)
        #expect(try Data(contentsOf: project.url("dist/test-bundle-1.1.0.zip")) == Data(contentsOf: project.url("kept/test-bundle-1.1.0.zip")))
    }

    /// An archive built with other tile settings holds other tiles: it is
    /// not copied from.
    @Test func anArchiveOfOtherSettingsIsNotCopiedFrom() async throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        _ = try await build(project)
        try project.edit("bundle.toml", #"version = "1.0.0""#, #"version = "1.1.0""#)
        try project.edit("bundle.toml", "overlap = 1", "overlap = 2")
        let (_, events) = try await build(project)
        #expect(tiled(events))
        let verify = try MCPackBinary.run(["verify", "dist/test-bundle-1.1.0.zip"], in: project.root)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    /// A IIIF bundle's manifest.json sits beside its pyramid but is made
    /// from the clauses: a rebuild copies the pyramid only, and the
    /// manifest says the edited clause.
    @Test func aIIIFRebuildCopiesThePyramidButNotTheManifest() async throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.edit("bundle.toml", "overlap = 1", "overlap = 1\nlayout = \"iiif3\"\niiif_base_url = \"https://example.org/iiif\"")
        _ = try await build(project)
        try project.edit("bundle.toml", #"version = "1.0.0""#, #"version = "1.1.0""#)
        try project.edit("assets/clauses.toml", "Also still law.", "Also still law, in part.")
        let (second, events) = try await build(project)
        #expect(!tiled(events), "the master was tiled again")
        let files = try archiveContents(project.url("dist/test-bundle-1.1.0.zip"))
        let manifest = String(decoding: try #require(files["test-bundle-1.1.0/data/document/manifest.json"]), as: UTF8.self)
        #expect(manifest.contains("Also still law, in part."))
        try FileManager.default.moveItem(at: project.url("dist"), to: project.url("kept"))
        let (cold, _) = try await build(project)
        #expect(cold.sha256 == second.sha256)
    }

    @Test(arguments: ["flip", "retile", "cut", "drop"])
    func aDamagedPreviousArchiveIsNotTrusted(_ how: String) throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.edit("bundle.toml", #"version = "1.0.0""#, #"version = "0.9.0""#)
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        let old = project.url("dist/test-bundle-0.9.0.zip")
        try Self.damage(old, to: old, how: how)
        let damaged = try Data(contentsOf: old)

        try project.edit("bundle.toml", #"version = "0.9.0""#, #"version = "1.0.0""#)
        let warm = try MCPackBinary.run(["build"], in: project.root)
        #expect(warm.status == 0, "\(warm.stderr)")
        let said = switch how {
        case "cut": "test-bundle-0.9.0.zip cannot be read"
        case "drop": "test-bundle-0.9.0.zip does not hold exactly the entries its record implies (1 missing, 0 more)"
        default: "test-bundle-0.9.0.zip: \(Self.tile)"
        }
        #expect(warm.stderr.contains(said), "\(warm.stderr)")
        #expect(try Data(contentsOf: old) == damaged, "the previous archive was changed")

        try FileManager.default.moveItem(at: project.url("dist"), to: project.url("kept"))
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        #expect(try Data(contentsOf: project.url("dist/test-bundle-1.0.0.zip")) == Data(contentsOf: project.url("kept/test-bundle-1.0.0.zip")))
    }

    /// Writes `archive` damaged to `target`: `flip` changes a byte of a
    /// tile where it is stored (the zip's CRC no longer matches), `retile`
    /// writes the archive again with that tile's bytes changed (every CRC
    /// right, the manifest wrong), `cut` keeps its first half, `drop`
    /// writes it again without that tile and without its manifest line.
    static func damage(_ archive: URL, to target: URL, how: String) throws {
        _ = ProcessSetUp.done
        let files = try archiveContents(archive)
        let name = try #require(files.keys.first { $0.hasSuffix("/" + tile) })
        let original = try #require(files[name])
        var bytes = try Data(contentsOf: archive)
        switch how {
        case "flip":
            let at = try #require(bytes.range(of: original)).lowerBound + original.count / 2
            bytes[at] ^= 0xFF
            try bytes.write(to: target)
        case "cut":
            try bytes.prefix(bytes.count / 2).write(to: target)
        default:
            let reader = try ArchiveReader(path: archive.path)
            let temporary = target.appendingPathExtension("tmp")
            let writer = try ArchiveWriter(path: temporary.path, format: .zip)
            while let entry = try reader.next() {
                guard entry.isRegular, let path = entry.path else { continue }
                var data = Data()
                try reader.readData { data.append(contentsOf: $0) }
                if path == name {
                    if how == "drop" { continue }
                    data[data.count / 2] ^= 0xFF
                }
                if how == "drop", path.hasSuffix("/manifest-sha256.txt") {
                    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").filter { !$0.hasSuffix("  " + tile) }
                    data = Data((lines.joined(separator: "\n") + "\n").utf8)
                }
                try writer.add(path: path, data: data, mtime: Builder.defaultSourceDate, compress: false)
            }
            _ = try writer.finish()
            _ = try? FileManager.default.removeItem(at: target)
            try FileManager.default.moveItem(at: temporary, to: target)
        }
    }
}

private final class EventLog: @unchecked Sendable {
    private var events: [BuildEvent] = []
    private let lock = NSLock()
    func add(_ event: BuildEvent) { lock.withLock { events.append(event) } }
    var all: [BuildEvent] { lock.withLock { events } }
}
