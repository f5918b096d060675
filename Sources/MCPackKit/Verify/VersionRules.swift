import MCPackInputs
import MCPackBag
import Foundation
import MCPackSchema

/// What a receiver asked for (`verify --expect-version`, `--expect-name`):
/// an archive that states anything else is not what they asked for.
package struct VersionExpectation: Sendable {
    package var name: String?
    package var version: String?

    package init(name: String? = nil, version: String? = nil) {
        (self.name, self.version) = (name, version)
    }

    var isEmpty: Bool { name == nil && version == nil }
}

/// Rule `version`, for bags mcpack made: every place that states the
/// bundle's name and version says the same. A signature covers bytes, not
/// what the file is called, so an archive of 1.0.0 renamed to 1.1.0, with
/// its signature and a remade .sha256 beside it, passes every other check;
/// only the name and version stated inside it (and in a minisign trusted
/// comment, signed with them) tell it is not 1.1.0.
enum VersionRules {
    /// One place that names the bundle, and what it says there.
    struct Statement {
        var place: String
        var name: String?
        var version: String?
        /// Inside the bag (bag-info.txt, bundle.json, the top folder): what
        /// the bytes are, as against what they are called or said to be.
        var inside: Bool
    }

    /// A bag mcpack made says which bundle it is: a bag of anyone else's
    /// states no name or version in the places compared here.
    static func isMCPackBag(_ contents: BagContents) -> Bool {
        contents.files[BundleJSON.path] != nil || bagInfo(contents).contains { $0.0 == "Bundle-Name" || $0.0 == "Bundle-Version" }
    }

