import MCPackSchema
import Testing

/// The one safe-path rule, as the packager's bag reader and the app's
/// MCPackReader both apply it (MCPackReaderTests feeds the same cases to
/// the app's verify).
@Suite struct BagPathTests {
    /// Paths no bag may name, each with why.
    static let unsafe: [(String, BagPath.Unsafe)] = [
        ("/etc/passwd", .absolute),
        ("\\windows\\evil", .absolute),
        ("C:/evil", .absolute),
        ("c:evil", .absolute),
        ("~root/.ssh/authorized_keys", .home),
        ("~/x", .home),
        ("data/../../outside", .dotDot),
        ("../outside", .dotDot),
        ("data/..\\..\\evil", .dotDot),
        ("data/a\u{07}b", .controlCharacters),
        ("data/line\nbreak", .controlCharacters),
        ("data/tab\there", .controlCharacters),
        ("data/del\u{7F}", .controlCharacters),
    ]

    @Test(arguments: unsafe.map { $0.0 })
    func anUnsafePathIsRefusedEitherWay(_ path: String) {
        let why = Self.unsafe.first { $0.0 == path }!.1
        #expect(!BagPath.isPlain(path))
        #expect(BagPath.components(path) == .failure(why))
        #expect(BagPath.components(path, resolvingDotDot: true) == .failure(why))
    }

    @Test func aDotDotThatStaysInsideIsResolvedOnlyWhenAsked() {
        #expect(BagPath.components("data/a/../b.txt") == .failure(.dotDot))
        #expect(BagPath.components("data/a/../b.txt", resolvingDotDot: true) == .success(["data", "b.txt"]))
        #expect(BagPath.components("data/../../b.txt", resolvingDotDot: true) == .failure(.dotDot))
    }

    @Test func plainPathsNeedNoSplitting() {
        for path in ["data/clauses.json", "bagit.txt", "data/document/master_files/10/1_1.jpeg", "data/café.txt"] {
            #expect(BagPath.isPlain(path), "\(path)")
            #expect(BagPath.components(path) == .success(path.split(separator: "/").map(String.init)))
        }
        for path in ["data//x", "data/./x", "./data/x", "data/.hidden", "data/x/", ""] {
            #expect(!BagPath.isPlain(path), "\(path)")
        }
        #expect(BagPath.components("./data//x/.") == .success(["data", "x"]))
        #expect(BagPath.Unsafe.controlCharacters.rule == "unsafe-name" && BagPath.Unsafe.home.rule == "unsafe-path")
    }
}
