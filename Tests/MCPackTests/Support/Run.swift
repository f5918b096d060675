import Foundation

/// The result of running the built `mcpack` binary.
struct RunResult {
    var status: Int32
    /// Killed by a signal (a crash or an abort), not an exit.
    var signalled = false
    var stdout: String
    var stderr: String
}

enum MCPackBinary {
    /// The folder `swift build` put the products in, beside the test bundle.
    static var productsDirectory: URL {
        #if os(macOS)
        // Swift Testing's runner (swiftpm-testing-helper) loads the .xctest
        // bundle with dlopen, so it need not be among Bundle.allBundles;
        // the bundle holding this code is found from its image.
        let own = Bundle(for: ProductsMarker.self)
        if own.bundlePath.hasSuffix(".xctest") { return own.bundleURL.deletingLastPathComponent() }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        return Bundle.main.bundleURL
    }

    static var url: URL { productsDirectory.appendingPathComponent("mcpack") }

    /// Runs mcpack in `directory`, with `environment` added to this process's.
    /// `shellPrefix` runs it through /bin/sh after that text (e.g. "umask 077;").
    @discardableResult
    static func run(_ arguments: [String], in directory: URL, environment: [String: String] = [:],
                    shellPrefix: String? = nil) throws -> RunResult {
        let process = Process()
        if let shellPrefix {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            let quoted = ([url.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            process.arguments = ["-c", "\(shellPrefix) exec \(quoted.joined(separator: " "))"]
        } else {
            process.executableURL = url
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        // A crash must fail the test, not hang it: the backtracer can wait
        // on the pipes the test is reading.
        env["SWIFT_BACKTRACE"] = "enable=no"
        env.removeValue(forKey: "SOURCE_DATE_EPOCH")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        return try collect(process)
    }

    /// Runs a configured process to its end, with its standard output and
    /// error read apart.
    static func collect(_ process: Process) throws -> RunResult {
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting, so a full pipe cannot block the child.
        let outData = LockedData()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { outData.set(out.fileHandleForReading.readDataToEndOfFile()) }
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return RunResult(
            status: process.terminationStatus,
            signalled: process.terminationReason == .uncaughtSignal,
            stdout: String(decoding: outData.get(), as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// `sha256sum -c FILE`; on macOS, which has no sha256sum, `shasum -a 256 -c`,
    /// which reads the same lines and answers the same way ("NAME: OK").
    static func sha256Check(_ file: String, in directory: URL) throws -> RunResult {
        #if os(macOS)
        try tool("shasum", ["-a", "256", "-c", file], in: directory)
        #else
        try tool("sha256sum", ["-c", file], in: directory)
        #endif
    }

    /// GNU tar, whose `-tv` listing (and `--utc`) the tests read. macOS's
    /// tar is bsdtar; there GNU tar is Homebrew's gnu-tar, as `gtar`
    /// (scripts/install-deps.sh --test installs it).
    #if os(macOS)
    static let gnuTar = "gtar"
    #else
    static let gnuTar = "tar"
    #endif

    /// Runs an external tool (unzip, tar, bagit.py) for a test's checks.
    @discardableResult
    static func tool(_ command: String, _ arguments: [String], in directory: URL) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + arguments
        process.currentDirectoryURL = directory
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return RunResult(status: process.terminationStatus, stdout: String(decoding: data, as: UTF8.self), stderr: "")
    }
}

#if os(macOS)
/// Only to find the test bundle: `Bundle(for:)` needs a class.
private final class ProductsMarker {}
#endif

final class LockedData: @unchecked Sendable {
    private var data = Data()
    private let lock = NSLock()
    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data } }
}
