import Foundation
@testable import MCPackKit
import Testing

/// A scratch folder for SSH signature tests that need no bundle: keys made
/// by ssh-keygen, a file to sign, and both tools' verdicts on it.
struct SSHScratch {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-ssh-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func destroy() { try? FileManager.default.removeItem(at: folder) }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func write(_ text: String, to name: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: path(name))) }

    func data(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }

    func text(_ name: String) throws -> String { String(decoding: try data(name), as: UTF8.self) }

    /// A shell command run in the folder, its output and errors together.
    @discardableResult
    func shell(_ command: String) throws -> RunResult {
        try MCPackBinary.tool("sh", ["-c", command], in: folder)
    }

    /// A key pair from ssh-keygen, without a passphrase: `type` as -t takes
    /// it (`ecdsa-384` for -t ecdsa -b 384), comment NAME@test.
    func keygen(_ type: String, _ name: String, passphrase: String = "") throws {
        let parts = type.split(separator: "-")
        let bits = parts.count > 1 ? " -b \(parts[1])" : ""
        let made = try shell("ssh-keygen -q -t \(parts[0])\(bits) -N '\(passphrase)' -C \(name)@test -f \(name)")
        try #require(made.status == 0, "ssh-keygen -t \(type): \(made.stdout)")
    }

    /// A file of random bytes to sign: the signature check needs no bag.
    func payload(_ name: String = "delivery.zip", bytes: Int = 40_000) throws {
        try Data((0..<bytes).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: path(name)))
    }

    /// True when `ssh-keygen -Y verify` accepts `file`'s signature `file.sig`.
    func sshKeygenAccepts(_ allowed: String, identity: String, file: String = "delivery.zip", namespace: String = "file",
                          options: [String] = []) throws -> Bool {
        let extra = options.map { " \($0)" }.joined()
        return try shell("ssh-keygen -Y verify -f \(allowed) -I '\(identity)' -n \(namespace) -s \(file).sig\(extra) < \(file)").status == 0
    }

    /// mcpack's report on `file.sig` with these keys.
    func mcpackReport(_ keys: [String], file: String = "delivery.zip", options: SignatureOptions = SignatureOptions()) throws -> SignatureReport {
        let reports = try SignatureCheck.check(archive: path(file), publicKeys: keys.map(path), options: options)
        try #require(reports.count == 1)
        return reports[0]
    }
}

/// Bytes from hex, for the published vectors.
func bytes(hex: String) -> [UInt8] {
    let digits = Array(hex.filter(\.isHexDigit))
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}
