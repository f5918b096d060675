import Foundation
@testable import MCPackInputs
@testable import MCPackKit
import MCPackTemplates
import Testing

/// `make install`, `make uninstall` and `make dist`, through the script the
/// Makefile calls (scripts/install.sh), with the binary `swift build` made:
/// running make here would run swift build, which waits for the lock this
/// `swift test` holds. Serialized: they share the generate-manual build.
@Suite(.serialized) struct InstallTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let installedFiles = [
        "bin/mcpack",
        "share/bash-completion/completions/mcpack",
        "share/fish/vendor_completions.d/mcpack.fish",
        "share/man/man1/mcpack.1",
        "share/man/man1/mcpack.build.1",
        "share/man/man1/mcpack.diff.1",
        "share/man/man1/mcpack.drift.1",
        "share/man/man1/mcpack.help.1",
        "share/man/man1/mcpack.init.1",
        "share/man/man1/mcpack.preview.1",
        "share/man/man1/mcpack.publish.1",
        "share/man/man1/mcpack.pull.1",
        "share/man/man1/mcpack.sign.1",
        "share/man/man1/mcpack.verify.1",
        "share/zsh/site-functions/_mcpack",
    ]

    @Test func installedMCPackWorksAloneAndUninstallLeavesNothing() throws {
        let work = try Self.temporaryFolder("install")
        defer { try? FileManager.default.removeItem(at: work) }
        let stage = work.appendingPathComponent("stage")
        let destdir = work.appendingPathComponent("destdir")
        try FileManager.default.createDirectory(at: destdir, withIntermediateDirectories: true)
        let prefix = destdir.appendingPathComponent("usr")

        let staged = try Self.script(["stage", MCPackBinary.url.path, stage.path], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(staged.status == 0, "\(staged.stdout)\(staged.stderr)")
        let installed = try Self.script(["install", stage.path, prefix.path])
        try #require(installed.status == 0, "\(installed.stdout)\(installed.stderr)")
        #expect(Self.files(under: prefix) == Self.installedFiles)

        // The binary alone: nothing beside it, no MCPACK_* variable, run
        // from folders that have nothing to do with the repository.
        let mcpack = prefix.appendingPathComponent("bin/mcpack").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: prefix.appendingPathComponent("bin").path) == ["mcpack"])
        let version = try Self.run(mcpack, ["--version"], in: work)
        #expect(version.status == 0)
        #expect(version.stdout == MCPackVersion.current + "\n")

        let fresh = work.appendingPathComponent("my charter")
        let initialized = try Self.run(mcpack, ["init", fresh.path], in: work)
        #expect(initialized.status == 0, "\(initialized.stderr)")
        let bundleTOML = try String(contentsOf: fresh.appendingPathComponent("bundle.toml"), encoding: .utf8)
        #expect(bundleTOML.contains(#"name = "my-charter""#))
        #expect(FileManager.default.fileExists(atPath: fresh.appendingPathComponent("assets/clauses.toml").path))

        let project = try TestProject.make()
        defer { project.destroy() }
        let built = try Self.run(mcpack, ["build"], in: project.root)
        #expect(built.status == 0, "\(built.stderr)")
        #expect(project.outputFiles() == ["test-bundle-1.0.0.zip", "test-bundle-1.0.0.zip.sha256"])
        let listing = try MCPackBinary.tool("python3", ["-m", "zipfile", "-l", "dist/test-bundle-1.0.0.zip"], in: project.root)
        #expect(listing.stdout.contains("test-bundle-1.0.0/data/HANDOVER.md"))
        #expect(listing.stdout.contains("test-bundle-1.0.0/data/app/ClauseData.swift"))
        let verified = try Self.run(mcpack, ["verify", "dist/test-bundle-1.0.0.zip"], in: project.root)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")

        // Every page renders with no warning.
        let pages = Self.installedFiles.filter { $0.hasPrefix("share/man/") }
        for page in pages {
            let path = prefix.appendingPathComponent(page).path
            #if os(macOS)
            let rendered = try Self.run("/usr/bin/env", ["mandoc", "-T", "lint", "-W", "warning", path], in: work)
            #expect(rendered.status == 0 && rendered.stdout.isEmpty && rendered.stderr.isEmpty, "\(page): \(rendered.stdout)\(rendered.stderr)")
            #else
            let rendered = try Self.run(Self.man, ["-l", "--warnings", path], in: work, environment: ["MANWIDTH": "80"])
            #expect(rendered.status == 0, "\(page): \(rendered.stderr)")
            #expect(rendered.stderr.isEmpty, "\(page): \(rendered.stderr)")
            #expect(rendered.stdout.contains("mcpack"), "\(page)")
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/mandoc") {
                // What macOS's man is: stricter about mdoc style.
                let lint = try Self.run("/usr/bin/mandoc", ["-T", "lint", "-W", "warning", path], in: work)
                #expect(lint.status == 0 && lint.stdout.isEmpty && lint.stderr.isEmpty, "\(page): \(lint.stdout)\(lint.stderr)")
            }
            #endif
        }
        #if !os(macOS)
        let main = try Self.run(Self.man, ["-l", prefix.appendingPathComponent("share/man/man1/mcpack.build.1").path],
                                in: work, environment: ["MANWIDTH": "80"])
        #expect(main.stdout.contains("--templates"), "the page is made from the same definitions as --help")
        #endif

        // Bash: the script parses, and `mcpack ve<TAB>` offers verify. The
        // completion function runs `mcpack` from PATH, as an installed one would.
        let bash = prefix.appendingPathComponent("share/bash-completion/completions/mcpack").path
        let syntax = try Self.run("/usr/bin/env", ["bash", "-n", bash], in: work)
        #expect(syntax.status == 0, "\(syntax.stderr)")
        let query = """
            source "$1"
            function=$(complete -p mcpack | sed -n 's/.* -F \\([^ ]*\\) .*/\\1/p')
            COMP_LINE="mcpack ve"; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(mcpack ve); COMP_CWORD=1
            "$function" mcpack ve mcpack
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let offered = try Self.run("/usr/bin/env", ["bash", "-c", query, "bash", bash], in: work,
                                   environment: ["PATH": prefix.appendingPathComponent("bin").path + ":/usr/bin:/bin"])
        #expect(offered.status == 0, "\(offered.stderr)")
        #expect(offered.stdout.split(separator: "\n") == ["verify"], "\(offered.stdout)\(offered.stderr)")

        // Uninstall removes exactly what install wrote, and the folders it made.
        let other = prefix.appendingPathComponent("share/man/man1/someone-else.1")
        try Data("kept".utf8).write(to: other)
        let removed = try Self.script(["uninstall", stage.path, prefix.path, destdir.path])
        #expect(removed.status == 0, "\(removed.stdout)\(removed.stderr)")
        #expect(Self.files(under: destdir) == ["usr/share/man/man1/someone-else.1"])
        try FileManager.default.removeItem(at: other)
        let again = try Self.script(["uninstall", stage.path, prefix.path, destdir.path])
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: destdir.path) == [])
    }

    @Test func twoDistRunsGiveTheSameTarball() throws {
        let work = try Self.temporaryFolder("dist")
        defer { try? FileManager.default.removeItem(at: work) }
        let date = ["SOURCE_DATE_EPOCH": "1700000000"]
        var tarballs: [Data] = []
        for run in ["one", "two"] {
            let stage = work.appendingPathComponent("\(run)/stage")
            let tarball = work.appendingPathComponent("\(run)/mcpack-\(MCPackVersion.current)-test.tar.gz")
            let staged = try Self.script(["stage", MCPackBinary.url.path, stage.path], environment: date)
            try #require(staged.status == 0, "\(staged.stdout)\(staged.stderr)")
            let made = try Self.script(["dist", stage.path, tarball.path], environment: date)
            try #require(made.status == 0, "\(made.stdout)\(made.stderr)")
            tarballs.append(try Data(contentsOf: tarball))
            let sums = try String(contentsOf: URL(fileURLWithPath: tarball.path + ".sha256"), encoding: .utf8)
            #expect(sums.hasSuffix("  \(tarball.lastPathComponent)\n"))
            let check = try MCPackBinary.sha256Check(tarball.lastPathComponent + ".sha256", in: tarball.deletingLastPathComponent())
            #expect(check.status == 0, "\(check.stdout)")
            // A second of difference in every file's mtime must not show.
            Thread.sleep(forTimeInterval: 1.1)
        }
        #expect(tarballs[0] == tarballs[1])
        // gzip -n: no name, no time in the header.
        #expect(tarballs[0].count > 10 && tarballs[0][4..<8] == Data([0, 0, 0, 0]))

        let top = "mcpack-\(MCPackVersion.current)-test"
        let listing = try MCPackBinary.tool(MCPackBinary.gnuTar, ["-tvzf", "one/\(top).tar.gz", "--utc", "--numeric-owner"], in: work)
        #expect(listing.status == 0, "\(listing.stdout)")
        let lines = listing.stdout.split(separator: "\n").map(String.init)
        let names = lines.map { String($0.split(separator: " ", omittingEmptySubsequences: true).last ?? "") }
        #expect(names == names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(names.filter { !$0.hasSuffix("/") } == Self.installedFiles.map { "\(top)/\($0)" })
        for line in lines {
            #expect(line.contains(" 0/0 "), "\(line)")
            #expect(line.contains(" 2023-11-14 22:13"), "\(line)")
        }
    }

    @Test func versionComesFromOnePlace() throws {
        let result = try MCPackBinary.run(["--version"], in: Self.packageRoot)
        #expect(result.stdout == MCPackVersion.current + "\n")
        // The Makefile names the tarball from the same line.
        let source = try String(contentsOf: Self.packageRoot.appendingPathComponent("Sources/MCPackInputs/Support/Version.swift"), encoding: .utf8)
        #expect(source.contains("static let current = \"\(MCPackVersion.current)\""))
    }

    /// The copies built into mcpack are the files under Templates/, byte for byte.
    @Test func builtInTemplatesAreTheRepositorysBytes() throws {
        let templates = Self.packageRoot.appendingPathComponent("Templates")
        var onDisk: [String: Data] = [:]
        for folder in try FileManager.default.contentsOfDirectory(atPath: templates.path) {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: templates.appendingPathComponent(folder).path, isDirectory: &isFolder),
                  isFolder.boolValue else { continue }
            for path in Self.files(under: templates.appendingPathComponent(folder)) {
                onDisk["\(folder)/\(path)"] = try Data(contentsOf: templates.appendingPathComponent("\(folder)/\(path)"))
            }
        }
        var builtIn: [String: Data] = [:]
        for folder in Templates.folders {
            for file in Templates.files(in: folder) { builtIn["\(folder)/\(file.path)"] = Data(file.bytes) }
        }
        #expect(!builtIn.isEmpty)
        #expect(builtIn.keys.sorted() == onDisk.keys.sorted())
        for (path, data) in onDisk { #expect(builtIn[path] == data, "\(path)") }
        #expect(Set(Templates.folders) == ["bundle", "init", "launch", "html", "preview"])
    }

    /// A folder of one's own wins, set by set: what it lacks comes from mcpack.
    @Test func templatesOptionAndVariableOverrideTheBuiltInOnes() throws {
        let work = try Self.temporaryFolder("templates")
        defer { try? FileManager.default.removeItem(at: work) }
        let mine = work.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: mine.appendingPathComponent("init/assets"), withIntermediateDirectories: true)
        try Data("# mine {{name}}\n".utf8).write(to: mine.appendingPathComponent("init/bundle.toml.mustache"))
        try Data("# my clauses\n".utf8).write(to: mine.appendingPathComponent("init/assets/clauses.toml.mustache"))

        let viaOption = work.appendingPathComponent("a")
        let option = try MCPackBinary.run(["init", "--templates", mine.path, viaOption.path], in: work)
        #expect(option.status == 0, "\(option.stderr)")
        #expect(try String(contentsOf: viaOption.appendingPathComponent("bundle.toml"), encoding: .utf8) == "# mine a\n")

        let viaVariable = work.appendingPathComponent("b")
        let variable = try MCPackBinary.run(["init", viaVariable.path], in: work, environment: ["MCPACK_TEMPLATES": mine.path])
        #expect(variable.status == 0, "\(variable.stderr)")
        #expect(try String(contentsOf: viaVariable.appendingPathComponent("bundle.toml"), encoding: .utf8) == "# mine b\n")

        // No bundle/ or launch/ in mine: the build renders mcpack's own, so
        // the archive is the one the built-in templates give (a build of
        // other bytes under the same version would stop, exit 2).
        let project = try TestProject.make()
        defer { project.destroy() }
        let plain = try MCPackBinary.run(["build"], in: project.root)
        #expect(plain.status == 0, "\(plain.stderr)")
        let overridden = try MCPackBinary.run(["build", "--templates", mine.path], in: project.root)
        #expect(overridden.status == 0, "\(overridden.stderr)")
        #expect(overridden.stdout.contains("already built, identical"), "\(overridden.stdout)")

        let missing = try MCPackBinary.run(["init", "--templates", work.appendingPathComponent("nowhere").path, "c"], in: work)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("template folder not found"))
    }

    // MARK: - Helpers

    /// man-db's man. Ubuntu's minimized images (the swift:*-noble ones)
    /// divert /usr/bin/man to a script that only explains the minimizing;
    /// installing man-db puts the real one at man.REAL.
    static var man: String {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/man.REAL") ? "/usr/bin/man.REAL" : "/usr/bin/man"
    }

    static func temporaryFolder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Regular files under `root`, relative, in byte order.
    static func files(under root: URL) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var files: [String] = []
        for case let path as String in walk {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isFolder), !isFolder.boolValue {
                files.append(path)
            }
        }
        return files.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    static func script(_ arguments: [String], environment: [String: String] = [:]) throws -> RunResult {
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        return try run(packageRoot.appendingPathComponent("scripts/install.sh").path, arguments, in: packageRoot, environment: env, clean: false)
    }

    /// Runs a program with only PATH, HOME and `environment` set (or, with
    /// `clean: false`, `environment` alone), so no MCPACK_* variable leaks in.
    static func run(_ executable: String, _ arguments: [String], in directory: URL,
                    environment: [String: String] = [:], clean: Bool = true) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = environment
        if clean {
            env = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": NSHomeDirectory(), "NO_COLOR": "1", "SWIFT_BACKTRACE": "enable=no"]
            for (key, value) in environment { env[key] = value }
        }
        process.environment = env
        return try MCPackBinary.collect(process)
    }
}
