import Foundation
import MCPackSchema
@testable import MCPackInputs
@testable import MCPackKit
import Testing

/// `[clauses] measured_width`: rectangles measured on a reduced copy of the
/// master, scaled to it before every check; and the warning for the
/// mistake it fixes, rectangles of a copy written as master pixels.
@Suite struct MeasuredWidthTests {
    /// TestProject's overlays measured on a copy a quarter as wide (150 px
    /// of its 600 px master), as the team measured on an 8,000 px copy of
    /// a 34,000 px scan.
    static let quarter = (
        clause39: "overlays = [[10, 20, 300, 24], [10, 44, 120, 24]]",
        clause39Quarter: "overlays = [[3, 5, 75, 6], [3, 11, 30, 6]]",
        clause40: "overlays = [[130, 44, 400, 24]]",
        clause40Quarter: "overlays = [[33, 11, 100, 6]]"
    )

    static func quarterProject(measuredWidth: String? = nil) throws -> TestProject {
        let project = try TestProject.make()
        try project.edit("assets/clauses.toml", quarter.clause39, quarter.clause39Quarter)
        try project.edit("assets/clauses.toml", quarter.clause40, quarter.clause40Quarter)
        if let measuredWidth {
            try project.edit("bundle.toml", "file = \"assets/clauses.toml\"", "file = \"assets/clauses.toml\"\nmeasured_width = \(measuredWidth)")
        }
        return project
    }

    @Test func edgesAreScaledAndRoundedHalfUp() {
        // 8,000 px copy of a 34,000 px master: x 4.25.
        #expect(ClauseFile.scale(PixelRect(x: 100, y: 200, width: 300, height: 24), from: 8000, to: 34_000).values == [425, 850, 1275, 102])
        // x 1.5: 1 -> 1.5 -> 2 (half up), 3 -> 4.5 -> 5, so the width is 3.
        #expect(ClauseFile.scale(PixelRect(x: 1, y: 1, width: 2, height: 1), from: 400, to: 600).values == [2, 2, 3, 1])
        // x 2.4: 3 -> 7.2 -> 7, 14 -> 33.6 -> 34 (width 27), 7 -> 16.8 -> 17, 20 -> 48 (height 31).
        #expect(ClauseFile.scale(PixelRect(x: 3, y: 7, width: 11, height: 13), from: 250, to: 600).values == [7, 17, 27, 31])
        // Two rectangles that touch on the copy touch on the master.
        let left = ClauseFile.scale(PixelRect(x: 3, y: 7, width: 11, height: 13), from: 250, to: 600)
        let right = ClauseFile.scale(PixelRect(x: 14, y: 7, width: 5, height: 13), from: 250, to: 600)
        #expect(left.x + left.width == right.x)
    }

