import Foundation
import Testing

/// Every input in Fuzz/regressions/ once crashed mcpack or tripped a
/// sanitizer under `make fuzz`. Each is fed to the real binary the way a
/// user would meet it, and must give a clean answer: no signal, no trap,
/// the exit status of bad input (2) or of a damaged bag (1 or 2).
struct FuzzRegression: CustomTestStringConvertible, Sendable {
    var target: String
    var file: URL
    var testDescription: String { "\(target)/\(file.lastPathComponent)" }

    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/regressions")

    static var all: [FuzzRegression] {
        let fm = FileManager.default
        let targets = (try? fm.contentsOfDirectory(atPath: folder.path)) ?? []
        return targets.sorted().flatMap { target in
            let files = (try? fm.contentsOfDirectory(atPath: folder.appendingPathComponent(target).path)) ?? []
            return files.sorted().filter { !$0.hasPrefix(".") }.map {
                FuzzRegression(target: target, file: folder.appendingPathComponent("\(target)/\($0)"))
            }
        }
    }
}

@Suite struct FuzzRegressionTests {
    @Test func regressionsArePresent() {
        #expect(!FuzzRegression.all.isEmpty, "no inputs under \(FuzzRegression.folder.path)")
    }

    @Test(arguments: FuzzRegression.all)
    func answersCleanly(_ regression: FuzzRegression) throws {
        let input = try Data(contentsOf: regression.file)
        let project = try TestProject.make()
        defer { project.destroy() }
        let result: RunResult
        switch regression.target {
        case "bundle-toml", "clauses-toml":
            let file = regression.target == "bundle-toml" ? "bundle.toml" : "assets/clauses.toml"
            try project.write(file, input)
            result = try MCPackBinary.run(["build"], in: project.root)
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains(file), "the message must name \(file):\n\(result.stderr)")
            #expect(project.outputFiles().isEmpty, "something was written")
        case "archive":
            try project.write("input.zip", input)
            result = try MCPackBinary.run(["verify", "input.zip"], in: project.root)
            #expect(result.status == 1 || result.status == 2, "\(result.stdout)\(result.stderr)")
        default:
            Issue.record("no replay for fuzz target \(regression.target); add one here")
            return
        }
        #expect(!result.signalled, "killed by signal \(result.status):\n\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
    }
}
