import Foundation
@testable import MCPackInputs
@testable import MCPackKit

/// A parser of untrusted bytes, fed by libFuzzer. Besides not crashing (ASan
/// and Swift's own traps catch that), each checks what must hold for any
/// input: a diagnostic never points past the end of the file it names.
struct FuzzTarget: @unchecked Sendable {
    var name: String
    var setUp: () -> Void = {}
    var run: (Data) -> Void

    nonisolated(unsafe) static var selected: FuzzTarget?

    static let all: [FuzzTarget] = [bundleTOML, clausesTOML, manifest, bagInfo, archive, pngCheck,
                                    minisignSignature, minisignKey, sshsig, sshsigBlob, sshKey, sshPrivateKey, allowedSigners,
                                    bagitProfile, iconJSON, channel]

    // MARK: TOML loaders

    /// The project folder paths in bundle.toml are checked against; the
    /// example project, so paths that exist are reached too.
    nonisolated(unsafe) static var project = URL(fileURLWithPath: ProcessInfo.processInfo.environment["MCPACK_FUZZ_PROJECT"] ?? ".")

    static let bundleTOML = FuzzTarget(name: "bundle-toml") { data in
        loadTOML(data, as: "bundle.toml") { source in
            _ = BundleConfig.read(source, paths: ProjectPaths(root: project))
        }
    }

    static let clausesTOML = FuzzTarget(name: "clauses-toml") { data in
        loadTOML(data, as: "assets/clauses.toml") { source in
            _ = ClauseFile.read(source, master: MasterSize(width: 4000, height: 2800))
            // And as rectangles of a reduced copy: scaling any number read must not overflow.
            _ = ClauseFile.read(source, master: MasterSize(width: 34_000, height: 24_000), measuredWidth: 7)
        }
    }

    /// As the loaders read a file: UTF-8 or refused, then parsed and read.
    static func loadTOML(_ data: Data, as displayPath: String, read: (TOMLSource) -> Void) {
        guard let text = String(data: data, encoding: .utf8) else { return }
        let sink = DiagnosticSink()
        if let source = TOMLSource.parse(text, displayPath: displayPath, sink: sink) { read(source) }
        // A line may be one past the last when the file ends without a newline.
        let lines = text.reduce(into: 1) { count, c in if c == "\n" || c == "\r\n" { count += 1 } }
        for diagnostic in sink.all {
            guard diagnostic.file == displayPath else { fatalError("diagnostic names \(diagnostic.file), not \(displayPath)") }
            if let line = diagnostic.line, !(1...lines + 1).contains(line) {
                fatalError("diagnostic at line \(line) of a \(lines)-line file: \(diagnostic)")
            }
        }
    }

    // MARK: BagIt tag files

    /// A small real bag (from `mcpack-fuzz seed`), read once; each input
    /// replaces one of its tag files and goes through every BagIt rule.
    nonisolated(unsafe) static var baseBag = BagContents()

    static func loadBaseBag() {
        let path = ProcessInfo.processInfo.environment["MCPACK_FUZZ_BASE"] ?? "base.zip"
        guard let collected = try? BagContents.read(path, limits: VerifyLimits()) else {
            fatalError("cannot read the base bag \(path); set MCPACK_FUZZ_BASE (scripts/fuzz.sh does)")
        }
        baseBag = collected
    }

    static func replacingTagFile(_ name: String, with data: Data) {
        var bag = baseBag
        bag.put(BagFile(path: name, size: Int64(data.count), digests: [:], data: data))
        // The content rules read neither file, and decode icons: left out.
        _ = BagRules.check(bag)
    }

    static let manifest = FuzzTarget(name: "manifest", setUp: loadBaseBag) { replacingTagFile("manifest-sha256.txt", with: $0) }
    static let bagInfo = FuzzTarget(name: "bag-info", setUp: loadBaseBag) { replacingTagFile("bag-info.txt", with: $0) }

    // MARK: Image files

    /// The PNG chunk walk every image input goes through before libvips.
    static let pngCheck = FuzzTarget(name: "png-check") { data in
        _ = ImageFileCheck.problem(in: data)
        // Data slices start anywhere: the walk must not assume index 0.
        _ = ImageFileCheck.problem(in: (Data([0]) + data).dropFirst())
    }

    // MARK: Archives

    /// Bytes as a file, since verify and diff read archives by path.
    static let scratch = "/dev/shm/mcpack-fuzz-\(getpid()).zip"

    static var smallLimits: VerifyLimits {
        var limits = VerifyLimits()
        limits.maxTotalBytes = 256 << 20
        limits.maxEntryBytes = 64 << 20
        limits.maxEntries = 100_000
        return limits
    }

    /// verify's reader and rules, and diff's reader, on the same bytes.
    static let archive = FuzzTarget(name: "archive") { data in
        guard FileManager.default.createFile(atPath: scratch, contents: data) else { fatalError("cannot write \(scratch)") }
        defer { unlink(scratch) }
        // Throwing is the expected answer to most inputs (exit 2); only a
        // crash or a sanitizer report is a finding.
        _ = try? Verifier.verify(scratch, limits: smallLimits)
        _ = try? BagSnapshot.load(scratch, label: "fuzz")
    }
}
