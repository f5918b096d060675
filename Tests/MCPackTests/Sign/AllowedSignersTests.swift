import Foundation
@testable import MCPackKit
import Testing

/// allowed_signers read as ssh-keygen reads it: every case here is put to
/// `ssh-keygen -Y verify` and to mcpack on the same files, and both must
/// give the verdict the case expects.
@Suite struct AllowedSignersTests {
    /// One allowed_signers file: `{K}` stands for the signer's key, `{O}`
    /// for another's, `{D}` for a DSA key's, `{CA}` for the certificate
    /// authority's.
    struct Case: CustomTestStringConvertible, Sendable {
        var lines: String
        var identity = "signer@test"
        var verifyTime: String?
        var accepted: Bool
        /// The start of a note mcpack must give (a skipped line).
        var note: String?
        var testDescription: String { lines }
    }

    static let plainKeyCases: [Case] = [
        Case(lines: "signer@test {K}", accepted: true),
        Case(lines: "# comments and blank lines\n\n   \n\tsigner@test {K}  trailing comment", accepted: true),
        Case(lines: "\"signer@test\" {K}", accepted: true),
        Case(lines: "*@test,!mallory@test {K}", accepted: true),
        Case(lines: "*@test,!mallory@test {K}", identity: "mallory@test", accepted: false),
        Case(lines: "other@test {O}\nteam@test,signer@test {K}", accepted: true),
        Case(lines: "signer@test {O}", accepted: false),
        Case(lines: "signer@test namespaces=\"file\" {K}", accepted: true),
        Case(lines: "signer@test NAMESPACES=\"file\" {K}", accepted: true),
        Case(lines: "signer@test namespaces=\"git\" {K}", accepted: false),
        Case(lines: "signer@test namespaces=\"git,file\" {K}", accepted: true),
        Case(lines: "signer@test namespaces=\"f*\" {K}", accepted: true),
        Case(lines: "signer@test namespaces=\"!file,*\" {K}", accepted: false),
        Case(lines: "signer@test namespaces=file {K}", accepted: false, note: "line 1 skipped: namespaces=: the value must be in double quotes"),
        Case(lines: "signer@test namespaces=\"file\",namespaces=\"file\" {K}", accepted: false, note: "line 1 skipped: namespaces given twice"),
        Case(lines: "signer@test namespaces=\"file\", {K}", accepted: false, note: "line 1 skipped: the options end with a comma"),
        Case(lines: "signer@test valid-after=\"20200101\" {K}", accepted: true),
        Case(lines: "signer@test valid-after=\"20991231\" {K}", accepted: false),
        Case(lines: "signer@test valid-before=\"20200101\" {K}", accepted: false),
        Case(lines: "signer@test valid-before=\"20991231Z\" {K}", accepted: true),
        Case(lines: "signer@test valid-after=\"202001011230\",valid-before=\"20991231235959Z\" {K}", accepted: true),
        Case(lines: "signer@test valid-after=\"20200101\",valid-before=\"20991231\",namespaces=\"git\" {K}", accepted: false),
        Case(lines: "signer@test valid-after=20200101 {K}", accepted: false, note: "line 1 skipped: valid-after=: the value must be in double quotes"),
        Case(lines: "signer@test valid-after=\"2020-01-01\" {K}", accepted: false, note: "line 1 skipped: valid-after=\"2020-01-01\" is not a time"),
        Case(lines: "signer@test valid-after=\"20991231\",valid-before=\"20200101\" {K}", accepted: false, note: "line 1 skipped: valid-before is not after valid-after"),
        Case(lines: "signer@test valid-before=\"20250101\" {K}", verifyTime: "20240101", accepted: true),
        Case(lines: "signer@test valid-after=\"20250101\" {K}", verifyTime: "20240101", accepted: false),
        Case(lines: "signer@test valid-after=\"20240101120000Z\" {K}", verifyTime: "20240101115959Z", accepted: false),
        Case(lines: "signer@test valid-after=\"20240101120000Z\" {K}", verifyTime: "20240101120000Z", accepted: true),
        Case(lines: "signer@test frobnicate {K}", accepted: false, note: "line 1 skipped: unknown option frobnicate"),
        Case(lines: "signer@test frobnicate {K}\nsigner@test {K}", accepted: true, note: "line 1 skipped: unknown option frobnicate"),
        Case(lines: "signer@test namespaces=\"git\" {K}\nsigner@test namespaces=\"file\" {K}", accepted: true),
        Case(lines: "signer@test cert-authority {K}", accepted: false),
        Case(lines: "signer@test {K}\r\nother@test {O}\r\n", accepted: true),
        Case(lines: "signer@test {D}\nsigner@test {K}", accepted: true, note: "line 1 skipped: a ssh-dss key, which mcpack does not check"),
        Case(lines: "other@test {O}\n{K}", accepted: false, note: "line 2 skipped: a key without principals, in an allowed_signers file"),
    ]