    /// `path`: the archive or bag folder as given. `signatures`: the
    /// signatures checked beside it; a good minisign one's trusted comment
    /// is a place too. An SSH signature states nothing of its own: it
    /// covers the archive's bytes, so the bag-info.txt and bundle.json it
    /// covers are its statement, compared already.
    static func check(_ contents: BagContents, path: String, isDirectory: Bool, signatures: [SignatureReport],
                      expected: VersionExpectation?) -> (problems: [Problem], notes: [String]) {
        let given = (path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path) as NSString
        let shown = given.lastPathComponent + (isDirectory ? "/" : "")
        guard isMCPackBag(contents) else {
            guard let expected, !expected.isEmpty else { return ([], []) }
            return ([Problem(shown, "version", "states no bundle name or version (bag-info.txt has no Bundle-Name or Bundle-Version, and there is no data/bundle.json: not a bundle mcpack made), so it cannot be shown to be the \(describe(expected)) asked for")], [])
        }
        var statements: [Statement] = []
        var notes: [String] = []

        let info = bagInfo(contents)
        let infoName = info.first { $0.0 == "Bundle-Name" }?.1
        let infoVersion = info.first { $0.0 == "Bundle-Version" }?.1
        if infoName != nil || infoVersion != nil {
            statements.append(Statement(place: "bag-info.txt", name: infoName, version: infoVersion, inside: true))
        }
        if let data = contents.files[BundleJSON.path]?.data,
           let bundle = (try? JSONDecoder().decode(BundleJSON.Head.self, from: data))?.bundle {
            statements.append(Statement(place: BundleJSON.path, name: bundle.name, version: bundle.version, inside: true))
        }
        // An unpacked bag's own folder is its top folder.
        let top = isDirectory ? given.lastPathComponent : contents.top
        if let top {
            let (name, version) = split(top)
            if version != nil {
                statements.append(Statement(place: "the top folder \(top)/", name: name, version: version, inside: true))
            } else {
                notes.append("\(shown): the \(isDirectory ? "folder's" : "top folder's") name, \(top), states no NAME-VERSION, so it was not compared\(inside(statements))")
            }
        }
        if !isDirectory {
            var stem = ArchiveFormat.named(given.lastPathComponent)?.stem ?? given.lastPathComponent
            // A browser saving a second copy adds " (1)": the name still states it.
            if let copy = stem.firstMatch(of: #/ \([0-9]+\)$/#) { stem.removeSubrange(copy.range) }
            let (name, version) = split(stem)
            if version != nil {
                // First: what the receiver was told, then what the bytes say.
                statements.insert(Statement(place: "the file name", name: name, version: version, inside: false), at: 0)
            } else {
                notes.append("\(shown): the file name states neither the bundle's name nor its version (NAME-VERSION.zip), so it was not compared\(inside(statements))")
            }
        }
        for signature in signatures where signature.checked && signature.valid && signature.format == "minisign" {
            let fields = commentFields(signature.trustedComment ?? "")
            if fields["bundle"] != nil || fields["version"] != nil {
                statements.append(Statement(place: "the signed trusted comment", name: fields["bundle"], version: fields["version"], inside: false))
            }
        }

        var problems: [Problem] = []
        for (what, value) in [("name", \Statement.name), ("version", \Statement.version)] {
            let stating = statements.filter { $0[keyPath: value] != nil }
            if Set(stating.map { $0[keyPath: value]! }).count > 1 {
                problems.append(Problem(shown, "version", "the bundle's \(what) is not the same everywhere it is stated: \(list(stating, value))\(contentsAre(statements))"))
            }
        }
        if let expected {
            for (what, option, wanted, value) in [("name", "--expect-name", expected.name, \Statement.name),
                                                  ("version", "--expect-version", expected.version, \Statement.version)] {
                guard let wanted else { continue }
                let stating = statements.filter { $0[keyPath: value] != nil }
                if stating.isEmpty {
                    problems.append(Problem(shown, "version", "\(what) \(wanted) was asked for (\(option)), and nothing in it states a \(what)"))
                } else if stating.contains(where: { $0[keyPath: value] != wanted }) {
                    problems.append(Problem(shown, "version", "\(what) \(wanted) was asked for (\(option)): \(list(stating, value))\(contentsAre(statements))"))
                }
            }
        }
        return (problems, notes)
    }

    /// `NAME-VERSION` split at the first hyphen after which a semantic
    /// version follows (a name may hold hyphens and digits, a version
    /// hyphens after its third number: `magna-carta-2-1.0.0-rc.1`). The
    /// name is nil when it is not one bundle.toml would take.
    static func split(_ stem: String) -> (name: String?, version: String?) {
        var index = stem.startIndex
        while let hyphen = stem[index...].firstIndex(of: "-") {
            let version = String(stem[stem.index(after: hyphen)...])
            if SemanticVersion(version) != nil {
                let name = String(stem[..<hyphen])
                return (BundleConfig.isName(name) ? name : nil, version)
            }
            index = stem.index(after: hyphen)
        }
        return (nil, nil)
    }

    /// `bundle:NAME version:VERSION sha256:HEX file:ARCHIVE`, as mcpack
    /// signs it; a comment of another shape gives no fields.
    static func commentFields(_ comment: String) -> [String: String] {
        Dictionary(comment.split(separator: " ").compactMap { field -> (String, String)? in
            let parts = field.split(separator: ":", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }, uniquingKeysWith: { first, _ in first })
    }

    private static func bagInfo(_ contents: BagContents) -> [(String, String)] {
        guard let data = contents.files["bag-info.txt"]?.data else { return [] }
        let declaration = BagInfo.labels(String(decoding: contents.files["bagit.txt"]?.data ?? Data(), as: UTF8.self))
        let decoded = TagText(encoding: declaration.first { $0.0 == "Tag-File-Character-Encoding" }?.1)
        return BagInfo.labels(String(decoding: decoded.utf8(data) ?? data, as: UTF8.self))
    }

    private static func describe(_ expected: VersionExpectation) -> String {
        [expected.name.map { "bundle \($0)" }, expected.version.map { "version \($0)" }].compactMap { $0 }.joined(separator: " ")
    }

    /// Each place and what it says: `the file name says 1.1.0; bag-info.txt says 1.0.0`.
    private static func list(_ statements: [Statement], _ value: KeyPath<Statement, String?>) -> String {
        statements.map { "\($0.place) says \($0[keyPath: value]!)" }.joined(separator: "; ")
    }

    /// What the bag's own records agree it is, when they do: what a
    /// receiver actually holds.
    private static func contentsAre(_ statements: [Statement]) -> String {
        let inside = statements.filter { $0.inside && $0.name != nil && $0.version != nil }
        guard let first = inside.first, let name = first.name, let version = first.version,
              inside.allSatisfy({ $0.name == name && $0.version == version }) else { return "" }
        return " (inside, it is \(name) \(version))"
    }

    private static func inside(_ statements: [Statement]) -> String {
        let said = contentsAre(statements)
        return said.isEmpty ? "" : "; " + said.dropFirst(2).dropLast()
    }
}
