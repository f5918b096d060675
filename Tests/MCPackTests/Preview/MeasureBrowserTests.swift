import Foundation
import Imaging
import ImagingTestSupport
@testable import MCPackKit
import Testing

/// Measure mode of the preview page in a real headless Chromium:
/// Tests/Browser/test_measure.py makes the checks (a drag over an overlay
/// gives its rectangle at two zooms, by mouse and by touch; a pick gives
/// its line; editing; no request outside the bag); the screenshots are kept
/// under .build/test-output/MeasureBrowserTests/<case>/.
@Suite(.serialized) struct MeasureBrowserTests {
    /// "master": rectangles in master pixels; "copy": the same numbers
    /// measured on a copy half the master's width, which the page gives back
    /// in the copy's pixels.
    @Test(.enabled(if: BrowserSetup.runnable, "SKIPPED, the browser tests cannot run: \(BrowserSetup.missing ?? "")"),
          arguments: ["master", "copy"])
    func measureModeGivesTheLineForClausesToml(pixels: String) throws {
        if let missing = BrowserSetup.missing {
            Issue.record("the browser tests must run here (MCPACK_BROWSER_TESTS=required or CI): \(missing)")
            return
        }
        let project = try TestProject.make()
        defer { project.destroy() }
        // Larger than a view, so that zooming in shows part of it.
        try project.write("assets/document/master.png", Image.noise(width: 2400, height: 1600, bands: 3, seed: 5).pngData())
        if pixels == "copy" {
            try project.edit("bundle.toml", "file = \"assets/clauses.toml\"", "file = \"assets/clauses.toml\"\nmeasured_width = 1200")
        }
        let build = try MCPackBinary.run(["build"], in: project.root)
        try #require(build.status == 0, "\(build.stderr)")
        let preview = try MCPackBinary.run(["preview", "--no-open", "dist/test-bundle-1.0.0.zip"], in: project.root)
        try #require(preview.status == 0, "\(preview.stderr)")
        let page = preview.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let bag = URL(fileURLWithPath: page).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: bag.deletingLastPathComponent()) }
        if pixels == "copy" {
            let html = try String(contentsOf: URL(fileURLWithPath: page), encoding: .utf8)
            #expect(html.contains("pixels of the 1200 px copy clauses.toml is measured on"), "the page says which pixels it gives")
        }

        let output = try BrowserSetup.output("MeasureBrowserTests/\(pixels)")
        let result = try BrowserSetup.run("test_measure.py", [bag.path, output.path])
        #expect(result.status == 0, "test_measure.py failed:\n\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("checks passed") && !result.stdout.contains("FAILED"), "\(result.stdout)\(result.stderr)")
        // The rectangle measured is clause 40's, [130, 44, 400, 24] in the file either way.
        #expect(result.stdout.contains("gives [130, 44, 400, 24] within"), "\(result.stdout)")
    }
}