    @Test(arguments: plainKeyCases)
    func aPlainKeysLineGetsSSHKeygensVerdict(_ test: Case) throws {
        let scratch = try Self.signed()
        defer { scratch.destroy() }
        try Self.verdicts(test, scratch)
    }

    /// The signer's key signs delivery.zip (ssh-keygen's signature);
    /// other and a DSA key stand by.
    static func signed() throws -> SSHScratch {
        let scratch = try SSHScratch()
        try scratch.keygen("ed25519", "signer")
        try scratch.keygen("ecdsa-256", "other")
        try scratch.keygen("dsa", "dsa")
        try scratch.payload()
        #expect(try scratch.shell("ssh-keygen -q -Y sign -n file -f signer delivery.zip").status == 0)
        return scratch
    }

    /// Both tools' verdicts on the case's file, which must be the case's.
    static func verdicts(_ test: Case, _ scratch: SSHScratch) throws {
        var text = test.lines
        for (name, file) in [("CA", "ca.pub"), ("K", "signer.pub"), ("O", "other.pub"), ("D", "dsa.pub")] where text.contains("{\(name)}") {
            let key = try scratch.text(file).split(whereSeparator: \.isWhitespace).prefix(2).joined(separator: " ")
            text = text.replacingOccurrences(of: "{\(name)}", with: key)
        }
        try scratch.write(text, to: "allowed")
        let time = test.verifyTime.map { ["-Overify-time=\($0)"] } ?? []
        #expect(try scratch.sshKeygenAccepts("allowed", identity: test.identity, options: time) == test.accepted, "ssh-keygen on:\n\(text)")
        let options = SignatureOptions(identity: test.identity, verifyTime: test.verifyTime)
        let report: SignatureReport
        do {
            report = try scratch.mcpackReport(["allowed"], options: options)
        } catch let error as FileError {
            // No line names the identity at all: could not verify (exit 2).
            #expect(!test.accepted && error.message.contains("is not among this key's principals"), "\(error)")
            return
        }
        #expect(report.valid == test.accepted, "mcpack on:\n\(text)\n\(report.problems)")
        if let note = test.note {
            #expect(report.notes.contains { $0.hasPrefix("\(scratch.path("allowed")) \(note)") }, "\(report.notes)")
        } else {
            #expect(report.notes.isEmpty, "\(report.notes)")
        }
    }

    // MARK: certificates

    /// The signer's key certified by the CA for signer@test and team@test,
    /// from yesterday to tomorrow; signed with the certificate.
    static let certificateCases: [Case] = [
        Case(lines: "*@test cert-authority {CA}", accepted: true),
        Case(lines: "*@test cert-authority {CA}", identity: "team@test", accepted: true),
        Case(lines: "*@test cert-authority {CA}", identity: "mallory@test", accepted: false),
        Case(lines: "CERT-AUTHORITY-less@test {O}\n*@test CERT-AUTHORITY {CA}", accepted: true),
        Case(lines: "*@test {CA}", accepted: false),
        Case(lines: "*@test {K}", accepted: false),
        Case(lines: "*@test cert-authority {K}", accepted: false),
        Case(lines: "*@test cert-authority {O}", accepted: false),
        Case(lines: "*@test cert-authority,namespaces=\"git\" {CA}", accepted: false),
        Case(lines: "*@test namespaces=\"file\",cert-authority {CA}", accepted: true),
        Case(lines: "*@test cert-authority,valid-before=\"20200101\" {CA}", accepted: false),
        Case(lines: "*@test cert-authority {CA}", verifyTime: "20200101", accepted: false),
        Case(lines: "signer@test cert-authority {CA}", identity: "team@test", accepted: false),
    ]

