import Foundation
import Testing

/// The Python tools the IIIF tests drive (iiif-validator-ng, iiif-prezi3),
/// in the virtual environment scripts/test-python.sh makes and `make test`
/// installs. Missing tools fail the test, never skip it: a skipped
/// validator run would pass CI without checking anything.
enum TestPython {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The venv's python, made by scripts/test-python.sh if missing (it
    /// keeps a venv already made from the same requirements).
    static let python: Result<String, PythonMissing> = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["bash", repository.appendingPathComponent("scripts/test-python.sh").path]
        process.currentDirectoryURL = repository
        guard let result = try? MCPackBinary.collect(process) else {
            return .failure(PythonMissing(detail: "cannot run scripts/test-python.sh"))
        }
        let path = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, FileManager.default.isExecutableFile(atPath: path) else {
            return .failure(PythonMissing(detail: result.stderr))
        }
        return .success(path)
    }()

    struct PythonMissing: Error, CustomStringConvertible {
        var detail: String
        var description: String {
            "the test Python environment (.build/test-python) is missing and could not be made; run scripts/test-python.sh (make test does): \(detail)"
        }
    }

    /// A script of Tests/Python.
    static func script(_ name: String) -> String {
        repository.appendingPathComponent("Tests/Python/\(name)").path
    }

    /// Runs the venv's python with `arguments`.
    static func run(_ arguments: [String], in directory: URL) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try python.get())
        process.arguments = arguments
        process.currentDirectoryURL = directory
        return try MCPackBinary.collect(process)
    }

    /// A static web server (Tests/Python/serve_static.py) on a free
    /// loopback port, serving `folder` with the CORS header viewers need.
    final class Server {
        let process = Process()
        let port: Int
        /// The server stops when this closes, also if the test dies.
        private let input = Pipe()

        init(serving folder: URL) throws {
            process.executableURL = URL(fileURLWithPath: try python.get())
            process.arguments = [TestPython.script("serve_static.py"), folder.path]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            process.standardInput = input
            try process.run()
            // The server prints its port once it listens.
            var line = Data()
            while let byte = try out.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A {
                line.append(first)
            }
            guard let port = Int(String(decoding: line, as: UTF8.self)) else {
                try? input.fileHandleForWriting.close()
                throw PythonMissing(detail: "the test web server did not start")
            }
            self.port = port
        }

        func stop() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }
}
