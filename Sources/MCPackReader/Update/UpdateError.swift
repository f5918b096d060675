import Foundation

/// Why an update did not happen. `refused`: the channel or what it sent
/// cannot be trusted (a signature, an expired or older index, an older
/// version, a file whose bytes are not the ones signed): trying again will
/// not help until the channel changes. `couldNotUpdate`: the network, the
/// disk or the request itself; the next try may succeed. Either way the
/// installed bundle is untouched.
public struct UpdateError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable {
        case refused
        case couldNotUpdate
    }

    public var kind: Kind
    /// Every problem found, each a sentence naming the file or field.
    public var problems: [String]

    public init(_ kind: Kind, _ problems: [String]) {
        self.kind = kind
        self.problems = problems
    }

    static func refused(_ problem: String) -> UpdateError { UpdateError(.refused, [problem]) }
    static func couldNot(_ problem: String) -> UpdateError { UpdateError(.couldNotUpdate, [problem]) }

    public var description: String { problems.joined(separator: "\n") }
}

extension UpdateError: LocalizedError {
    public var errorDescription: String? { description }
}