    @Test(arguments: certificateCases)
    func aCertificateAuthoritysLineGetsSSHKeygensVerdict(_ test: Case) throws {
        let scratch = try Self.signed()
        defer { scratch.destroy() }
        try Self.certify(scratch, "-n signer@test,team@test -V -1d:+1d")
        try Self.verdicts(test, scratch)
    }

    /// Replaces the signature with one by the signer's certificate, made
    /// by the CA with these ssh-keygen -s options.
    static func certify(_ scratch: SSHScratch, _ options: String) throws {
        if !FileManager.default.fileExists(atPath: scratch.path("ca")) { try scratch.keygen("ed25519", "ca") }
        let made = try scratch.shell("rm -f signer-cert.pub delivery.zip.sig && ssh-keygen -q -s ca -I signer-id \(options) signer.pub && ssh-keygen -q -Y sign -n file -f signer-cert.pub delivery.zip")
        try #require(made.status == 0, "\(made.stdout)")
    }

    /// Certificates a CA line must not take: expired (good at a time in its
    /// window), a host's, one naming no principal, another CA's.
    @Test func certificatesOutOfTheirTermsAreRefusedAsSSHKeygenRefusesThem() throws {
        let scratch = try Self.signed()
        defer { scratch.destroy() }
        let line = "*@test cert-authority {CA}"
        try Self.certify(scratch, "-n signer@test -V 20200101:20200201")
        try Self.verdicts(Case(lines: line, accepted: false), scratch)
        try Self.verdicts(Case(lines: line, verifyTime: "20200115", accepted: true), scratch)
        try Self.verdicts(Case(lines: line, verifyTime: "20200201Z", accepted: false), scratch)
        try Self.certify(scratch, "-h -n signer@test")
        try Self.verdicts(Case(lines: line, accepted: false), scratch)
        try Self.certify(scratch, "-V -1d:+1d")
        try Self.verdicts(Case(lines: line, accepted: false), scratch)
        let report = try scratch.mcpackReport(["allowed"], options: SignatureOptions(identity: "signer@test"))
        #expect(report.problems.first?.hasSuffix("line 1: the certificate names no principal (certificate \"signer-id\" by this line's cert-authority)") == true, "\(report.problems)")
        try scratch.keygen("ed25519", "ca2")
        #expect(try scratch.shell("rm -f signer-cert.pub delivery.zip.sig && ssh-keygen -q -s ca2 -I x -n signer@test signer.pub && ssh-keygen -q -Y sign -n file -f signer-cert.pub delivery.zip").status == 0)
        try Self.verdicts(Case(lines: line, accepted: false), scratch)

        // Without --identity, a CA line admits the certificate's principals
        // its patterns match, as ssh-keygen -Y find-principals finds them.
        try Self.certify(scratch, "-n signer@test,team@example -V -1d:+1d")
        try scratch.write("*@test cert-authority \(try scratch.text("ca.pub"))", to: "allowed")
        let found = try scratch.mcpackReport(["allowed"])
        #expect(found.valid && found.signer?.hasPrefix("signer@test ssh-ed25519-cert-v01@openssh.com ") == true, "\(found.signer ?? "") \(found.problems)")
        #expect(try scratch.shell("ssh-keygen -Y find-principals -f allowed -s delivery.zip.sig").stdout == "signer@test\n")
    }

    // MARK: revocation

