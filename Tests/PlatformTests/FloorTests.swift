import Foundation
import Testing

/// Linux's Swift has no availability: an API newer than the package's
/// floors compiles here and fails in Xcode. Each use of an API listed in
/// Floors/newer-apis.txt must sit where Apple's compiler would accept it.
@Suite struct FloorTests {
    /// The folders scanned, relative to the checkout; a missing one is skipped.
    static let scanned = ["Sources", "Examples"]

    struct NewerAPI {
        /// ICU's engine: Swift's Regex took seconds over the whole package.
        let pattern: NSRegularExpression
        let text: String
        /// Where the API exists; a platform without it is absent.
        let introduced: Versions
        let source: String
    }

    struct Use {
        let path: String
        let line: Int
        let match: String
        let api: NewerAPI
        let guaranteed: Versions
        let platforms: Set<String>
    }

    /// The floors from Package.swift's `platforms:`, so that the check follows them.
    static func floors() throws -> Versions {
        let text = try String(contentsOf: Repository.url("Package.swift"), encoding: .utf8)
        // Found in code only (a comment may name platforms too), then read
        // from the text itself, where `.macOS("14.0")` keeps its string.
        let code = SwiftSource(path: "Package.swift", text: text).lines
        let raw = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = code.firstIndex(where: { $0.contains(#/platforms\s*:/#) }) else { return [:] }
        let last = code[first...].firstIndex(where: { $0.contains("]") }) ?? first
        guard let list = raw[first...last].joined(separator: "\n").firstMatch(of: #/platforms\s*:\s*\[([^\]]*)\]/#)?.output.1 else { return [:] }
        var floors: Versions = [:]
        for match in list.matches(of: #/\.(macOS|iOS)\s*\(\s*(?:\.v(\d+(?:_\d+)*)|"(\d+(?:\.\d+)*)")\s*\)/#) {
            let number = match.output.2.map { $0.replacingOccurrences(of: "_", with: ".") } ?? match.output.3.map(String.init)
            if let number, let version = Version(number) { floors[String(match.output.1)] = version }
        }
        return floors
    }

    static func newerAPIs() throws -> [NewerAPI] {
        try Repository.dataLines("Tests/PlatformTests/Floors/newer-apis.txt").map { line in
            let fields = line.components(separatedBy: " | ").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 4 else { throw ListError(line: line) }
            var introduced: Versions = [:]
            for (platform, field) in zip(applePlatforms, fields[1...2]) where field != "-" {
                guard let version = Version(field) else { throw ListError(line: line) }
                introduced[platform] = version
            }
            return NewerAPI(pattern: try NSRegularExpression(pattern: fields[0]), text: fields[0], introduced: introduced, source: fields[3])
        }
    }

    struct ListError: Error, CustomStringConvertible {
        let line: String
        var description: String { "newer-apis.txt: not `regex | macOS | iOS | source`: \(line)" }
    }

    @Test func everyUseOfANewerAPIIsGuarded() throws {
        let floors = try Self.floors(), apis = try Self.newerAPIs()
        var failures: [String] = []
        for folder in Self.scanned where FileManager.default.fileExists(atPath: Repository.url(folder).path) {
            for file in try SwiftSource.files(under: Repository.url(folder)) {
                for use in Self.uses(of: apis, in: file) {
                    if let missing = Self.unmet(use, floors: floors) {
                        failures.append("\(folder)/\(use.path):\(use.line): `\(use.match)` needs \(missing); "
                            + "put it under if #available, guard #available or an @available declaration (\(use.api.source))")
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\n\(failures.joined(separator: "\n"))")
    }

    @Test func floorsAreReadFromThePackage() throws {
        let floors = try Self.floors()
        #expect(applePlatforms.allSatisfy { floors[$0] != nil }, "Package.swift's platforms: gave \(floors)")
    }

    /// A listed API the floors have caught up with guards nothing: drop it.
    @Test func everyListedAPIIsNewerThanAFloor() throws {
        let floors = try Self.floors()
        for api in try Self.newerAPIs() {
            let above = api.introduced.contains { platform, version in floors[platform].map { version > $0 } ?? false }
            #expect(above, "\(api.text) is no newer than the floors \(floors): remove it from newer-apis.txt")
        }
    }

    /// What a use still lacks on the platforms its code compiles for, or nil.
    static func unmet(_ use: Use, floors: Versions) -> String? {
        let missing = applePlatforms.compactMap { platform -> String? in
            guard use.platforms.contains(platform), let needed = use.api.introduced[platform],
                  let floor = floors[platform], needed > floor else { return nil }
            return (use.guaranteed[platform] ?? floor) < needed ? "\(platform) \(needed) (floor \(floor))" : nil
        }
        return missing.isEmpty ? nil : missing.joined(separator: ", ")
    }

    /// Every match of the listed APIs, with what guards it. The file is read
    /// left to right so that `if #available(iOS 17, *) { use() }` on one
    /// line counts, and braces are counted only in code.
    static func uses(of apis: [NewerAPI], in file: SwiftSource) -> [Use] {
        // One pass for all the patterns first: most lines match none.
        let any = try! NSRegularExpression(pattern: apis.map { "(?:\($0.pattern.pattern))" }.joined(separator: "|"))
        var conditions = ConditionalCompilation(), scopes = AvailabilityScopes(), found: [Use] = []
        for (index, line) in file.lines.enumerated() {
            if conditions.read(line) { continue }
            let whole = NSRange(line.startIndex..., in: line)
            let matches = any.firstMatch(in: line, range: whole) == nil ? [] : apis.flatMap { api in
                api.pattern.matches(in: line, range: whole).compactMap { match in Range(match.range, in: line).map { (api, $0) } }
            }
            let markers = !line.contains("available") ? [] : line.matches(of: #/([#@])available\s*\(([^)]*)\)?/#).map { marker in
                (start: marker.range.lowerBound, versions: availabilityVersions(marker.output.2),
                 isGuard: marker.output.1 == "#" && line[..<marker.range.lowerBound].contains(#/\bguard\b/#))
            }
            var position = line.startIndex
            while position <= line.endIndex {
                for (api, range) in matches where range.lowerBound == position {
                    found.append(Use(path: file.path, line: index + 1, match: String(line[range]), api: api,
                                     guaranteed: scopes.guaranteed, platforms: conditions.platforms))
                }
                for marker in markers where marker.start == position { scopes.available(marker.versions, isGuard: marker.isGuard) }
                guard position < line.endIndex else { break }
                if line[position] == "{" { scopes.open() } else if line[position] == "}" { scopes.close() }
                position = line.index(after: position)
            }
            if !line.contains("{"), line.contains("let ") || line.contains("var "), line.contains(#/^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:\w+\s+)*(?:let|var)\s/#) { scopes.endStatement() }
        }
        return found
    }

    /// The scanner on the shapes it must tell apart.
    @Test func guardsAreReadFromTheirBlocks() throws {
        let api = NewerAPI(pattern: try NSRegularExpression(pattern: #"\bnewAPI\("#), text: "newAPI(", introduced: ["macOS": Version("15")!, "iOS": Version("18")!], source: "test")
        let text = #"""
        func a() { newAPI() }
        // newAPI() in a comment, and "newAPI()" in a string
        func b() {
            if #available(macOS 15, iOS 18, *) { newAPI() } else { newAPI() }
            guard #available(macOS 15.0, iOS 18.0, *) else { return }
            newAPI()
        }
        @available(macOS 15, iOS 18, *)
        func c() {
            newAPI()
        }
        func d() { if #available(iOS 18, *) { newAPI() } }
        #if os(Linux)
        func e() { newAPI() }
        #elseif canImport(UIKit)
        func f() { if #available(iOS 18, *) { newAPI() } }
        #else
        func g() { newAPI() }
        #endif
        """#
        let floors: Versions = ["macOS": Version("14")!, "iOS": Version("16")!]
        let unmet = Self.uses(of: [api], in: SwiftSource(path: "sample.swift", text: text)).compactMap { use in
            Self.unmet(use, floors: floors).map { "\(use.line): \($0)" }
        }
        #expect(unmet == ["1: macOS 15 (floor 14), iOS 18 (floor 16)", "4: macOS 15 (floor 14), iOS 18 (floor 16)",
                          "12: macOS 15 (floor 14)", "18: macOS 15 (floor 14)"])
    }
}
