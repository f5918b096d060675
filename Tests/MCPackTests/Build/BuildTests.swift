import Foundation
import Archiving
import MCPackSchema
@testable import MCPackKit
import Testing

@Suite struct BuildTests {
    static let formats = ["zip", "tar.gz", "tar.zst"]

    /// The dates bag-info.txt and bundle.json state, as ISO8601DateFormatter
    /// writes them in UTC: from the first time a zip can stamp to the last
    /// SOURCE_DATE_EPOCH takes, across a leap day and a second before midnight.
    @Test func isoDatesAsTheFormatterWritesThem() {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        for seconds in [315_532_800, 951_782_399, 1_709_251_199, 1_764_355_417, Builder.defaultSourceDate, 4_102_444_800] {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            formatter.formatOptions = [.withInternetDateTime]
            #expect(ArchiveTimes.iso8601(seconds, time: true) == formatter.string(from: date))
            formatter.formatOptions = [.withFullDate]
            #expect(ArchiveTimes.iso8601(seconds, time: false) == formatter.string(from: date))
        }
        #expect(ArchiveTimes.iso8601(1_709_251_199, time: true) == "2024-02-29T23:59:59Z")
    }

    /// bundle.toml's source_date as Foundation's Gregorian calendar reads
    /// it: a date, a date and time in UTC, and one with its offset east or
    /// west of UTC, across a leap day.
    @Test func sourceDatesAsTheCalendarReadsThem() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let cases: [(Int, Int, Int, Int, Int, Int, Int)] = [
            (1980, 1, 1, 0, 0, 0, 0), (2015, 6, 15, 0, 0, 0, 0), (2024, 2, 29, 23, 59, 59, 0),
            (2024, 2, 29, 23, 59, 59, 330), (2024, 3, 1, 0, 30, 0, -480), (2099, 12, 31, 23, 59, 59, 0),
        ]
        for (year, month, day, hour, minute, second, offset) in cases {
            var components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
            components.timeZone = TimeZone(secondsFromGMT: offset * 60)
            let expected = try #require(calendar.date(from: components))
            #expect(ArchiveTimes.unixTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
                    == Int(expected.timeIntervalSince1970), "\(components)")
        }
    }

    @Test func writesTheArchiveAndAChecksumSha256sumAccepts() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("dist/test-bundle-1.0.0.zip\n"))
        #expect(project.outputFiles() == ["test-bundle-1.0.0.zip", "test-bundle-1.0.0.zip.sha256"])
        let check = try MCPackBinary.sha256Check("test-bundle-1.0.0.zip.sha256", in: project.url("dist"))
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stdout.contains("test-bundle-1.0.0.zip: OK"))
    }

    #if os(Linux)
    /// `mcpack build` starts libvips without its optional modules (HEIF,
    /// JPEG XL, ImageMagick, OpenSlide, PDF), which no input of a build may
    /// use; the dynamic loader's own record (glibc's LD_DEBUG) shows what it
    /// loaded. VIPSHOME is unset for it, as a user's shell has it: libvips,
    /// started in this test process, set it here.
    @Test func aBuildLoadsNoVipsModule() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        let result = try MCPackBinary.run(["build"], in: project.root, environment: ["LD_DEBUG": "files"], shellPrefix: "unset VIPSHOME;")
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        #expect(result.stderr.contains("libvips.so"), "LD_DEBUG recorded nothing")
        #expect(!result.stderr.contains("vips-modules-"))
        #expect(!result.stderr.contains("libMagickCore") && !result.stderr.contains("libpoppler"))
        let check = try MCPackBinary.run(["verify", "dist/test-bundle-1.0.0.zip"], in: project.root)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    /// `mcpack verify` starts libvips without its optional modules when no
    /// picture it reads needs one, and with them when one does: a PDF in
    /// the asset catalog, which only the PDF module reads, is still read.
    @Test func verifyLoadsVipsModulesOnlyForAPictureThatNeedsOne() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        let plain = try MCPackBinary.run(["verify", "dist/test-bundle-1.0.0.zip"], in: project.root,
                                         environment: ["LD_DEBUG": "files"], shellPrefix: "unset VIPSHOME;")
        #expect(plain.status == 0, "\(plain.stdout)\(plain.stderr.suffix(2000))")
        #expect(plain.stderr.contains("libvips.so"), "LD_DEBUG recorded nothing")
        #expect(!plain.stderr.contains("vips-modules-"))

        let bag = try project.unpacked()
        // In the categories' folder, whose files verify reads whole.
        let set = bag.appendingPathComponent("data/\(AssetCatalog.categoriesFolder)/Seal.imageset")
        try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
        try Data(#"{"images":[{"idiom":"universal","filename":"Seal.pdf"}],"info":{"author":"xcode","version":1}}"#.utf8)
            .write(to: set.appendingPathComponent("Contents.json"))
        try AssetCatalogRulesTests.pdf(side: 24).write(to: set.appendingPathComponent("Seal.pdf"))
        let withPDF = try MCPackBinary.run(["verify", bag.path], in: project.root,
                                           environment: ["LD_DEBUG": "files"], shellPrefix: "unset VIPSHOME;")
        #expect(withPDF.stderr.contains("vips-modules-"))
        // Unlisted in the manifests, as added by hand; read as a picture.
        #expect(withPDF.stdout.contains("Seal.pdf"), "\(withPDF.stdout)")
        #expect(!withPDF.stdout.contains("not a readable image"), "\(withPDF.stdout)")
    }
    #endif

    @Test func jsonSummaryNamesTheArchive() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        let result = try MCPackBinary.run(["build", "--json"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["archive"] as? String == "dist/test-bundle-1.0.0.zip")
        #expect(json["version"] as? String == "1.0.0")
        #expect(json["outcome"] as? String == "written")
        let data = try Data(contentsOf: project.url("dist/test-bundle-1.0.0.zip"))
        #expect(json["bytes"] as? Int == data.count)
        let sums = try project.read("dist/test-bundle-1.0.0.zip.sha256")
        #expect(sums.hasPrefix(try #require(json["sha256"] as? String)))
        // 3 icons, categories.json, clauses.json, bundle.json, HANDOVER.md,
        // ClauseData.swift, the preview page with its script and style, the
        // .dzi and every tile; and the catalog's Contents.json files (its
        // own, the Categories folder's, one per icon's image set) and
        // Info-fragment.plist
        let geometry = PyramidGeometry(width: TestProject.masterWidth, height: TestProject.masterHeight, tileSize: 254, overlap: 1)
        #expect(json["files"] as? Int == 8 + 3 + 1 + geometry.totalTiles + 6)
    }

    @Test(arguments: formats)
    func unpackedBagIsValidForBagitPy(_ format: String) throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.edit("bundle.toml", #"format = "zip""#, #"format = "\#(format)""#)
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        let archive = "test-bundle-1.0.0.\(format)"
        let unpack = project.url("unpacked")
        try FileManager.default.createDirectory(at: unpack, withIntermediateDirectories: true)
        let extracted = format == "zip"
            ? try MCPackBinary.tool("python3", ["-m", "zipfile", "-e", project.url("dist/\(archive)").path, "."], in: unpack)
            : try MCPackBinary.tool("tar", ["-xf", project.url("dist/\(archive)").path], in: unpack)
        #expect(extracted.status == 0, "\(extracted.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: unpack.path) == ["test-bundle-1.0.0"])
        let validate = try MCPackBinary.tool("bagit.py", ["--validate", "test-bundle-1.0.0"], in: unpack)
        #expect(validate.status == 0, "bagit.py --validate failed (is bagit installed? make test installs it):\n\(validate.stdout)")
        #expect(validate.stdout.contains("test-bundle-1.0.0 is valid"))
        let clauses = try project.read("unpacked/test-bundle-1.0.0/data/clauses.json")
        #expect(clauses.contains("\"id\" : \"39\""))
        #expect(clauses.contains("0.016667"))  // 10 / 600, as a fraction of the master width
    }

    /// Same inputs, another machine's habits: time zone, umask, locale and
    /// file times all differ, and the bytes must not.
    @Test(arguments: formats)
    func sameInputsGiveTheSameBytes(_ format: String) throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.edit("bundle.toml", #"format = "zip""#, #"format = "\#(format)""#)
        let first = try MCPackBinary.run(["build", "--output", "out-a"], in: project.root,
                                         environment: ["TZ": "UTC", "LC_ALL": "C"], shellPrefix: "umask 022;")
        #expect(first.status == 0, "\(first.stderr)")
        let later = Date(timeIntervalSinceNow: -86_400 * 400)
        let enumerator = FileManager.default.enumerator(atPath: project.url("assets").path)!
        for case let path as String in enumerator {
            try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: project.url("assets/\(path)").path)
        }
        let second = try MCPackBinary.run(["build", "--output", "out-b"], in: project.root,
                                          environment: ["TZ": "Pacific/Chatham", "LC_ALL": "de_DE.UTF-8", "LANG": "de_DE.UTF-8"],
                                          shellPrefix: "umask 077;")
        #expect(second.status == 0, "\(second.stderr)")
        let name = "test-bundle-1.0.0.\(format)"
        let a = try Data(contentsOf: project.url("out-a/\(name)"))
        let b = try Data(contentsOf: project.url("out-b/\(name)"))
        #expect(a == b, "\(format): the two builds differ")
        #expect(a.count > 1000)
    }

    @Test func sourceDateEpochSetsEveryEntryTime() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.edit("bundle.toml", #"format = "zip""#, #"format = "tar.gz""#)
        let result = try MCPackBinary.run(["build"], in: project.root, environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(result.status == 0, "\(result.stderr)")
        let listing = try MCPackBinary.tool(MCPackBinary.gnuTar, ["--utc", "-tvzf", "dist/test-bundle-1.0.0.tar.gz"], in: project.root)
        let lines = listing.stdout.split(separator: "\n")
        let geometry = PyramidGeometry(width: TestProject.masterWidth, height: TestProject.masterHeight, tileSize: 254, overlap: 1)
        // 5 tag files (bagit.txt, bag-info.txt, bagit-profile.json and the two manifests).
        #expect(lines.count == 5 + 8 + 3 + 1 + geometry.totalTiles + 6)
        #expect(lines.allSatisfy { $0.contains("2023-11-14 22:13") && $0.hasPrefix("-rw-r--r-- 0/0") })
        // The payload in byte order, then the pyramid in the order its tiles
        // are made, the descriptor last; HANDOVER.md, which counts them; the
        // tag files last of all, as the manifest can only follow the tiles.
        let names = lines.map { String($0.split(separator: " ").last!) }
        #expect(names[0] == "test-bundle-1.0.0/data/" + AssetCatalog.categoryImagePath(1))
        let tiles = names.indices.filter { names[$0].contains("/data/document/master_files/") }
        #expect(tiles.count == geometry.totalTiles && tiles.last! - tiles.first! == tiles.count - 1)
        #expect(names[tiles.first!].hasSuffix("master_files/\(geometry.maxLevel)/0_0.jpeg"))
        #expect(names[tiles.last! + 1] == "test-bundle-1.0.0/data/document/master.dzi")
        #expect(names[tiles.last! + 2] == "test-bundle-1.0.0/data/HANDOVER.md")
        #expect(Array(names.suffix(5)) == ["bagit.txt", "bag-info.txt", "bagit-profile.json", "manifest-sha256.txt", "tagmanifest-sha256.txt"]
            .map { "test-bundle-1.0.0/" + $0 })
        let bad = try MCPackBinary.run(["build"], in: project.root, environment: ["SOURCE_DATE_EPOCH": "yesterday"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("SOURCE_DATE_EPOCH: \"yesterday\""))
    }

    @Test func aBuiltVersionNeverChanges() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        let original = try Data(contentsOf: project.url("dist/test-bundle-1.0.0.zip"))

        let again = try MCPackBinary.run(["build"], in: project.root)
        #expect(again.status == 0)
        #expect(again.stdout.contains("already built, identical"))

        try project.edit("assets/clauses.toml", "Also still law.", "Also still law today.")
        let refused = try MCPackBinary.run(["build"], in: project.root)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("already exists with different content"))
        #expect(refused.stderr.contains("Bump [bundle] version"))
        #expect(try Data(contentsOf: project.url("dist/test-bundle-1.0.0.zip")) == original)
        #expect(project.outputFiles() == ["test-bundle-1.0.0.zip", "test-bundle-1.0.0.zip.sha256"])

        let replaced = try MCPackBinary.run(["build", "--overwrite"], in: project.root)
        #expect(replaced.status == 0)
        #expect(replaced.stdout.contains("replaced"))
        #expect(try Data(contentsOf: project.url("dist/test-bundle-1.0.0.zip")) != original)
        let check = try MCPackBinary.sha256Check("test-bundle-1.0.0.zip.sha256", in: project.url("dist"))
        #expect(check.status == 0)
    }

    /// Killed at the last moment before the rename: nothing at the final
    /// path, and the next build cleans up and succeeds.
    @Test func aKilledBuildLeavesNothingAtTheFinalPath() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try killAtStopPoint(["before-commit"], in: project)
        let left = project.outputFiles()
        #expect(!left.contains("test-bundle-1.0.0.zip"))
        #expect(left.count == 1 && left[0].hasPrefix(".test-bundle-1.0.0.zip.partial-"), "\(left)")

        let next = try MCPackBinary.run(["build", "--json"], in: project.root)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stdout.contains(left[0]), "the abandoned file is not reported as removed")
        #expect(project.outputFiles() == ["test-bundle-1.0.0.zip", "test-bundle-1.0.0.zip.sha256"])
    }

    /// Killed while replacing a version whose archive it copies its tiles
    /// from: the archive it copied from is untouched and still verifies,
    /// and the next build copies from it again.
    @Test func aKilledRebuildLeavesTheArchiveItCopiesFromIntact() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        let before = try Data(contentsOf: project.url("dist/test-bundle-1.0.0.zip"))
        try project.edit("assets/clauses.toml", "Also still law.", "Also still law, in part.")
        try killAtStopPoint(["before-commit", "--overwrite"], in: project)
        #expect(try Data(contentsOf: project.url("dist/test-bundle-1.0.0.zip")) == before)
        let verify = try MCPackBinary.run(["verify", "dist/test-bundle-1.0.0.zip"], in: project.root)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        let next = try MCPackBinary.run(["build", "--overwrite"], in: project.root)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stdout.contains("replaced"), "\(next.stdout)")
        let again = try MCPackBinary.run(["verify", "dist/test-bundle-1.0.0.zip"], in: project.root)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
    }

    /// Found by scripts/crash-safety.sh killing at exact system calls: a kill
    /// after the archive's rename left the old .sha256 beside the new
    /// archive (verify then called it damaged) and a `.dat.nosync` file that
    /// no later build removed.
    @Test func aKillBetweenArchiveAndChecksumLeavesAnArchiveThatVerifies() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        #expect(try MCPackBinary.run(["build"], in: project.root).status == 0)
        try project.edit("assets/clauses.toml", "Also still law.", "Also still law, in part.")
        try killAtStopPoint(["before-checksum", "--overwrite"], in: project)
        #expect(project.outputFiles() == ["test-bundle-1.0.0.zip"], "a stale .sha256 or a temporary file was left")
        let verify = try MCPackBinary.run(["verify", "dist/test-bundle-1.0.0.zip"], in: project.root)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")

        let next = try MCPackBinary.run(["build"], in: project.root)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(project.outputFiles() == ["test-bundle-1.0.0.zip", "test-bundle-1.0.0.zip.sha256"])
        let again = try MCPackBinary.run(["verify", "dist/test-bundle-1.0.0.zip"], in: project.root)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
    }

    /// Runs a build that stops itself (SIGSTOP) at one of its hooks
    /// (Tests/BuildStop), and kills it there with SIGKILL.
    private func killAtStopPoint(_ arguments: [String], in project: TestProject) throws {
        let process = Process()
        process.executableURL = MCPackBinary.productsDirectory.appendingPathComponent("mcpack-build-stop")
        process.arguments = arguments
        process.currentDirectoryURL = project.root
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        var stopped = false
        for _ in 0..<600 where !stopped {
            stopped = isStopped(pid)
            if !stopped { usleep(50_000) }
        }
        #expect(stopped, "the build never reached \(arguments[0])")
        kill(pid, SIGKILL)
        process.waitUntilExit()
    }

    /// Whether process `pid` is stopped (state T): from /proc on Linux; from
    /// ps elsewhere (macOS has no /proc; a container may have no ps).
    private func isStopped(_ pid: Int32) -> Bool {
        #if os(Linux)
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return stat.split(separator: ")").last?.split(separator: " ").first == "T"
        #else
        let state = try? MCPackBinary.tool("ps", ["-o", "stat=", "-p", "\(pid)"], in: URL(fileURLWithPath: "/"))
        return state?.stdout.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("T") == true
        #endif
    }

    @Test func initMakesAProjectAndNeverOverwrites() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-init-\(UUID().uuidString)/My Charter")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let made = try MCPackBinary.run(["init", folder.path], in: FileManager.default.temporaryDirectory)
        #expect(made.status == 0, "\(made.stderr)")
        let toml = try String(contentsOf: folder.appendingPathComponent("bundle.toml"), encoding: .utf8)
        #expect(toml.contains(#"name = "my-charter""#))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("assets/clauses.toml").path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("assets/categories").path))

        // A build of the empty project names what is still to be added.
        let build = try MCPackBinary.run(["build"], in: folder)
        #expect(build.status == 2)
        #expect(build.stderr.contains("document.image: \"assets/document/master.tif\" does not exist"))

        try Data("mine".utf8).write(to: folder.appendingPathComponent("bundle.toml"))
        let again = try MCPackBinary.run(["init", folder.path], in: FileManager.default.temporaryDirectory)
        #expect(again.status == 2)
        #expect(again.stderr.contains("never overwrites"))
        #expect(try String(contentsOf: folder.appendingPathComponent("bundle.toml"), encoding: .utf8) == "mine")
    }

    /// ArgumentParser suggests near options only; a mistyped subcommand
    /// gets its suggestion from mcpack, with the usage status, 2.
    @Test func aMistypedSubcommandIsAnsweredWithTheNearestOne() throws {
        let here = FileManager.default.temporaryDirectory
        for (typed, meant) in [("biuld", "build"), ("verfy", "verify"), ("previw", "preview")] {
            let result = try MCPackBinary.run([typed], in: here)
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("Unknown subcommand '\(typed)'. Did you mean '\(meant)'?"), "\(result.stderr)")
            #expect(result.stderr.contains("See 'mcpack --help'"), "\(result.stderr)")
        }
        let nothingNear = try MCPackBinary.run(["zzzzzz"], in: here)
        #expect(nothingNear.status == 2)
        #expect(nothingNear.stderr.contains("Unexpected argument 'zzzzzz'") && !nothingNear.stderr.contains("Did you mean"), "\(nothingNear.stderr)")
    }

    /// A refused option value is answered with what the option takes.
    @Test func aRefusedOptionValueIsAnsweredWithTheAcceptedOnes() throws {
        let here = FileManager.default.temporaryDirectory
        let prefer = try MCPackBinary.run(["drift", "--fix", "--prefer", "app"], in: here)
        #expect(prefer.status == 2)
        #expect(prefer.stderr.contains("The value 'app' is invalid for '--prefer <assets>'. Please provide one of 'assets'."), "\(prefer.stderr)")
        for (option, value, accepted) in [("--max-bytes", "lots", "a whole number of bytes greater than 0"),
                                          ("--max-entry-bytes", "-1", "a whole number of bytes greater than 0"),
                                          ("--max-entries", "1.5", "a whole number greater than 0"),
                                          ("--max-ratio", "nan", "a number greater than 0")] {
            let result = try MCPackBinary.run(["verify", "x.zip", "\(option)=\(value)"], in: here)
            #expect(result.status == 2, "\(option): \(result.stderr)")
            #expect(result.stderr.contains("The value '\(value)' is invalid for '\(option) <"), "\(result.stderr)")
            #expect(result.stderr.contains("expected \(accepted), such as"), "\(result.stderr)")
        }
    }

    @Test func usageErrorsExitWithStatusTwo() throws {
        let result = try MCPackBinary.run(["build", "--no-such-flag"], in: FileManager.default.temporaryDirectory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--no-such-flag"))
        let missing = try MCPackBinary.run(["build", "--config", "nowhere/bundle.toml"], in: FileManager.default.temporaryDirectory)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nowhere/bundle.toml: no such file"))
    }
}