    /// `-r`: a key listed is refused, a certificate whose key or authority
    /// is listed is refused; a key not listed passes. Both tools agree.
    @Test func revokedKeysAreRefusedAsSSHKeygenRefusesThem() throws {
        let scratch = try Self.signed()
        defer { scratch.destroy() }
        try scratch.write("signer@test \(try scratch.text("signer.pub"))", to: "allowed")
        func both(_ revoked: String) throws -> (theirs: Bool, ours: SignatureReport) {
            try scratch.write(revoked, to: "revoked")
            return (try scratch.sshKeygenAccepts("allowed", identity: "signer@test", options: ["-r revoked"]),
                    try scratch.mcpackReport(["allowed"], options: SignatureOptions(identity: "signer@test", revokedKeys: scratch.path("revoked"))))
        }
        var (theirs, ours) = try both("# revoked\n\n\(try scratch.text("other.pub"))")
        #expect(theirs && ours.valid, "\(ours.problems)")
        (theirs, ours) = try both("# revoked\n\(try scratch.text("other.pub"))\(try scratch.text("signer.pub"))")
        #expect(!theirs && !ours.valid)
        #expect(ours.problems.contains { $0.hasPrefix("the key SHA256:") && $0.hasSuffix("revoked line 3)") }, "\(ours.problems)")

        try Self.certify(scratch, "-n signer@test -V -1d:+1d")
        try scratch.write("*@test cert-authority \(try scratch.text("ca.pub"))", to: "allowed")
        for (listed, revoked) in [("other.pub", false), ("ca.pub", true), ("signer.pub", true)] {
            (theirs, ours) = try both(try scratch.text(listed))
            #expect(theirs == !revoked && ours.valid == !revoked, "\(listed): \(ours.problems)")
        }

        // A binary KRL is refused whole (mcpack does not read KRLs), and a
        // line that is no key is an error naming it: never an empty list.
        #expect(try scratch.shell("ssh-keygen -q -k -f krl signer.pub").status == 0)
        #expect(try !scratch.sshKeygenAccepts("allowed", identity: "signer@test", options: ["-r krl"]))
        let krl = #expect(throws: FileError.self) {
            try scratch.mcpackReport(["allowed"], options: SignatureOptions(revokedKeys: scratch.path("krl")))
        }
        #expect(krl?.message.hasPrefix("a binary KRL (ssh-keygen -k), which mcpack does not read") == true)
        try scratch.write("\(try scratch.text("other.pub"))signer@test \(try scratch.text("signer.pub"))", to: "revoked")
        let bad = #expect(throws: FileError.self) {
            try scratch.mcpackReport(["allowed"], options: SignatureOptions(revokedKeys: scratch.path("revoked")))
        }
        #expect(bad?.path == scratch.path("revoked") + " line 2", "\(String(describing: bad))")
    }

    // MARK: several keys, several types

    /// One allowed_signers file with a key of every type (the FIDO ones
    /// from OpenSSH's vectors, and a DSA key, skipped and named), and the
    /// same keys as separate --public-key files: each type's signature is
    /// admitted, and a key not among them refused.
    @Test func aFileOfEveryKeyTypeAndSeveralPublicKeysAdmitAnyOfThem() throws {
        let scratch = try SSHScratch()
        defer { scratch.destroy() }
        try scratch.payload()
        let types = SSHKeyTypeTests.types.map(\.keygen)
        var lines = ["# the team", "dsa@test \(try Self.keyLine(scratch, "dsa", "dsa"))"]
        for (index, type) in types.enumerated() {
            lines.append("k\(index)@test \(try Self.keyLine(scratch, type, "k\(index)"))")
        }
        for vector in ["ed25519_sk.pub", "ecdsa_sk.pub"] {
            lines.append("fido@test \(String(decoding: try SSHSignatureVectorTests.vector(vector), as: UTF8.self))")
        }
        try scratch.write(lines.joined(separator: "\n") + "\n", to: "allowed")
        try scratch.keygen("ed25519", "stranger")
        for index in types.indices {
            #expect(try scratch.shell("rm -f delivery.zip.sig && ssh-keygen -q -Y sign -n file -f k\(index) delivery.zip").status == 0)
            #expect(try scratch.sshKeygenAccepts("allowed", identity: "k\(index)@test"))
            let report = try scratch.mcpackReport(["allowed"], options: SignatureOptions(identity: "k\(index)@test"))
            #expect(report.valid, "\(types[index]): \(report.problems)")
            #expect(report.notes == ["\(scratch.path("allowed")) line 2 skipped: a ssh-dss key, which mcpack does not check"])
            let any = try scratch.mcpackReport(["allowed"])
            #expect(any.valid && any.signer?.hasPrefix("k\(index)@test ") == true)
            let several = try scratch.mcpackReport(types.indices.map { "k\($0).pub" })
            #expect(several.valid, "\(several.problems)")
        }
        #expect(try scratch.shell("rm -f delivery.zip.sig && ssh-keygen -q -Y sign -n file -f stranger delivery.zip").status == 0)
        let refused = try scratch.mcpackReport(types.indices.map { "k\($0).pub" })
        #expect(!refused.valid && refused.problem?.hasPrefix("signed with another key: ssh-ed25519 SHA256:") == true, "\(refused.problems)")
    }

    static func keyLine(_ scratch: SSHScratch, _ type: String, _ name: String) throws -> String {
        try scratch.keygen(type, name)
        return try scratch.text("\(name).pub").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: damaged files

    /// A line whose key is damaged is bad input naming the file and line
    /// (exit 2), not a line quietly passed over.
    @Test(arguments: [
        ("alice@test ssh-ed25519 AAAA!!!notbase64", "the key's base64 is damaged"),
        ("alice@test ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA==", "the ssh-ed25519 key is cut short or damaged"),
        ("alice@test ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIOsKqw3X2o6kH5e3mQ2x8W4b6Y1u0p7f9c2d4e5f6a7b", "the line says ssh-rsa, its key is ssh-ed25519"),
        ("alice@test", "not an allowed_signers line (principals, options, then a key)"),
        ("alice@test namespaces=\"file\"", "no key after the principals"),
        ("alice@test namespaces=\"file\" AAAAC3NzaC1lZDI1NTE5", "AAAAC3NzaC1lZDI1NTE5 is not an OpenSSH key type"),
    ])
    func aDamagedLineIsAnErrorNamingIt(_ line: String, _ message: String) throws {
        var signers = AllowedSigners()
        let error = #expect(throws: FileError.self) { try signers.read("# first\n\(line)\n", file: "allowed") }
        #expect(error?.path == "allowed line 2")
        #expect(error?.message == message)
    }

    // MARK: times

    /// ssh-keygen's time formats, and what its strptime and mktime make of
    /// them; local times are tried through the command, under another TZ.
    @Test func timesAreReadAsSSHKeygenReadsThem() {
        #expect(SSHTime.parse("20240101Z") == 1_704_067_200)
        #expect(SSHTime.parse("20240101utc") == 1_704_067_200)
        #expect(SSHTime.parse("202401011230Z") == 1_704_112_200)
        #expect(SSHTime.parse("20240101123045Z") == 1_704_112_245)
        #expect(SSHTime.parse("20240230Z") == SSHTime.parse("20240301Z"))
        for bad in ["2024010", "2024010112Z", "20241301", "2024013a", "19700101Z", "", "Z", "２０２４０１０１", "20240101 "] {
            #expect(SSHTime.parse(bad) == nil, "\(bad)")
        }
    }

    /// Under TZ=Europe/Berlin, a time without Z is Berlin's, and (as
    /// ssh-keygen zeroes tm_isdst) a summer one is read as standard time:
    /// valid-after="20240701000000" holds from 23:00 UTC, not 22:00.
    @Test func aLocalTimeIsTheUsersZoneAsSSHKeygenReadsIt() throws {
        let scratch = try Self.signed()
        defer { scratch.destroy() }
        try scratch.write("signer@test valid-after=\"20240701000000\" \(try scratch.text("signer.pub"))", to: "allowed")
        for (time, accepted) in [("20240630220000Z", false), ("20240630225959Z", false), ("20240630230000Z", true)] {
            let theirs = try scratch.shell("TZ=Europe/Berlin ssh-keygen -Y verify -f allowed -I signer@test -n file -s delivery.zip.sig -Overify-time=\(time) < delivery.zip")
            let ours = try MCPackBinary.run(["verify", "delivery.zip", "--public-key", "allowed", "--verify-time", time], in: scratch.folder, environment: ["TZ": "Europe/Berlin"])
            #expect((theirs.status == 0) == accepted, "\(time): \(theirs.stdout)")
            #expect(ours.stdout.hasPrefix("signature good:") == accepted, "\(time): \(ours.stdout)")
            if !accepted {
                #expect(ours.stdout.contains("the key is not valid until 2024-07-01T01:00:00 (valid-after)"), "\(ours.stdout)")
            }
        }
        let bad = try MCPackBinary.run(["verify", "delivery.zip", "--public-key", "allowed", "--verify-time", "2024-07-01"], in: scratch.folder)
        #expect(bad.status == 2 && bad.stderr.contains("--verify-time: 2024-07-01 is not a time"), "\(bad.stderr)")
    }
}
