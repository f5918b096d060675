import Foundation
@testable import MCPackInputs
@testable import MCPackKit
import Testing

/// TOMLPreflight is a workaround: it stays only while the toml++ bundled in
/// TOMLKit still aborts the process on these shapes. Each is fed to TOMLKit
/// alone (the toml-crash-probe executable, no pre-flight scan) in a
/// subprocess, and must still kill it. The day one parses or is reported as
/// an error, this test fails and names the check to remove.
struct TOMLCrashShape: CustomTestStringConvertible, Sendable {
    /// The shape, as TOMLPreflight's comment names it.
    var shape: String
    /// The TOMLPreflight function that catches it.
    var check: String
    var text: String
    var testDescription: String { "\(check): \(String(reflecting: text))" }

    static let headerWithoutAName = "a table header whose name does not start as a key must"
    static let braceWhereAnArrayValueShouldBe = "a } where an array expects a value"

    /// The inputs KeyLinesTests checks mcpack reports as syntax errors.
    static let all: [TOMLCrashShape] =
        ["[#", "a = 1\n[ #x]\n", "[[[1]]]", "x = 2\n[\ny = 1\n", "[&", "[\u{1}]", "[[ é ]]", "o=\"\"#\"\"\"\n[\r", "a = 1\r\n[\r\n"]
            .map { TOMLCrashShape(shape: headerWithoutAName, check: "header()", text: $0) }
        + ["l=[}", "a = [1, }", "a = [\n  1, # one\n  }", "[t]\nb = [[1], [ }]]"]
            .map { TOMLCrashShape(shape: braceWhereAnArrayValueShouldBe, check: "valueExpected()", text: $0) }
}

enum TOMLCrashProbe {
    /// Built by `swift build --build-tests` beside mcpack (a dependency of
    /// the test target).
    static var url: URL { MCPackBinary.productsDirectory.appendingPathComponent("toml-crash-probe") }

    /// Runs the probe with `text` on stdin.
    static func parse(_ text: String) throws -> RunResult {
        let process = Process()
        process.executableURL = url
        var environment = ProcessInfo.processInfo.environment
        // An abort must end the probe at once, not start Swift's backtracer.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // The inputs are far smaller than a pipe's buffer.
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return RunResult(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                         stdout: "", stderr: String(decoding: data, as: UTF8.self))
    }
}

@Suite struct TOMLCrashProbeTests {
    @Test(arguments: TOMLCrashShape.all)
    func bundledTOMLPlusPlusStillAborts(_ crash: TOMLCrashShape) throws {
        try #require(FileManager.default.isExecutableFile(atPath: TOMLCrashProbe.url.path),
                     "no \(TOMLCrashProbe.url.path): build it with `swift build --build-tests`")
        // The shape is one the pre-flight scan guards against.
        #expect(TOMLPreflight.check(crash.text) != nil, "TOMLPreflight lets \(String(reflecting: crash.text)) through")
        let result = try TOMLCrashProbe.parse(crash.text)
        #expect(result.signalled,
                """
                toml++ no longer aborts on \(crash.shape) (\(String(reflecting: crash.text)); exit status \(result.status)): \
                remove the matching pre-flight check in TOMLPreflight.swift (\(crash.check)) \
                and this case here once none of its shape still aborts
                \(result.stderr)
                """)
    }

    /// Without these, a probe that cannot parse anything would look like
    /// toml++ aborting.
    @Test func probeParsesGoodTOMLAndReportsBadTOML() throws {
        try #require(FileManager.default.isExecutableFile(atPath: TOMLCrashProbe.url.path),
                     "no \(TOMLCrashProbe.url.path): build it with `swift build --build-tests`")
        for text in [TestProject.bundleTOML, TestProject.clausesTOML] {
            let good = try TOMLCrashProbe.parse(text)
            #expect(!good.signalled && good.status == 0, "\(good.status): \(good.stderr)")
        }
        let bad = try TOMLCrashProbe.parse("[bundle]\nname = \"unclosed\n")
        #expect(!bad.signalled && bad.status == 1, "\(bad.status): \(bad.stderr)")
        #expect(!bad.stderr.isEmpty, "the parse error should be on stderr")
    }
}
