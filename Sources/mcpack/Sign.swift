import ArgumentParser
import Foundation
import MCPackKit

struct Sign: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Write a detached signature beside an archive, with a minisign or an OpenSSH key.",
        discussion: """
            With a minisign secret key (minisign -G, with a password or -W without), \
            writes ARCHIVE.minisig, which `minisign -Vm ARCHIVE -p KEY.pub` checks: a \
            prehashed Ed25519 signature whose trusted comment names the bundle, its \
            version and the archive's SHA-256. With an OpenSSH private key \
            (ssh-keygen -t ed25519, rsa or ecdsa), writes ARCHIVE.sig in the SSHSIG \
            format, namespace "file", hash sha512, RSA as rsa-sha2-512, which \
            `ssh-keygen -Y verify` checks. A key with a passphrase (which mcpack \
            cannot open: OpenSSL lacks OpenSSH's bcrypt_pbkdf) and a FIDO key \
            (ed25519-sk, ecdsa-sk, whose private half is on the token) sign through \
            ssh-agent when the agent at SSH_AUTH_SOCK holds them (ssh-add KEY); \
            otherwise they are refused, and `ssh-keygen -Y sign -n file -f KEY \
            ARCHIVE` writes the same kind of file. With KEY-cert.pub (an OpenSSH \
            certificate), the private key beside it signs and the signature names \
            the certificate, as `ssh-keygen -Y sign -f KEY-cert.pub` does, for \
            receivers whose allowed_signers trust the certificate authority.

            The password of an encrypted minisign key is read from the environment \
            variable \(PasswordSource.variable) when set (for CI), else asked on the \
            terminal without echo. Never from bundle.toml.

            Signing with minisign, Ed25519 and RSA keys is deterministic: the same \
            archive and key give the same bytes (ssh-keygen's, for an OpenSSH key). \
            ECDSA signatures differ each time, and each checks.
            """)

    @Argument(help: ArgumentHelp("The archive to sign.", valueName: "archive"))
    var archive: String

    @Option(name: .long, help: ArgumentHelp("A minisign secret key, an OpenSSH private key (Ed25519, RSA, ECDSA; FIDO through ssh-agent), or an OpenSSH certificate beside its private key.", valueName: "file"))
    var key: String

    @Flag(name: .long, help: "Print one JSON object on standard output instead of text.")
    var json = false

    func run() async throws {
        let console = Console(json: json)
        let result: SignResult
        do {
            result = try ArchiveSigner.sign(archive: archive, keyFile: key, password: { try PasswordSource.password(for: key) })
        } catch {
            throw console.fail(error)
        }
        if json {
            console.emit(result)
        } else {
            printSigned(result, console: console)
        }
    }
}

func printSigned(_ result: SignResult, console: Console) {
    console.out("signed \((result.archive as NSString).lastPathComponent) with \(result.signer)")
    if let comment = result.trustedComment { console.out("trusted comment: \(comment)") }
    console.out(result.signature)
}
