import Foundation
import Imaging
import ImagingTestSupport
@testable import MCPackKit
import Testing

/// Whether the browser tests can run: the test Python (TestPython, with
/// Playwright) and a Chromium. `make test` (and so CI) sets MCPACK_BROWSER_TESTS=required: there a
/// missing piece fails the test. Elsewhere the test is skipped, saying
/// what is missing and how to get it.
enum BrowserSetup {
    static let root = TestPython.repository

    static let environment = ProcessInfo.processInfo.environment

    static var required: Bool {
        environment["MCPACK_BROWSER_TESTS"] == "required" || !(environment["CI"] ?? "").isEmpty
    }

    /// What is missing, or nil when the tests can run. The browser is the
    /// one Tests/Browser/browser.py finds, so the two never disagree.
    static let missing: String? = {
        if case .failure(let missing) = TestPython.python { return missing.description }
        guard let found = try? run("browser.py", ["--find"]) else { return "cannot run the test Python" }
        return found.status == 0 ? nil : found.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
    }()

    static var runnable: Bool { required || missing == nil }

    /// The folder a test's artefacts (screenshots) are kept in, emptied first.
    static func output(_ name: String) throws -> URL {
        let folder = root.appendingPathComponent(".build/test-output/\(name)")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs a script of Tests/Browser with the test Python.
    static func run(_ script: String, _ arguments: [String]) throws -> RunResult {
        try TestPython.run([root.appendingPathComponent("Tests/Browser/\(script)").path] + arguments, in: root)
    }
}

/// The preview page of a built bundle in a real headless Chromium:
/// Tests/Browser/test_preview.py makes the checks; each state's screenshot
/// is kept under .build/test-output/PreviewBrowserTests/<layout>/.
@Suite(.serialized) struct PreviewBrowserTests {
    @Test(.enabled(if: BrowserSetup.runnable, "SKIPPED, the browser tests cannot run: \(BrowserSetup.missing ?? "")"),
          arguments: ["dz", "iiif3"])
    func thePreviewPageWorksInChromium(layout: String) throws {
        if let missing = BrowserSetup.missing {
            Issue.record("the browser tests must run here (MCPACK_BROWSER_TESTS=required or CI): \(missing)")
            return
        }
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        // Large enough that the deepest level has more tiles than a view shows.
        try project.write("assets/document/master.png", Image.noise(width: 2400, height: 1600, bands: 3, seed: 11).pngData())
        try project.edit("bundle.toml", "overlap = 1\n", "overlap = 1\nlayout = \"\(layout)\"\n")
        var build = try MCPackBinary.run(["build"], in: project.root)
        if build.status == 2 && build.stderr.contains("iiif_base_url") {
            // IIIF ids are absolute URIs under a base bundle.toml names,
            // where mcpack asks for one.
            try project.edit("bundle.toml", "overlap = 1\n", "overlap = 1\niiif_base_url = \"https://example.org/iiif\"\n")
            build = try MCPackBinary.run(["build"], in: project.root)
        }
        #expect(build.status == 0, "\(build.stderr)")
        let preview = try MCPackBinary.run(["preview", "--no-open", "dist/test-bundle-1.0.0.zip"], in: project.root)
        #expect(preview.status == 0, "\(preview.stderr)")
        let page = preview.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let bag = URL(fileURLWithPath: page).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: bag.deletingLastPathComponent()) }

        let output = try BrowserSetup.output("PreviewBrowserTests/\(layout)")
        let result = try BrowserSetup.run("test_preview.py", [bag.path, output.path])
        #expect(result.status == 0, "test_preview.py failed:\n\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("checks passed"), "\(result.stdout)\(result.stderr)")
        let shots = (try? FileManager.default.contentsOfDirectory(atPath: output.path).sorted()) ?? []
        #expect(shots == ["01-opened.png", "02-clause-panel.png", "03-filter.png", "04-deepest-level.png", "05-icons-and-launch.png",
                          "06-touch-pinched.png", "07-keyboard-enter.png"])
    }
}
