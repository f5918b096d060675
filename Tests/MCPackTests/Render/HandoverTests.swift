import Foundation
@testable import MCPackInputs
@testable import MCPackKit
import Testing

/// HANDOVER.md held against the bag it describes: every tag file and every
/// file under data/ falls under a row of the page, every path the page names
/// is in the bag, and each row's count and size are those of the bag.
@Suite struct HandoverTests {
    struct Row {
        var path: String
        var files: Int?
        var size: String?
    }

    /// The first column of every table row of "What is inside" (the
    /// project's input files come later, under "Inputs"), with the files
    /// and size columns when the table has them.
    static func rows(_ page: String) -> [Row] {
        let start = page.range(of: "## What is inside")!.upperBound
        let end = page.range(of: "\n## ", range: start..<page.endIndex)?.lowerBound ?? page.endIndex
        return page[start..<end].split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, cells[1].hasPrefix("`"), cells[1].hasSuffix("`") else { return nil }
            let path = String(cells[1].dropFirst().dropLast())
            return Row(path: path, files: cells.count >= 6 ? Int(cells[2]) : nil, size: cells.count >= 6 ? cells[3] : nil)
        }
    }

    static func check(_ project: TestProject) throws {
        let built = try MCPackBinary.run(["build"], in: project.root)
        try #require(built.status == 0, "\(built.stderr)")
        #expect(try MCPackBinary.tool("unzip", ["-q", "dist/test-bundle-1.0.0.zip"], in: project.root).status == 0)
        let bag = project.url("test-bundle-1.0.0")
        let files = try FileManager.default.subpathsOfDirectory(atPath: bag.path).filter {
            var folder: ObjCBool = false
            return FileManager.default.fileExists(atPath: bag.appendingPathComponent($0).path, isDirectory: &folder) && !folder.boolValue
        }
        let page = try String(contentsOf: bag.appendingPathComponent("data/HANDOVER.md"), encoding: .utf8)
        let rows = Self.rows(page)
        #expect(rows.count > 8, "\(page)")

        // Every path the page names is there, as a file or a folder.
        for row in rows {
            let held = files.filter { row.path.hasSuffix("/") ? $0.hasPrefix(row.path) : $0 == row.path }
            #expect(!held.isEmpty, "HANDOVER.md names \(row.path), which the bag does not hold")
            if let count = row.files { #expect(count == held.count, "\(row.path): the page says \(count) files, the bag has \(held.count)") }
            if let size = row.size, size != "—" {
                let bytes = try held.reduce(0) { $0 + (try FileManager.default.attributesOfItem(atPath: bag.appendingPathComponent($1).path)[.size] as! NSNumber).intValue }
                #expect(size == HandoverRow.sizeText(bytes), "\(row.path): the page says \(size), the bag holds \(HandoverRow.sizeText(bytes))")
            }
        }
        // Every file of the bag, tag file or payload, is under a row.
        for file in files {
            #expect(rows.contains { $0.path.hasSuffix("/") ? file.hasPrefix($0.path) : file == $0.path }, "HANDOVER.md does not describe \(file)")
        }
        // Paths in its text (the checks it suggests) are the bag's too.
        #expect(page.contains("--profile test-bundle-1.0.0/bagit-profile.json"))
        #expect(files.contains("bagit-profile.json"))
        #expect(page.contains("minisign -Vm test-bundle-1.0.0.zip -p publisher.pub"))
        #expect(page.contains("ssh-keygen -Y verify -f allowed_signers -I IDENTITY -n file -s test-bundle-1.0.0.zip.sig < test-bundle-1.0.0.zip"))
    }

    @Test func everyPartOfABundleWithIconAndLaunchScreensIsDescribed() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        try Self.check(project)
        let page = try String(contentsOf: project.url("test-bundle-1.0.0/data/HANDOVER.md"), encoding: .utf8)
        // The parts the page used to leave out, and categories.json where it is.
        for path in ["data/document/master_files/", "data/Assets.xcassets/AppIcon.appiconset/", "data/Assets.xcassets/Categories/", "data/launch/screens/", "data/categories.json"] {
            #expect(page.contains("| `\(path)` |"), "\(path)")
        }
        #expect(!page.contains("data/categories/categories.json"))
    }

    @Test func aIIIFBundleWithoutPreviewIsDescribed() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.edit("bundle.toml", "overlap = 1", "overlap = 1\nlayout = \"iiif3\"\niiif_base_url = \"https://example.org/iiif\"")
        try project.write("bundle.toml", try project.read("bundle.toml") + "\n[preview]\ninclude = false\n")
        try Self.check(project)
        let page = try String(contentsOf: project.url("test-bundle-1.0.0/data/HANDOVER.md"), encoding: .utf8)
        #expect(page.contains("| `data/document/master/` |"))
        #expect(page.contains("| `data/document/manifest.json` |"))
        #expect(!page.contains("data/preview/"))
    }
}
