import Foundation

/// A platform version, compared part by part (16.4 < 17 == 17.0).
struct Version: Comparable, CustomStringConvertible {
    let parts: [Int]

    init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".").map { Int($0) }
        guard !parts.isEmpty, !parts.contains(nil) else { return nil }
        self.parts = parts.compactMap { $0 }
    }

    static func < (a: Version, b: Version) -> Bool {
        for i in 0..<max(a.parts.count, b.parts.count) {
            let x = i < a.parts.count ? a.parts[i] : 0, y = i < b.parts.count ? b.parts[i] : 0
            if x != y { return x < y }
        }
        return false
    }

    static func == (a: Version, b: Version) -> Bool { !(a < b) && !(b < a) }

    var description: String { parts.map(String.init).joined(separator: ".") }
}

/// Versions by platform name ("macOS", "iOS").
typealias Versions = [String: Version]

/// The platforms the floors concern, in the order messages name them.
let applePlatforms = ["macOS", "iOS"]

/// Reads `macOS 15`, `iOS 17.0` and `iOS, introduced: 17` out of the
/// arguments of `#available(...)` or `@available(...)`.
func availabilityVersions(_ arguments: Substring) -> Versions {
    var found: Versions = [:]
    for match in arguments.matches(of: #/\b(macOS|iOS)\s*(?:,\s*introduced\s*:\s*)?(\d+(?:\.\d+)*)/#) {
        if let version = Version(match.output.2) { found[String(match.output.1)] = version }
    }
    return found
}

/// Where `#if` branches let code compile: a stack of branches, each knowing
/// the platforms its condition allows. Conditions it cannot read allow every
/// platform, so an unknown `#if` never hides a use from the check.
struct ConditionalCompilation {
    static let every: Set<String> = ["macOS", "iOS", "Linux"]
    static let terms: [String: Set<String>] = [
        "os(Linux)": ["Linux"], "canImport(Glibc)": ["Linux"],
        "os(macOS)": ["macOS"], "canImport(AppKit)": ["macOS"],
        "os(iOS)": ["iOS"], "canImport(UIKit)": ["iOS"],
        "canImport(Darwin)": ["macOS", "iOS"], "canImport(ObjectiveC)": ["macOS", "iOS"], "canImport(SwiftUI)": ["macOS", "iOS"],
    ]

    private struct Branch {
        let outside: Set<String>
        /// The platforms earlier branches took, or nil once one was unreadable.
        var taken: Set<String>?
        var inside: Set<String>
    }
    private var branches: [Branch] = []

    var platforms: Set<String> { branches.last?.inside ?? Self.every }

    /// Takes a `#if`, `#elseif`, `#else` or `#endif` line; false for any other line.
    mutating func read(_ line: String) -> Bool {
        let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1).map(String.init)
        guard let directive = words.first else { return false }
        let condition = words.count > 1 ? Self.platforms(of: words[1]) : nil
        switch directive {
        case "#if":
            branches.append(Branch(outside: platforms, taken: condition, inside: platforms.intersection(condition ?? Self.every)))
        case "#elseif":
            guard var branch = branches.popLast() else { return true }
            branch.inside = branch.outside.intersection(condition ?? Self.every).subtracting(branch.taken ?? [])
            branch.taken = condition.flatMap { c in branch.taken.map { $0.union(c) } }
            branches.append(branch)
        case "#else":
            guard var branch = branches.popLast() else { return true }
            branch.inside = branch.taken.map { branch.outside.subtracting($0) } ?? branch.outside
            branches.append(branch)
        case "#endif":
            _ = branches.popLast()
        default:
            return false
        }
        return true
    }

    /// `a && !b || c` over the terms above; nil when any term is unknown.
    static func platforms(of condition: String) -> Set<String>? {
        var union = Set<String>()
        for alternative in condition.components(separatedBy: "||") {
            var allowed = every
            for term in alternative.components(separatedBy: "&&") {
                var text = term.filter { !$0.isWhitespace }
                while text.hasPrefix("("), text.hasSuffix(")"), terms[text] == nil { text = String(text.dropFirst().dropLast()) }
                let negated = text.hasPrefix("!")
                guard let platforms = terms[negated ? String(text.dropFirst()) : text] else { return nil }
                allowed.formIntersection(negated ? every.subtracting(platforms) : platforms)
            }
            union.formUnion(allowed)
        }
        return union
    }
}

/// The versions guaranteed at a point of a file by the braces around it:
/// the block of an `if #available`, the body of an `@available`
/// declaration, and the rest of a block after `guard #available ... else { }`.
struct AvailabilityScopes {
    private struct Scope {
        var guaranteed: Versions
        /// A `guard` else-block: what the enclosing block guarantees once it ends.
        var afterwards: Versions?
    }
    private var scopes = [Scope(guaranteed: [:])]
    private enum Pending { case block(Versions), guardElse(Versions) }
    private var pending: Pending?

    var guaranteed: Versions {
        scopes.reduce(into: [:]) { all, scope in all.merge(scope.guaranteed) { max($0, $1) } }
    }

    mutating func available(_ versions: Versions, isGuard: Bool) {
        guard !versions.isEmpty else { return }
        pending = isGuard ? .guardElse(versions) : .block(versions)
    }

    mutating func open() {
        switch pending {
        case .block(let versions): scopes.append(Scope(guaranteed: versions))
        case .guardElse(let versions): scopes.append(Scope(guaranteed: [:], afterwards: versions))
        case nil: scopes.append(Scope(guaranteed: [:]))
        }
        pending = nil
    }

    mutating func close() {
        guard scopes.count > 1, let scope = scopes.popLast() else { return }
        if let versions = scope.afterwards { scopes[scopes.count - 1].guaranteed.merge(versions) { max($0, $1) } }
    }

    /// An `@available` stored property has no body: its versions must not fall to the next brace.
    mutating func endStatement() { pending = nil }
}
