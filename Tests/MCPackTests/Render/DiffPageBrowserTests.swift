import Foundation
import MCPackSchema
import Testing

/// The page `mcpack diff --html` writes, in a real headless Chromium:
/// Tests/Browser/test_diff.py makes the checks; each state's screenshot is
/// kept under .build/test-output/DiffPageBrowserTests/.
@Suite(.serialized) struct DiffPageBrowserTests {
    @Test(.enabled(if: BrowserSetup.runnable, "SKIPPED, the browser tests cannot run: \(BrowserSetup.missing ?? "")"))
    func theDiffPageWorksInChromium() throws {
        if let missing = BrowserSetup.missing {
            Issue.record("the browser tests must run here (MCPACK_BROWSER_TESTS=required or CI): \(missing)")
            return
        }
        // 1.1.0 has an area of the master retouched; 1.2.0 also another
        // category icon, so the page has a before/after pair of a picture.
        let project = try VisualDiffTests.retouchedPair()
        defer { project.destroy() }
        try project.write("assets/categories/2.png", TestProject.icon(5))
        try project.edit("bundle.toml", #"version = "1.1.0""#, #"version = "1.2.0""#)
        let built = try MCPackBinary.run(["build"], in: project.root)
        #expect(built.status == 0, "\(built.stderr)")
        let page = project.root.appendingPathComponent("diff.html").path
        let diff = try MCPackBinary.run(["diff", "1.0.0", "1.2.0", "--html", page], in: project.root)
        #expect(diff.status == 1, "\(diff.stderr)")

        let output = try BrowserSetup.output("DiffPageBrowserTests")
        let result = try BrowserSetup.run("test_diff.py", [page, output.path, "--picture", "data/" + AssetCatalog.categoryImagePath(2)])
        #expect(result.status == 0, "test_diff.py failed:\n\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("checks passed"), "\(result.stdout)\(result.stderr)")
        let shots = (try? FileManager.default.contentsOfDirectory(atPath: output.path).sorted()) ?? []
        #expect(shots == ["01-opened.png", "02-changed-area.png"])
    }
}