    @Test func everyRectangleIsScaledExactlyAndRecorded() throws {
        let project = try Self.quarterProject(measuredWidth: "150")
        defer { project.destroy() }
        let build = try MCPackBinary.run(["build"], in: project.root)
        try #require(build.status == 0, "\(build.stderr)")
        #expect(!build.stderr.contains("warning"), "\(build.stderr)")
        let files = try archiveContents(project.url("dist/\(VerifyTests.name).zip"))
        let clauses = try JSONDecoder().decode(ClausesDocument.self, from: try #require(files["\(VerifyTests.name)/data/clauses.json"]))
        // x 4 exactly: the quarter copy's rectangles are TestProject's own.
        #expect(clauses.clauses.map { $0.overlays.map(\.values) } == [[[12, 20, 300, 24], [12, 44, 120, 24]], [[132, 44, 400, 24]]])
        let bundleData = try #require(files["\(VerifyTests.name)/data/bundle.json"])
        let bundle = try #require(try JSONSerialization.jsonObject(with: bundleData) as? [String: Any])
        let record = (bundle["components"] as? [String: Any])?["clauses"] as? [String: Any]
        #expect(record?["measured_width"] as? Int == 150, "\(record ?? [:])")
        #expect(try VerifyTests.verify(project.url("dist/\(VerifyTests.name).zip"), in: project).status == 0)
    }

    /// Scaled first: a rectangle past the copy's edge is reported with its
    /// master pixels, where it lies outside.
    @Test func theInsideCheckSeesTheScaledRectangle() throws {
        let project = try Self.quarterProject(measuredWidth: "150")
        defer { project.destroy() }
        try project.edit("assets/clauses.toml", Self.quarter.clause40Quarter, "overlays = [[100, 11, 60, 6]]")
        let build = try MCPackBinary.run(["build"], in: project.root)
        #expect(build.status == 2)
        let line = try project.line(of: "[[100, 11, 60, 6]]", in: "assets/clauses.toml")
        #expect(build.stderr.contains("assets/clauses.toml:\(line): clause \"40\".overlays: rectangle 1 [100, 11, 60, 6] ([400, 44, 240, 24] on the master, measured_width = 150) reaches (640, 68), outside the 600 x 400 master image"), "\(build.stderr)")
        #expect(project.outputFiles().isEmpty)
    }

    /// Numbers no copy has are reported, never scaled into an overflow.
    @Test func hugeNumbersAreReportedNotScaled() throws {
        let project = try Self.quarterProject(measuredWidth: "150")
        defer { project.destroy() }
        try project.edit("assets/clauses.toml", Self.quarter.clause40Quarter, "overlays = [[9223372036854775807, 1, 1, 1], [1, 1, 4611686018427387904, 1]]")
        let build = try MCPackBinary.run(["build"], in: project.root)
        #expect(build.status == 2 && !build.signalled, "\(build.stderr)")
        #expect(build.stderr.contains("clause \"40\".overlays: rectangle 1 [9223372036854775807, 1, 1, 1]"), "\(build.stderr)")
        #expect(project.outputFiles().isEmpty)
    }

    @Test func rectanglesMeasuredAtAQuarterWarnAndStrictStops() throws {
        let project = try Self.quarterProject()
        defer { project.destroy() }
        let strict = try MCPackBinary.run(["build", "--strict"], in: project.root)
        #expect(strict.status == 2)
        #expect(strict.stderr.contains("error: assets/clauses.toml: every overlay lies in the top-left quarter of the 600 x 400 master image, none past x 133 or y 17"), "\(strict.stderr)")
        #expect(strict.stderr.contains("(a warning, an error with --strict)"), "\(strict.stderr)")
        #expect(project.outputFiles().isEmpty, "--strict writes nothing")

        let build = try MCPackBinary.run(["build"], in: project.root)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stderr.contains("warning: assets/clauses.toml: every overlay lies in the top-left quarter"), "\(build.stderr)")
        #expect(build.stderr.contains("[clauses] measured_width = <its width in px>"), "suggests the setting: \(build.stderr)")
        let json = try MCPackBinary.run(["build", "--json"], in: project.root)
        let result = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let warnings = result["warnings"] as? [[String: Any]] ?? []
        #expect(warnings.map { $0["file"] as? String } == ["assets/clauses.toml"] && warnings.first?["severity"] as? String == "warning", "\(json.stdout)")

        // verify in the project says it too, and --strict fails on it.
        let verify = try MCPackBinary.run(["verify", "--strict"], in: project.root)
        #expect(verify.status == 1 && verify.stderr.contains("every overlay lies in the top-left quarter"), "\(verify.stdout)\(verify.stderr)")
    }

    /// TestProject's own overlays reach past the middle: no warning.
    @Test func rectanglesAcrossTheMasterDoNotWarn() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        let build = try MCPackBinary.run(["build", "--strict"], in: project.root)
        #expect(build.status == 0 && !build.stderr.contains("warning"), "\(build.stderr)")
    }

    /// The repository's example project (65 clauses on a 4000 x 2800 master) checks clean.
    @Test func theExampleProjectDoesNotWarn() async throws {
        let config = TestPython.repository.appendingPathComponent("bundle.toml").path
        let sink = DiagnosticSink()
        let project = try #require(Project.load(configPath: config, sink: sink), "\(sink.all)")
        let checked = await Builder.check(project, sink: sink)
        #expect(sink.all.isEmpty, "\(sink.all)")
        let clauses = try #require(checked.fact(ClauseList.self))
        #expect(clauses.file.clauses.count == 65)
    }

    @Test func aBadMeasuredWidthIsALocatedError() throws {
        for (value, says) in [("0", "expected an integer 1...1000000, got 0"), ("\"8000\"", "expected an integer 1...1000000, got \"8000\" (a string)"),
                              ("7999.5", "expected an integer 1...1000000, got"),
                              ("601", "601 is wider than the 600 px master image; it is the width of the reduced copy the overlays were measured on")] {
            let project = try Self.quarterProject(measuredWidth: value)
            defer { project.destroy() }
            let build = try MCPackBinary.run(["build"], in: project.root)
            #expect(build.status == 2, "\(value)")
            let line = try project.line(of: "measured_width", in: "bundle.toml")
            #expect(build.stderr.contains("bundle.toml:\(line): clauses.measured_width: \(says)"), "\(value): \(build.stderr)")
            #expect(!build.stderr.contains("outside the"), "no rectangle is checked unscaled: \(build.stderr)")
            #expect(project.outputFiles().isEmpty)
        }
    }
}
