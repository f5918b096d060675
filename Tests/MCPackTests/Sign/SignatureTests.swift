import Foundation
@testable import MCPackKit
import Testing

/// `mcpack sign` and `verify --public-key`, held against the tools people
/// check signatures with: Debian's minisign and OpenSSH's ssh-keygen, which
/// make the keys here, check mcpack's signatures, and sign for mcpack to check.
@Suite(.serialized)
struct SignatureTests {
    /// A small bundle built, in its project; the archive's path relative to it.
    struct Built {
        let project: TestProject
        let archive = "dist/test-bundle-1.0.0.zip"
        var root: URL { project.root }
        func url(_ relative: String) -> URL { project.url(relative) }

        func run(_ arguments: [String], environment: [String: String] = [:]) throws -> RunResult {
            try MCPackBinary.run(arguments, in: root, environment: environment)
        }

        /// A shell command in the project (for a password on minisign's stdin).
        func shell(_ command: String) throws -> RunResult {
            try MCPackBinary.tool("sh", ["-c", command], in: root)
        }
    }

    static func build() throws -> Built {
        for tool in ["minisign", "ssh-keygen"] {
            let found = try MCPackBinary.tool("sh", ["-c", "command -v \(tool)"], in: URL(fileURLWithPath: "/"))
            try #require(found.status == 0, "\(tool) is missing: scripts/install-deps.sh --test installs it (minisign, openssh-client)")
        }
        let project = try TestProject.make()
        let built = Built(project: project)
        let result = try built.run(["build"])
        try #require(result.status == 0, "\(result.stderr)")
        return built
    }

    /// Runs its arguments in a new session, with no controlling terminal
    /// (setsid(1) is not on macOS).
    static let detached = "import os, sys; os.setsid(); os.execv(sys.argv[1], sys.argv[1:])"

    /// Runs its arguments on a new pty, types "horse battery" once the
    /// password prompt shows, and prints all the pty showed.
    static let typing = """
        import os, pty, sys
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(sys.argv[1], sys.argv[1:])
        out, sent = b"", False
        while True:
            try:
                data = os.read(fd, 1024)
            except OSError:
                break
            if not data:
                break
            out += data
            if not sent and b"Password for" in out:
                os.write(fd, b"horse battery\\n")
                sent = True
        sys.stdout.write(out.decode(errors="replace"))
        sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
        """

    /// Runs its arguments on a new pty, presses Ctrl-C once the password
    /// prompt shows, and prints the exit status and whether the pty echoes.
    static let interrupting = """
        import os, pty, sys, termios
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(sys.argv[1], sys.argv[1:])
        out = b""
        while b"Password for" not in out:
            data = os.read(fd, 1024)
            if not data:
                break
            out += data
        os.write(fd, b"\\x03")
        status = os.waitpid(pid, 0)[1]
        echo = termios.tcgetattr(fd)[3] & termios.ECHO
        print("signal", os.WTERMSIG(status) if os.WIFSIGNALED(status) else None, "echo", "on" if echo else "off")
        """

    /// An unencrypted minisign key pair, as `minisign -G -W` writes it.
    static func minisignKey(_ built: Built, _ name: String) throws {
        let made = try built.shell("minisign -G -W -p \(name).pub -s \(name).key")
        try #require(made.status == 0, "\(made.stdout)")
    }

    @Test func minisignChecksMCPackSignatureAndMCPackChecksMinisigns() throws {
        let built = try Self.build()
        defer { built.project.destroy() }
        try Self.minisignKey(built, "k")
        let signed = try built.run(["sign", built.archive, "--key", "k.key"])
        #expect(signed.status == 0, "\(signed.stderr)")
        let sha = try String(contentsOf: built.url(built.archive + ".sha256"), encoding: .utf8).prefix(64)
        #expect(signed.stdout.contains("trusted comment: bundle:test-bundle version:1.0.0 sha256:\(sha) file:test-bundle-1.0.0.zip"))

        // minisign's verdict on mcpack's signature, and its trusted comment.
        let theirs = try built.shell("minisign -Vm \(built.archive) -p k.pub")
        #expect(theirs.status == 0, "\(theirs.stdout)")
        #expect(theirs.stdout.contains("Trusted comment: bundle:test-bundle version:1.0.0 sha256:\(sha)"))

        // minisign signing the same file with the same comments writes the
        // same bytes (Ed25519 is deterministic): the format is minisign's.
        let ours = try Data(contentsOf: built.url(built.archive + ".minisig"))
        let lines = String(decoding: ours, as: UTF8.self).split(separator: "\n")
        let untrusted = String(lines[0].dropFirst("untrusted comment: ".count))
        let trusted = String(lines[2].dropFirst("trusted comment: ".count))
        let minisigned = try built.shell("minisign -S -s k.key -m \(built.archive) -x theirs.minisig -c '\(untrusted)' -t '\(trusted)'")
        #expect(minisigned.status == 0, "\(minisigned.stdout)")
        #expect(try Data(contentsOf: built.url("theirs.minisig")) == ours)

        // A signature minisign wrote with its own comment, checked by mcpack,
        // with the key as a file and as its base64 line.
        #expect(try built.shell("minisign -S -s k.key -m \(built.archive) -t 'signed by minisign'").status == 0)
        let checked = try built.run(["verify", built.archive, "--public-key", "k.pub"])
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        let keyID = try String(contentsOf: built.url("k.pub"), encoding: .utf8).split(separator: "\n")[0].split(separator: " ").last!
        #expect(checked.stdout.contains("signature good: test-bundle-1.0.0.zip.minisig, signed by minisign key \(keyID)"))
        #expect(checked.stdout.contains("trusted comment: signed by minisign"))
        let line = String(try String(contentsOf: built.url("k.pub"), encoding: .utf8).split(separator: "\n")[1])
        let json = try built.run(["verify", built.archive, "--public-key", line, "--json"])
        #expect(json.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let signature = (object["signatures"] as! [[String: Any]])[0]
        #expect(signature["valid"] as? Bool == true && signature["checked"] as? Bool == true)
        #expect(signature["trustedComment"] as? String == "signed by minisign")
        #expect(signature["signer"] as? String == "minisign key \(keyID)")
    }

