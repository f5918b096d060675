import FileIO
import Foundation

/// The options of an allowed_signers line (ssh-keygen(1), "ALLOWED
/// SIGNERS"), read as sshsig.c's sshsigopt_parse reads them.
struct SignerOptions: Equatable, Sendable {
    var certificateAuthority = false
    /// A pattern list the signature's namespace must match.
    var namespaces: String?
    /// Seconds since 1970: the key is good from `validAfter` to `validBefore`, both included.
    var validAfter: UInt64?
    var validBefore: UInt64?

    /// Options as OpenSSH reads them: keywords in any case, values in
    /// double quotes, separated by commas; nil and why, when ssh-keygen
    /// would skip the line.
    static func parse(_ text: String) -> Result<SignerOptions, OptionError> {
        var options = SignerOptions()
        var rest = Substring(text)
        while let first = rest.first, first != " ", first != "\t" {
            let option = rest.prefix { $0 != "," }
            if rest.lowercased().hasPrefix("cert-authority") {
                options.certificateAuthority = true
                rest = rest.dropFirst("cert-authority".count)
            } else if let (name, value) = assignment(&rest, ["namespaces", "valid-after", "valid-before"]) {
                guard let value = value else { return .failure(OptionError("\(name)=: the value must be in double quotes")) }
                switch name {
                case "namespaces":
                    guard options.namespaces == nil else { return .failure(OptionError("namespaces given twice")) }
                    options.namespaces = value
                default:
                    guard let time = SSHTime.parse(value) else {
                        return .failure(OptionError("\(name)=\"\(value)\" is not a time (YYYYMMDD[Z] or YYYYMMDDHHMM[SS][Z])"))
                    }
                    if name == "valid-after" {
                        guard options.validAfter == nil else { return .failure(OptionError("valid-after given twice")) }
                        options.validAfter = time
                    } else {
                        guard options.validBefore == nil else { return .failure(OptionError("valid-before given twice")) }
                        options.validBefore = time
                    }
                }
            }
            if rest.isEmpty || rest.first == " " || rest.first == "\t" { break }
            guard rest.first == "," else { return .failure(OptionError("unknown option \(option)")) }
            rest = rest.dropFirst()
            if rest.isEmpty { return .failure(OptionError("the options end with a comma")) }
        }
        if let after = options.validAfter, let before = options.validBefore, before <= after {
            return .failure(OptionError("valid-before is not after valid-after"))
        }
        return .success(options)
    }

    /// `name="value"` for one of `names` (in any case) at the start of
    /// `rest`, which is moved past it; the value nil when its quotes are
    /// missing, as opt_dequote refuses it.
    private static func assignment(_ rest: inout Substring, _ names: [String]) -> (String, String?)? {
        guard let name = names.first(where: { rest.lowercased().hasPrefix($0 + "=") }) else { return nil }
        rest = rest.dropFirst(name.count + 1)
        guard rest.first == "\"" else { return (name, nil) }
        var value = ""
        var at = rest.index(after: rest.startIndex)
        while at < rest.endIndex, rest[at] != "\"" {
            if rest[at] == "\\", rest.index(after: at) < rest.endIndex, rest[rest.index(after: at)] == "\"" { at = rest.index(after: at) }
            value.append(rest[at])
            at = rest.index(after: at)
        }
        guard at < rest.endIndex else { return (name, nil) }
        rest = rest[rest.index(after: at)...]
        return (name, value)
    }

    struct OptionError: Error, Sendable {
        let message: String
        init(_ message: String) { self.message = message }
    }
}

/// One key line of an allowed_signers file, or of a .pub file (a key with
/// no principals: the identity is taken as given).
struct AllowedSigner: Sendable {
    var file: String
    var line: Int
    /// The principals pattern list; nil on a .pub line.
    var principals: String?
    var options: SignerOptions
    var key: SSHKey
    /// A .pub line's comment, its owner as ssh-keygen wrote it.
    var comment: String?

    var place: String { "\(file) line \(line)" }
}

/// The keys of every --public-key given as an OpenSSH key, an
/// allowed_signers file or line; and the lines skipped, each named.
struct AllowedSigners: Sendable {
    var signers: [AllowedSigner] = []
    /// `FILE line N skipped: why`, for lines ssh-keygen would skip too.
    var skipped: [String] = []

