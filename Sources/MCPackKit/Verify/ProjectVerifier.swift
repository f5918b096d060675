import MCPackInputs
import MCPackBag
import Foundation
import MCPackSchema

/// `mcpack verify` in a project: every input checked as build checks it,
/// and this version's archive verified and compared with the inputs, so a
/// stale archive is not handed over.
package enum ProjectVerifier {
    package static func verify(configPath: String, limits: VerifyLimits = VerifyLimits()) async throws -> VerifyReport {
        let started = Date()
        let sink = DiagnosticSink()
        let project = try await Builder.load(configPath: configPath, sink: sink)
        let sources = Builder.sortedSources(project, Array(await Builder.check(project, sink: sink).sources.values))
        var problems = sink.all.map { diagnostic in
            Problem(diagnostic.line.map { "\(diagnostic.file):\($0)" } ?? diagnostic.file, "input",
                    (diagnostic.key.map { "\($0): " } ?? "") + diagnostic.message,
                    severity: diagnostic.severity == .error ? .error : .warning)
        }

        if !project.config.copies.isEmpty {
            do {
                for item in try Drift.check(project).items where item.isDrift {
                    problems.append(Problem(item.copy ?? item.asset ?? "-", "drift", "\(item.status.rawValue)" + (item.detail.map { ": \($0)" } ?? "") + "; run `mcpack drift`"))
                }
            } catch {
                problems.append(Problem(project.configDisplayPath, "drift", "cannot compare the app copies: \(error)"))
            }
        }

        let archive = Builder.archiveURL(project)
        let shown = Builder.display(archive)
        guard FileManager.default.fileExists(atPath: archive.path) else {
            problems.append(Problem(shown, "archive-missing", "version \(project.config.version) has not been built; run `mcpack build`"))
            return VerifyReport(target: shown, problems: problems,
                                stats: .init(files: 0, bytes: 0, seconds: Date().timeIntervalSince(started)),
                                project: project.configDisplayPath)
        }
        let report = try Verifier.verify(archive.path, limits: limits)
        problems += report.problems.map { problem in
            var inside = problem
            inside.path = "\(shown): \(problem.path)"
            return inside
        }
        if report.ok, let built = try? builtInputs(archive.path) {
            problems += compare(built: built, current: sources, archive: shown)
        }
        return VerifyReport(target: shown, problems: problems,
                            stats: .init(files: report.stats.files, bytes: report.stats.bytes, seconds: Date().timeIntervalSince(started)),
                            project: project.configDisplayPath)
    }

    /// The inputs bundle.json recorded, by path.
    static func builtInputs(_ archive: String) throws -> [String: String] {
        let reader = try BagReader(archive, only: ["data/bundle.json"]) { _ in BagReader.Keep(.whole) }
        guard let data = try reader.next()?.data else { return [:] }
        let inputs = try JSONDecoder().decode(BundleJSON.Head.self, from: data).inputs ?? []
        return Dictionary(inputs.map { ($0.path, $0.sha256) }, uniquingKeysWith: { first, _ in first })
    }

    static func compare(built: [String: String], current: [SourceFile], archive: String) -> [Problem] {
        var problems: [Problem] = []
        let now = Dictionary(current.map { ($0.path, $0.sha256) }, uniquingKeysWith: { first, _ in first })
        for path in Set(built.keys).union(now.keys).sorted() {
            switch (built[path], now[path]) {
            case let (then?, now?) where then != now:
                problems.append(Problem(path, "archive-stale", "changed since \(archive) was built; bump the version and build again"))
            case (nil, _?):
                problems.append(Problem(path, "archive-stale", "is an input now but was not when \(archive) was built"))
            case (_?, nil):
                problems.append(Problem(path, "archive-stale", "was an input of \(archive) but is no longer"))
            default:
                break
            }
        }
        return problems
    }
}