    /// minisign names a key by its ID without leading zeros (PRIX64): so
    /// does mcpack, or one key in sixteen would be named two ways.
    @Test func aKeyIDIsNamedAsMinisignNamesIt() {
        #expect(Minisign.keyIDText([0x68, 0xCA, 0x61, 0x40, 0x16, 0x77, 0x8A, 0x05]) == "58A77164061CA68")
        #expect(Minisign.keyIDText([0x68, 0xCA, 0x61, 0x40, 0x16, 0x77, 0x8A, 0xF5]) == "F58A77164061CA68")
        #expect(Minisign.keyIDText([UInt8](repeating: 0, count: 8)) == "0")
    }

    @Test func eachBrokenSignatureFailsClearly() throws {
        let built = try Self.build()
        defer { built.project.destroy() }
        try Self.minisignKey(built, "k")
        try Self.minisignKey(built, "other")
        #expect(try built.run(["sign", built.archive, "--key", "k.key"]).status == 0)
        let signature = try Data(contentsOf: built.url(built.archive + ".minisig"))

        func verdict(_ key: String = "k.pub") throws -> (RunResult, [String: Any]) {
            let text = try built.run(["verify", built.archive, "--public-key", key])
            let json = try built.run(["verify", built.archive, "--public-key", key, "--json"])
            #expect(json.status == text.status)
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
            let found = (object["signatures"] as? [[String: Any]])?.first ?? [:]
            #expect(found["valid"] as? Bool == false)
            #expect((object["problems"] as! [[String: Any]]).first?["rule"] as? String == "signature")
            return (text, found)
        }

        // Wrong key.
        var (result, found) = try verdict("other.pub")
        #expect(result.status == 1)
        #expect(result.stdout.contains("signed with another key"), "\(result.stdout)")
        #expect((found["problem"] as? String)?.contains("signed with another key") == true)

        // A truncated signature file: the trusted comment and the global
        // signature cut off.
        let text = String(decoding: signature, as: UTF8.self)
        try Data(text.split(separator: "\n").prefix(2).joined(separator: "\n").utf8).write(to: built.url(built.archive + ".minisig"))
        (result, found) = try verdict()
        #expect(result.status == 1)
        #expect(result.stdout.contains("damaged signature: line 3: the trusted comment is missing"), "\(result.stdout)")
        #expect(try built.shell("minisign -Vm \(built.archive) -p k.pub").status != 0)

        // A changed trusted comment.
        try Data(text.replacingOccurrences(of: "version:1.0.0", with: "version:9.9.9").utf8).write(to: built.url(built.archive + ".minisig"))
        (result, _) = try verdict()
        #expect(result.status == 1)
        #expect(result.stdout.contains("the trusted comment was changed after signing"), "\(result.stdout)")

        // A signature of another archive: version 1.0.1's, beside 1.0.0.
        try built.project.edit("bundle.toml", "version = \"1.0.0\"", "version = \"1.0.1\"")
        #expect(try built.run(["build"]).status == 0)
        #expect(try built.run(["sign", "dist/test-bundle-1.0.1.zip", "--key", "k.key"]).status == 0)
        try FileManager.default.removeItem(at: built.url(built.archive + ".minisig"))
        try FileManager.default.copyItem(at: built.url("dist/test-bundle-1.0.1.zip.minisig"), to: built.url(built.archive + ".minisig"))
        (result, _) = try verdict()
        #expect(result.status == 1)
        #expect(result.stdout.contains("the signature is of another archive, test-bundle-1.0.1.zip"), "\(result.stdout)")

        // A changed byte of the archive, with its own signature beside it:
        // minisign says no too.
        try signature.write(to: built.url(built.archive + ".minisig"))
        var archive = try Data(contentsOf: built.url(built.archive))
        archive[archive.count / 2] ^= 0x01
        try archive.write(to: built.url(built.archive))
        (result, _) = try verdict()
        #expect(result.status == 1)
        #expect(result.stdout.contains("the signature does not match the archive"), "\(result.stdout)")
        #expect(try built.shell("minisign -Vm \(built.archive) -p k.pub").status != 0)

        // No signature at all.
        try FileManager.default.removeItem(at: built.url(built.archive + ".minisig"))
        (result, _) = try verdict()
        #expect(result.status == 1)
        #expect(result.stdout.contains("no signature: test-bundle-1.0.0.zip.minisig is missing"), "\(result.stdout)")

        // A public key that is none: could not verify, exit 2.
        let bad = try built.run(["verify", built.archive, "--public-key", "RWnotakey"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("not a minisign public key"), "\(bad.stderr)")
        // A key file that is not there is named as missing, not parsed as a key.
        let missing = try built.run(["verify", built.archive, "--public-key", "keys/gone.pub"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("keys/gone.pub: --public-key: no such file"), "\(missing.stderr)")
        // One that is there but cannot be read (a folder: the tests may run as root) says so.
        try FileManager.default.createDirectory(at: built.url("folder.pub"), withIntermediateDirectories: true)
        let unreadable = try built.run(["verify", built.archive, "--public-key", "folder.pub"])
        #expect(unreadable.status == 2)
        #expect(unreadable.stderr.contains("folder.pub: --public-key: cannot read it"), "\(unreadable.stderr)")
    }

    @Test func encryptedMinisignKeyTakesItsPasswordAndRefusesAWrongOne() throws {
        let built = try Self.build()
        defer { built.project.destroy() }
        // minisign -G reads the password twice from standard input when it
        // is not a terminal. Its default scrypt parameters (1 GiB) are the
        // ones mcpack must then match through OpenSSL.
        let made = try built.shell("printf 'horse battery\\nhorse battery\\n' | minisign -G -p e.pub -s e.key")
        try #require(made.status == 0, "\(made.stdout)")
        #expect(try String(contentsOf: built.url("e.key"), encoding: .utf8).contains("encrypted secret key"))

        let wrong = try built.run(["sign", built.archive, "--key", "e.key"], environment: ["MCPACK_KEY_PASSWORD": "horse staple"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("e.key: wrong password"), "\(wrong.stderr)")
        #expect(!FileManager.default.fileExists(atPath: built.url(built.archive + ".minisig").path))

        // No variable and no terminal to ask on (the test has none).
        let none = try built.shell("unset MCPACK_KEY_PASSWORD; python3 -c '\(Self.detached)' '\(MCPackBinary.url.path)' sign \(built.archive) --key e.key </dev/null")
        #expect(none.status == 2)
        #expect(none.stdout.contains("e.key: the key is encrypted and there is no terminal to ask its password on: set MCPACK_KEY_PASSWORD"), "\(none.stdout)")

        // Asked on the terminal: a pty, the password typed once the prompt
        // shows, and not echoed back.
        let asked = try built.shell("unset MCPACK_KEY_PASSWORD; python3 -c '\(Self.typing)' '\(MCPackBinary.url.path)' sign \(built.archive) --key e.key")
        #expect(asked.status == 0, "\(asked.stdout)")
        #expect(asked.stdout.contains("Password for e.key: "), "\(asked.stdout)")
        #expect(!asked.stdout.contains("horse battery"), "the password was echoed: \(asked.stdout)")
        #expect(try built.shell("minisign -Vm \(built.archive) -p e.pub").status == 0)
        try FileManager.default.removeItem(at: built.url(built.archive + ".minisig"))

        // Ctrl-C at the prompt: interrupted as ever, and the terminal echoes again.
        let interrupted = try built.shell("unset MCPACK_KEY_PASSWORD; python3 -c '\(Self.interrupting)' '\(MCPackBinary.url.path)' sign \(built.archive) --key e.key")
        #expect(interrupted.stdout.contains("signal \(SIGINT) echo on"), "\(interrupted.stdout)")
        #expect(!FileManager.default.fileExists(atPath: built.url(built.archive + ".minisig").path))

        let right = try built.run(["sign", built.archive, "--key", "e.key"], environment: ["MCPACK_KEY_PASSWORD": "horse battery"])
        #expect(right.status == 0, "\(right.stderr)")
        let theirs = try built.shell("minisign -Vm \(built.archive) -p e.pub")
        #expect(theirs.status == 0, "\(theirs.stdout)")
        #expect(try built.run(["verify", built.archive, "--public-key", "e.pub"]).status == 0)
    }

    @Test func sshKeygenChecksMCPackSignatureAndMCPackChecksSshKeygens() throws {
        let built = try Self.build()
        defer { built.project.destroy() }
        #expect(try built.shell("ssh-keygen -q -t ed25519 -N '' -C signer@cathedral -f id").status == 0)
        #expect(try built.shell("ssh-keygen -q -t ed25519 -N '' -C someone@else -f other").status == 0)
        let publicKey = try String(contentsOf: built.url("id.pub"), encoding: .utf8)
        try Data("signer@cathedral \(publicKey)".utf8).write(to: built.url("allowed_signers"))

        let signed = try built.run(["sign", built.archive, "--key", "id", "--json"])
        #expect(signed.status == 0, "\(signed.stderr)")
        let result = try JSONSerialization.jsonObject(with: Data(signed.stdout.utf8)) as! [String: Any]
        #expect(result["format"] as? String == "sshsig" && result["signature"] as? String == built.archive + ".sig")
        #expect((result["signer"] as? String)?.hasPrefix("ssh-ed25519 SHA256:") == true)
        let ours = try Data(contentsOf: built.url(built.archive + ".sig"))
        let theirsCheck = try built.shell("ssh-keygen -Y verify -f allowed_signers -I signer@cathedral -n file -s \(built.archive).sig < \(built.archive)")
        #expect(theirsCheck.status == 0, "\(theirsCheck.stdout)")
        #expect(theirsCheck.stdout.contains("Good \"file\" signature for signer@cathedral"))

        // ssh-keygen's own signature of the file is the same bytes.
        try FileManager.default.removeItem(at: built.url(built.archive + ".sig"))
        #expect(try built.shell("ssh-keygen -q -Y sign -n file -f id \(built.archive)").status == 0)
        #expect(try Data(contentsOf: built.url(built.archive + ".sig")) == ours)

        // mcpack checks ssh-keygen's: an allowed_signers line, or the .pub
        // with --identity.
        let checked = try built.run(["verify", built.archive, "--public-key", "allowed_signers"])
        #expect(checked.status == 0, "\(checked.stdout)")
        let fingerprint = try built.shell("ssh-keygen -l -f id.pub").stdout.split(separator: " ")[1]
        #expect(checked.stdout.contains("signed by signer@cathedral ssh-ed25519 \(fingerprint)"), "\(checked.stdout)")
        let withIdentity = try built.run(["verify", built.archive, "--public-key", "id.pub", "--identity", "signer@cathedral", "--json"])
        #expect(withIdentity.status == 0)
        #expect(withIdentity.stdout.contains("\"signer\" : \"signer@cathedral ssh-ed25519 \(fingerprint)\""), "\(withIdentity.stdout)")

        // Another namespace than "file" (a git commit's, say) is not a
        // signature of a delivery.
        try FileManager.default.removeItem(at: built.url(built.archive + ".sig"))
        #expect(try built.shell("ssh-keygen -q -Y sign -n git -f id \(built.archive)").status == 0)
        let otherNamespace = try built.run(["verify", built.archive, "--public-key", "allowed_signers"])
        #expect(otherNamespace.status == 1)
        #expect(otherNamespace.stdout.contains("a signature for namespace \"git\", not \"file\""), "\(otherNamespace.stdout)")
        try ours.write(to: built.url(built.archive + ".sig"))

        // An identity the allowed_signers line does not name: could not verify.
        let stranger = try built.run(["verify", built.archive, "--public-key", "allowed_signers", "--identity", "someone@else"])
        #expect(stranger.status == 2)
        #expect(stranger.stderr.contains("the identity someone@else is not among this key's principals (signer@cathedral)"), "\(stranger.stderr)")

        // Wrong key, truncated, changed byte: each exit 1, ssh-keygen agreeing.
        let wrong = try built.run(["verify", built.archive, "--public-key", "other.pub"])
        #expect(wrong.status == 1)
        #expect(wrong.stdout.contains("signed with another key"), "\(wrong.stdout)")
        let armored = String(decoding: ours, as: UTF8.self)
        try Data(armored.split(separator: "\n").prefix(3).joined(separator: "\n").utf8).write(to: built.url(built.archive + ".sig"))
        let cut = try built.run(["verify", built.archive, "--public-key", "allowed_signers"])
        #expect(cut.status == 1)
        #expect(cut.stdout.contains("damaged signature: the signature is cut short"), "\(cut.stdout)")
        try ours.write(to: built.url(built.archive + ".sig"))
        var archive = try Data(contentsOf: built.url(built.archive))
        archive[archive.count / 3] ^= 0x80
        try archive.write(to: built.url(built.archive))
        let changed = try built.run(["verify", built.archive, "--public-key", "allowed_signers"])
        #expect(changed.status == 1)
        #expect(changed.stdout.contains("the signature does not match the archive"), "\(changed.stdout)")
        #expect(try built.shell("ssh-keygen -Y verify -f allowed_signers -I signer@cathedral -n file -s \(built.archive).sig < \(built.archive)").status != 0)
    }

    /// allowed_signers lines through the command, each verdict beside
    /// ssh-keygen's (AllowedSignersTests holds the full table of options).
    @Test func allowedSignersLinesChooseWhoMaySignAsSSHKeygenChooses() throws {
        let built = try Self.build()
        defer { built.project.destroy() }
        #expect(try built.shell("ssh-keygen -q -t ed25519 -N '' -C signer@cathedral -f id").status == 0)
        #expect(try built.shell("ssh-keygen -q -t ed25519 -N '' -C someone@else -f other").status == 0)
        #expect(try built.shell("ssh-keygen -q -Y sign -n file -f id \(built.archive)").status == 0)
        let publicKey = try String(contentsOf: built.url("id.pub"), encoding: .utf8)
        let fingerprint = try built.shell("ssh-keygen -l -f id.pub").stdout.split(separator: " ")[1]

        // Two signers: the line whose principals name --identity is the
        // one checked, as ssh-keygen -Y verify -I chooses it.
        let otherKey = try String(contentsOf: built.url("other.pub"), encoding: .utf8)
        try Data("# two signers\nsomeone@else \(otherKey)builders@cathedral,signer@cathedral \(publicKey)".utf8).write(to: built.url("two_signers"))
        func both(_ identity: String) throws -> (ours: RunResult, theirs: RunResult) {
            (try built.run(["verify", built.archive, "--public-key", "two_signers", "--identity", identity]),
             try built.shell("ssh-keygen -Y verify -f two_signers -I \(identity) -n file -s \(built.archive).sig < \(built.archive)"))
        }
        var (ours2, theirs2) = try both("signer@cathedral")
        #expect(ours2.status == 0 && theirs2.status == 0, "\(ours2.stdout)\(ours2.stderr)")
        #expect(ours2.stdout.contains("signed by signer@cathedral ssh-ed25519 \(fingerprint)"), "\(ours2.stdout)")
        (ours2, theirs2) = try both("someone@else")
        #expect(ours2.status == 1 && theirs2.status != 0)
        #expect(ours2.stdout.contains("signed with another key"), "\(ours2.stdout)")
        let notExact = try built.run(["verify", built.archive, "--public-key", "two_signers", "--identity", "signer"])
        #expect(notExact.status == 2)
        #expect(notExact.stderr.contains("the identity signer is not among this key's principals (someone@else; builders@cathedral,signer@cathedral)"), "\(notExact.stderr)")
        // Without --identity, any line may admit the signature, and its
        // principals name the signer (ssh-keygen -Y find-principals finds the same).
        let noIdentity = try built.run(["verify", built.archive, "--public-key", "two_signers"])
        #expect(noIdentity.status == 0, "\(noIdentity.stdout)")
        #expect(noIdentity.stdout.contains("signed by builders@cathedral,signer@cathedral ssh-ed25519 \(fingerprint)"), "\(noIdentity.stdout)")
        // A pattern matches as ssh-keygen matches it; an option is honoured as ssh-keygen honours it.
        try Data("someone@else \(otherKey)*@cathedral,!mallory@cathedral \(publicKey)".utf8).write(to: built.url("two_signers"))
        (ours2, theirs2) = try both("signer@cathedral")
        #expect(ours2.status == 0 && theirs2.status == 0, "\(ours2.stdout)\(ours2.stderr)")
        (ours2, theirs2) = try both("mallory@cathedral")
        #expect(ours2.status == 2 && theirs2.status != 0, "\(ours2.stdout)\(ours2.stderr)")
        try Data("someone@else \(otherKey)signer@cathedral namespaces=\"file\" \(publicKey)".utf8).write(to: built.url("two_signers"))
        (ours2, theirs2) = try both("signer@cathedral")
        #expect(ours2.status == 0 && theirs2.status == 0, "\(ours2.stdout)\(ours2.stderr)")
        try Data("someone@else \(otherKey)signer@cathedral namespaces=\"git\" \(publicKey)".utf8).write(to: built.url("two_signers"))
        (ours2, theirs2) = try both("signer@cathedral")
        #expect(ours2.status == 1 && theirs2.status != 0, "\(ours2.stdout)\(ours2.stderr)")
        #expect(ours2.stdout.contains("two_signers line 2: the key is allowed for namespaces=\"git\", not \"file\""), "\(ours2.stdout)")
        // An option ssh-keygen does not know: the line skipped and named, as ssh-keygen skips it.
        try Data("signer@cathedral unheard-of \(publicKey)".utf8).write(to: built.url("two_signers"))
        (ours2, theirs2) = try both("signer@cathedral")
        #expect(ours2.status == 1 && theirs2.status != 0, "\(ours2.stdout)\(ours2.stderr)")
        #expect(ours2.stdout.contains("note: test-bundle-1.0.0.zip.sig: two_signers line 1 skipped: unknown option unheard-of"), "\(ours2.stdout)")
    }

    /// OpenSSH protects a key with bcrypt_pbkdf, which OpenSSL lacks: with
    /// no agent holding it, a message says how to go on; with ssh-agent
    /// holding it, the agent signs (RSA asked for rsa-sha2-512), and the
    /// bytes are ssh-keygen's through the same agent (ECDSA's, random,
    /// are checked by ssh-keygen instead).
    @Test(arguments: ["ed25519", "rsa", "ecdsa -b 384"])
    func passphraseProtectedSSHKeySignsThroughTheAgentOrSaysHowToGoOn(_ type: String) throws {
        let built = try Self.build()
        defer { built.project.destroy() }
        #expect(try built.shell("ssh-keygen -q -t \(type) -N 'secret words' -C locked@cathedral -f locked").status == 0)
        let refused = try built.run(["sign", built.archive, "--key", "locked"], environment: ["SSH_AUTH_SOCK": ""])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("locked: the key is protected with a passphrase"), "\(refused.stderr)")
        #expect(refused.stderr.contains("no agent is running"), "\(refused.stderr)")
        #expect(refused.stderr.contains("`ssh-add locked`") && refused.stderr.contains("ssh-keygen -Y sign -n file -f locked ARCHIVE"))
        #expect(!FileManager.default.fileExists(atPath: built.url(built.archive + ".sig").path))

        // An agent of this test's own, on a short path (sun_path is 104 bytes on macOS).
        let socket = "/tmp/mcpack-agent-\(UInt32.random(in: 0...UInt32.max)).sock"
        // Started through Python, which closes every descriptor but the
        // standard ones in the agent: one inherited from this test's pipes
        // would keep the read of its output from ever ending.
        let started = try built.shell("python3 -c 'import subprocess, sys; print(subprocess.run([\"ssh-agent\", \"-a\", sys.argv[1], \"-s\"], capture_output=True, text=True).stdout)' \(socket)")
        let pidText = started.stdout.components(separatedBy: "SSH_AGENT_PID=").dropFirst().first?.prefix { $0.isNumber } ?? ""
        let pid = try #require(Int32(pidText), "\(started.stdout)")
        defer {
            kill(pid, SIGTERM)
            try? FileManager.default.removeItem(atPath: socket)
        }
        let absent = try built.run(["sign", built.archive, "--key", "locked"], environment: ["SSH_AUTH_SOCK": socket])
        #expect(absent.status == 2)
        #expect(absent.stderr.contains("the agent at SSH_AUTH_SOCK does not hold it"), "\(absent.stderr)")

        try Data("#!/bin/sh\necho 'secret words'\n".utf8).write(to: built.url("askpass"))
        #expect(try built.shell("chmod +x askpass && SSH_AUTH_SOCK=\(socket) SSH_ASKPASS=./askpass SSH_ASKPASS_REQUIRE=force DISPLAY=none ssh-add locked </dev/null").status == 0)
        let signed = try built.run(["sign", built.archive, "--key", "locked"], environment: ["SSH_AUTH_SOCK": socket])
        #expect(signed.status == 0, "\(signed.stderr)")
        let publicKey = try String(contentsOf: built.url("locked.pub"), encoding: .utf8)
        try Data("locked@cathedral \(publicKey)".utf8).write(to: built.url("allowed_signers"))
        let theirs = try built.shell("ssh-keygen -Y verify -f allowed_signers -I locked@cathedral -n file -s \(built.archive).sig < \(built.archive)")
        #expect(theirs.status == 0, "\(theirs.stdout)")
        #expect(try built.run(["verify", built.archive, "--public-key", "allowed_signers"]).status == 0)
        let ours = try Data(contentsOf: built.url(built.archive + ".sig"))
        try FileManager.default.removeItem(at: built.url(built.archive + ".sig"))
        #expect(try built.shell("SSH_AUTH_SOCK=\(socket) ssh-keygen -q -Y sign -n file -f locked \(built.archive)").status == 0)
        if !type.hasPrefix("ecdsa") {
            #expect(try Data(contentsOf: built.url(built.archive + ".sig")) == ours)
        }
    }

    @Test func buildSignsAsItBuildsAndVerifyReportsAnUncheckedSignature() throws {
        let built = try Self.build()
        defer { built.project.destroy() }
        try Self.minisignKey(built, "k")
        try built.project.edit("bundle.toml", "version = \"1.0.0\"", "version = \"1.1.0\"")
        let result = try built.run(["build", "--sign-key", "k.key", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect((object["signature"] as? [String: Any])?["signature"] as? String == "dist/test-bundle-1.1.0.zip.minisig")
        #expect(object["sha256"] as? String != nil)
        #expect(try built.shell("minisign -Vm dist/test-bundle-1.1.0.zip -p k.pub").status == 0)

        let plain = try built.run(["verify", "dist/test-bundle-1.1.0.zip"])
        #expect(plain.status == 0)
        #expect(plain.stdout.contains("signature: test-bundle-1.1.0.zip.minisig present, not checked"))
        let json = try built.run(["verify", "dist/test-bundle-1.1.0.zip", "--json"])
        let found = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let signature = (found["signatures"] as! [[String: Any]])[0]
        #expect(signature["checked"] as? Bool == false && signature["format"] as? String == "minisign")

        // A key that is not one stops the build before anything is made.
        try Data("not a key\n".utf8).write(to: built.url("bad.key"))
        try built.project.edit("bundle.toml", "version = \"1.1.0\"", "version = \"1.2.0\"")
        let refused = try built.run(["build", "--sign-key", "bad.key"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("bad.key: neither a minisign secret key"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: built.url("dist/test-bundle-1.2.0.zip").path))
    }

    @Test func overwritingASignedArchiveRemovesItsStaleSignature() throws {
        let built = try Self.build()
        defer { built.project.destroy() }
        try Self.minisignKey(built, "k")
        #expect(try built.run(["sign", built.archive, "--key", "k.key"]).status == 0)
        try built.project.edit("assets/clauses.toml", "Also still law.", "Also still law today.")
        let replaced = try built.run(["build", "--overwrite"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(!FileManager.default.fileExists(atPath: built.url(built.archive + ".minisig").path))
        #expect(replaced.stderr.contains("removed \(built.archive).minisig: it signed the archive this build replaced"), "\(replaced.stderr)")
        let verified = try built.run(["verify", built.archive])
        #expect(verified.status == 0 && !verified.stdout.contains(".minisig"), "\(verified.stdout)")

        // Signed again as it is replaced: the old signature goes, the new one is the new bytes'.
        #expect(try built.run(["sign", built.archive, "--key", "k.key"]).status == 0)
        try built.project.edit("assets/clauses.toml", "Also still law today.", "Also still law.")
        let resigned = try built.run(["build", "--overwrite", "--sign-key", "k.key", "--json"])
        #expect(resigned.status == 0, "\(resigned.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(resigned.stdout.utf8)) as! [String: Any]
        #expect(object["removed_signatures"] as? [String] == [built.archive + ".minisig"])
        #expect(try built.shell("minisign -Vm \(built.archive) -p k.pub").status == 0)
    }

    /// `mcpack sign` and `verify` as commands with RSA and ECDSA keys on a
    /// built bundle, ssh-keygen checking mcpack's signature; then damaged
    /// signatures of each, none of which exits 0 or crashes.
    @Test func rsaAndECDSAKeysSignAndCheckThroughTheCommands() throws {
        let built = try Self.build()
        defer { built.project.destroy() }
        for type in ["rsa", "ecdsa -b 521"] {
            #expect(try built.shell("rm -f key key.pub && ssh-keygen -q -t \(type) -N '' -C signer@cathedral -f key").status == 0)
            try Data("signer@cathedral \(try String(contentsOf: built.url("key.pub"), encoding: .utf8))".utf8).write(to: built.url("allowed_signers"))
            let signed = try built.run(["sign", built.archive, "--key", "key"])
            #expect(signed.status == 0, "\(signed.stderr)")
            let theirs = try built.shell("ssh-keygen -Y verify -f allowed_signers -I signer@cathedral -n file -s \(built.archive).sig < \(built.archive)")
            #expect(theirs.status == 0, "\(type): \(theirs.stdout)")
            let checked = try built.run(["verify", built.archive, "--public-key", "allowed_signers", "--identity", "signer@cathedral"])
            #expect(checked.status == 0, "\(type): \(checked.stdout)")
            let name = type == "rsa" ? "ssh-rsa" : "ecdsa-sha2-nistp521"
            #expect(checked.stdout.contains("signed by signer@cathedral \(name) SHA256:"), "\(checked.stdout)")

            let good = try Data(contentsOf: built.url(built.archive + ".sig"))
            let blob = try #require(SSHWire.dearmor(String(decoding: good, as: UTF8.self), "SSH SIGNATURE"))
            for index in stride(from: 0, to: blob.count, by: max(1, blob.count / 24)) {
                var changed = blob
                changed[index] ^= 0x41
                try Data(SSHWire.armor(changed, "SSH SIGNATURE").utf8).write(to: built.url(built.archive + ".sig"))
                let result = try built.run(["verify", built.archive, "--public-key", "allowed_signers"])
                #expect(result.status == 1 && !result.signalled, "\(type) byte \(index): \(result.status) \(result.stdout)\(result.stderr)")
            }
            for cut in [good.prefix(good.count / 2), Data(), Data(repeating: 0x41, count: 1 << 20)] {
                try cut.write(to: built.url(built.archive + ".sig"))
                let result = try built.run(["verify", built.archive, "--public-key", "allowed_signers"])
                #expect(result.status == 1 && !result.signalled, "\(result.stdout)")
            }
            try good.write(to: built.url(built.archive + ".sig"))
        }
    }

    /// `minisign -S -l` signs the whole file ("Ed"), as minisign did before
    /// 0.8: checked as minisign -V checks it, with a note that it is
    /// legacy; refused with --require-prehashed, as minisign -H refuses it.
    @Test func legacyMinisignSignaturesAreCheckedAndNotedOrRefusedOnRequest() throws {
        let built = try Self.build()
        defer { built.project.destroy() }
        try Self.minisignKey(built, "k")
        try Self.minisignKey(built, "other")
        #expect(try built.shell("minisign -S -l -s k.key -m \(built.archive) -t 'legacy by minisign'").status == 0)
        let line = try String(contentsOf: built.url(built.archive + ".minisig"), encoding: .utf8).split(separator: "\n")[1]
        #expect(Data(base64Encoded: String(line))?.prefix(2) == Data("Ed".utf8))
        #expect(try built.shell("minisign -Vm \(built.archive) -p k.pub").status == 0)
        #expect(try built.shell("minisign -H -Vm \(built.archive) -p k.pub").status != 0)

        let checked = try built.run(["verify", built.archive, "--public-key", "k.pub"])
        #expect(checked.status == 0, "\(checked.stdout)")
        #expect(checked.stdout.contains("note: test-bundle-1.0.0.zip.minisig: a legacy minisign signature (minisign -l"), "\(checked.stdout)")
        #expect(checked.stdout.contains("trusted comment: legacy by minisign"))
        let json = try built.run(["verify", built.archive, "--public-key", "k.pub", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let report = (object["signatures"] as! [[String: Any]])[0]
        #expect(report["valid"] as? Bool == true && (report["notes"] as? [String])?.count == 1)

        let strict = try built.run(["verify", built.archive, "--public-key", "k.pub", "--require-prehashed"])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("a legacy signature of the whole file, refused by --require-prehashed"), "\(strict.stdout)")

        // A changed byte of the archive, another key: refused, as minisign refuses them.
        let wrongKey = try built.run(["verify", built.archive, "--public-key", "other.pub"])
        #expect(wrongKey.status == 1 && wrongKey.stdout.contains("signed with another key"), "\(wrongKey.stdout)")
        var archive = try Data(contentsOf: built.url(built.archive))
        archive[archive.count / 2] ^= 0x01
        try archive.write(to: built.url(built.archive))
        #expect(try built.shell("minisign -Vm \(built.archive) -p k.pub").status != 0)
        let changed = try built.run(["verify", built.archive, "--public-key", "k.pub"])
        #expect(changed.status == 1)
        #expect(changed.stdout.contains("the signature does not match the archive"), "\(changed.stdout)")
    }

    /// `--public-key` more than once: any of the keys may have signed, of
    /// either format; with keys of both, the signatures present are checked.
    @Test func severalPublicKeysAcceptAnyOfThem() throws {
        let built = try Self.build()
        defer { built.project.destroy() }
        try Self.minisignKey(built, "k")
        try Self.minisignKey(built, "other")
        try Self.minisignKey(built, "third")
        #expect(try built.shell("ssh-keygen -q -t ed25519 -N '' -C signer@cathedral -f id").status == 0)
        #expect(try built.run(["sign", built.archive, "--key", "k.key"]).status == 0)

        let any = try built.run(["verify", built.archive, "--public-key", "other.pub", "--public-key", "k.pub"])
        #expect(any.status == 0, "\(any.stdout)")
        let keyID = try String(contentsOf: built.url("k.pub"), encoding: .utf8).split(separator: "\n")[0].split(separator: " ").last!
        #expect(any.stdout.contains("signed by minisign key \(keyID)"), "\(any.stdout)")
        let none = try built.run(["verify", built.archive, "--public-key", "other.pub", "--public-key", "third.pub"])
        #expect(none.status == 1)
        #expect(none.stdout.contains("signed with another key: minisign key \(keyID), not "), "\(none.stdout)")

        // A minisign key and an OpenSSH key: the .minisig is there, the .sig not.
        let mixed = try built.run(["verify", built.archive, "--public-key", "id.pub", "--public-key", "k.pub"])
        #expect(mixed.status == 0, "\(mixed.stdout)")
        #expect(!mixed.stdout.contains(".sig:"), "\(mixed.stdout)")
        // Both there, the .sig by a key not given: refused.
        #expect(try built.shell("ssh-keygen -q -t ed25519 -N '' -C someone@else -f stranger && ssh-keygen -q -Y sign -n file -f stranger \(built.archive)").status == 0)
        let oneBad = try built.run(["verify", built.archive, "--public-key", "id.pub", "--public-key", "k.pub"])
        #expect(oneBad.status == 1, "\(oneBad.stdout)")
        #expect(oneBad.stdout.contains("signature good: test-bundle-1.0.0.zip.minisig"), "\(oneBad.stdout)")
        #expect(oneBad.stdout.contains("error: test-bundle-1.0.0.zip.sig: signature: signed with another key"), "\(oneBad.stdout)")
        // Neither there.
        try FileManager.default.removeItem(at: built.url(built.archive + ".sig"))
        try FileManager.default.removeItem(at: built.url(built.archive + ".minisig"))
        let neither = try built.run(["verify", built.archive, "--public-key", "id.pub", "--public-key", "k.pub"])
        #expect(neither.status == 1)
        #expect(neither.stdout.contains("no signature: neither test-bundle-1.0.0.zip.minisig nor test-bundle-1.0.0.zip.sig is there"), "\(neither.stdout)")
        // SSH-only options with no OpenSSH key: bad usage, exit 2.
        let misused = try built.run(["verify", built.archive, "--public-key", "k.pub", "--identity", "x"])
        #expect(misused.status == 2 && misused.stderr.contains("no OpenSSH key was given"), "\(misused.stderr)")
    }
}
