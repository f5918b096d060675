import Foundation
import FileIO
@testable import MCPackInputs
import Testing

/// The work cache across builds: cold and warm give the same bytes, the
/// archive is the tiles' only copy, damaged entries are remade.
@Suite struct WorkCacheBuildTests {
    let top = "test-bundle-1.0.0/data/"

    @Test func imageBuildsAreReproducibleFromAColdCache() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["build", "--output", "a"], in: project.root).status == 0)
        try FileManager.default.removeItem(at: project.url(".mcpack-cache"))
        #expect(try MCPackBinary.run(["build", "--output", "b"], in: project.root).status == 0)
        #expect(try Data(contentsOf: project.url("a/test-bundle-1.0.0.zip")) == Data(contentsOf: project.url("b/test-bundle-1.0.0.zip")))
    }

    /// A cold build leaves no second copy of the tiles in the work cache:
    /// the archive is their one copy, and the next build copies from it.
    @Test func theArchiveIsTheTilesOnlyCopy() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        let tiles = project.url(".mcpack-cache/tiles")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: tiles.path)) ?? []
        #expect(left.isEmpty, "tile cache entries left beside the archive: \(left)")
    }

    /// Two damaged sources (a tile of the previous archive and a file of
    /// the icons' cache entry) are both made again, one after the other,
    /// and the archive is still the cold build's.
    @Test func twoDamagedSourcesAreBothRemade() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["build", "--output", "cold"], in: project.root).status == 0)
        let cold = try Data(contentsOf: project.url("cold/test-bundle-1.0.0.zip"))
        try FileManager.default.createDirectory(at: project.url("dist"), withIntermediateDirectories: true)
        try PreviousArchiveTests.damage(project.url("cold/test-bundle-1.0.0.zip"), to: project.url("dist/test-bundle-0.9.0.zip"), how: "retile")
        try FileManager.default.removeItem(at: project.url("cold"))
        let icons = try #require(try FileManager.default.contentsOfDirectory(atPath: project.url(".mcpack-cache/icons").path).first { !$0.hasPrefix(".") })
        let folder = project.url(".mcpack-cache/icons/\(icons)/files")
        let first = try #require(try FileSystem.regularFiles(under: folder).sorted().first)
        var bytes = try Data(contentsOf: folder.appendingPathComponent(first))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: folder.appendingPathComponent(first))
        let warm = try MCPackBinary.run(["build"], in: project.root)
        #expect(warm.status == 0, "\(warm.stderr)")
        #expect(warm.stderr.contains("(first: \(first))"), "\(warm.stderr)")
        #expect(warm.stderr.contains("test-bundle-0.9.0.zip: data/document/master_files/"), "\(warm.stderr)")
        #expect(try Data(contentsOf: project.url("dist/test-bundle-1.0.0.zip")) == cold)
    }
}