    static func isKeyText(_ text: String) -> Bool {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0.isNewline })
            .contains { SSHKeyType.named(String($0)) != nil || SSHKeyType.unsupported.contains(String($0)) }
    }

    /// Reads every line. A line with an option ssh-keygen does not know
    /// (or a key of a type mcpack does not check) is skipped and named,
    /// as ssh-keygen skips it; a line whose key is damaged is an error
    /// naming the file and line.
    mutating func read(_ text: String, file: String) throws {
        let before = signers.count
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let line = raw.drop { " \t\r".contains($0) }
            if line.isEmpty || line.first == "#" { continue }
            let place = "\(file) line \(index + 1)"
            switch try Self.parse(line, place: place) {
            case .signer(let principals, let options, let key, let comment):
                signers.append(AllowedSigner(file: file, line: index + 1, principals: principals, options: options, key: key, comment: comment))
            case .skipped(let why):
                skipped.append("\(place) skipped: \(why)")
            }
        }
        guard signers.count > before || skipped.count > 0 else {
            throw FileError(path: file, message: "not an OpenSSH public key or allowed_signers line")
        }
        // A .pub file's keys stand for whoever --identity names; in an
        // allowed_signers file, ssh-keygen skips a key without principals,
        // and so must mcpack, or it would admit that key for anyone.
        let read = signers[before...]
        if read.contains(where: { $0.principals != nil }) {
            for signer in read where signer.principals == nil {
                skipped.append("\(signer.place) skipped: a key without principals, in an allowed_signers file")
            }
            signers.removeSubrange(before...)
            signers += read.filter { $0.principals != nil }
        }
    }

    private enum Line {
        case signer(principals: String?, options: SignerOptions, key: SSHKey, comment: String?)
        case skipped(String)
    }

    /// `[principals [options]] type base64 [comment]`, split as OpenSSH
    /// splits it: the principals may be quoted, the options hold no
    /// space outside quotes.
    private static func parse(_ line: Substring, place: String) throws -> Line {
        var rest = line
        var principals: String?
        if !startsWithKeyType(rest) {
            guard let token = principalsToken(&rest) else { throw FileError(path: place, message: "not an allowed_signers line (principals, options, then a key)") }
            principals = token
        }
        var options = Result<SignerOptions, SignerOptions.OptionError>.success(SignerOptions())
        if principals != nil, !startsWithKeyType(rest) {
            options = SignerOptions.parse(String(optionsToken(&rest)))
            rest = rest.drop { $0 == " " || $0 == "\t" }
        }
        let fields = rest.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        if case .failure(let error) = options { return .skipped(error.message) }
        guard fields.count >= 2, startsWithKeyType(rest) else {
            throw FileError(path: place, message: fields.isEmpty ? "no key after the principals" : "\(fields[0]) is not an OpenSSH key type")
        }
        let key: SSHKey
        do {
            key = try SSHKey.read(type: fields[0], base64: fields[1])
        } catch {
            if error.unsupported { return .skipped(error.message) }
            throw FileError(path: place, message: error.message)
        }
        let comment = fields.count > 2 ? fields[2...].joined(separator: " ") : nil
        return .signer(principals: principals, options: (try? options.get()) ?? SignerOptions(), key: key, comment: comment)
    }

    private static func startsWithKeyType(_ text: Substring) -> Bool {
        let first = String(text.prefix { $0 != " " && $0 != "\t" })
        return SSHKeyType.named(first) != nil || SSHKeyType.unsupported.contains(first)
    }

    /// strdelimw: up to whitespace, or a quoted stretch with its quotes
    /// removed; the whitespace after it skipped. Nil when nothing follows.
    private static func principalsToken(_ rest: inout Substring) -> String? {
        guard let stop = rest.firstIndex(where: { $0 == " " || $0 == "\t" || $0 == "\"" }) else { return nil }
        var token = String(rest[..<stop])
        if rest[stop] == "\"" {
            let inside = rest[rest.index(after: stop)...]
            guard let close = inside.firstIndex(of: "\"") else { return nil }
            token += inside[..<close]
            rest = inside[inside.index(after: close)...]
        } else {
            rest = rest[stop...]
        }
        rest = rest.drop { $0 == " " || $0 == "\t" }
        return rest.isEmpty ? nil : token
    }

    /// sshkey_advance_past_options: to the first space or tab outside quotes.
    private static func optionsToken(_ rest: inout Substring) -> Substring {
        var quoted = false
        var at = rest.startIndex
        while at < rest.endIndex, quoted || (rest[at] != " " && rest[at] != "\t") {
            if rest[at] == "\\", rest.index(after: at) < rest.endIndex, rest[rest.index(after: at)] == "\"" {
                at = rest.index(after: at)
            } else if rest[at] == "\"" {
                quoted.toggle()
            }
            at = rest.index(after: at)
        }
        defer { rest = rest[at...] }
        return rest[..<at]
    }
}

/// OpenSSH's patterns (match.c): `*` and `?` only, case as written; a
/// list is comma-separated, and a `!pattern` that matches refuses outright.
enum SSHPattern {
    /// `*` and `?` over bytes, as match_pattern; the usual greedy walk
    /// that goes back to the last star, so no pattern takes exponential time.
    static func matches(_ text: String, _ pattern: String) -> Bool {
        let text = Array(text.utf8), pattern = Array(pattern.utf8)
        let star = UInt8(ascii: "*"), any = UInt8(ascii: "?")
        var (t, p) = (0, 0)
        var lastStar: (pattern: Int, text: Int)?
        while t < text.count {
            if p < pattern.count, pattern[p] == any || (pattern[p] != star && pattern[p] == text[t]) {
                (t, p) = (t + 1, p + 1)
            } else if p < pattern.count, pattern[p] == star {
                lastStar = (p, t)
                p += 1
            } else if let back = lastStar {
                lastStar = (back.pattern, back.text + 1)
                (t, p) = (back.text + 1, back.pattern + 1)
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == star { p += 1 }
        return p == pattern.count
    }

    /// match_pattern_list: true when some pattern matches and no negated one does.
    static func matchesList(_ text: String, _ list: String) -> Bool {
        var positive = false
        for pattern in list.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            let negated = pattern.hasPrefix("!")
            guard matches(text, negated ? String(pattern.dropFirst()) : pattern) else { continue }
            if negated { return false }
            positive = true
        }
        return positive
    }
}
