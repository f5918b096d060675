import Foundation
import Testing

/// On Apple platforms `import Foundation` also brings the Objective-C
/// runtime, MacTypes and more, and an app's UIKit and SwiftUI bring
/// hundreds of short names; a type of the same name in one of our modules is
/// then "ambiguous for type lookup" in every file that imports both. Linux
/// never shows it, so the names are checked here against lists read from
/// Apple's SDK (AppleNames/, each file saying where its names come from).
@Suite struct AppleNamesTests {
    /// The targets an app imports next to UIKit and SwiftUI.
    static let appImported: Set<String> = ["MCPackSchema", "MCPackReader"]

    /// What `import Foundation` brings on Apple platforms, so every target's importers see it.
    static let everyTarget = [
        NameList("objc-runtime.txt", framework: "the Objective-C runtime"),
        NameList("mactypes.txt", framework: "MacTypes"),
        NameList("foundation-darwin.txt", framework: "Darwin's Foundation"),
        NameList("corefoundation.txt", framework: "CoreFoundation"),
        NameList("observation.txt", framework: "Observation"),
        // On the iOS SDK only CoreFoundation's CG geometry types came through
        // Foundation; kept for every target as macOS was not checked.
        NameList("coregraphics.txt", framework: "CoreGraphics"),
    ]

    /// What `import UIKit` and `import SwiftUI` bring besides.
    static let appOnly = [
        NameList("uikit.txt", framework: "UIKit"),
        NameList("quartzcore.txt", framework: "QuartzCore"),
        NameList("coreimage.txt", framework: "CoreImage"),
        NameList("coretext.txt", framework: "CoreText"),
        NameList("accessibility.txt", framework: "Accessibility"),
        NameList("usernotifications.txt", framework: "UserNotifications"),
        NameList("fileprovider.txt", framework: "FileProvider"),
        NameList("symbols.txt", framework: "Symbols"),
        NameList("swiftui.txt", framework: "SwiftUI"),
        NameList("developertoolssupport.txt", framework: "DeveloperToolsSupport"),
        NameList("coretransferable.txt", framework: "CoreTransferable"),
    ]

    struct NameList {
        let file: String
        let framework: String
        init(_ file: String, framework: String) { self.file = file; self.framework = framework }
        func names() throws -> Set<String> { Set(try Repository.dataLines("Tests/PlatformTests/AppleNames/\(file)")) }
    }

    @Test func noTargetDeclaresANameApplePlatformsExport() throws {
        let every = try Self.everyTarget.map { ($0, try $0.names()) }
        let app = try Self.appOnly.map { ($0, try $0.names()) }
        var collisions: [String] = []
        for target in try Repository.swiftTargets() {
            let lists = Self.appImported.contains(target.name) ? every + app : every
            for file in target.files {
                for declaration in Self.topLevelDeclarations(in: file) {
                    for (list, names) in lists where names.contains(declaration.name) {
                        collisions.append("\(target.name)/\(file.path):\(declaration.line): \(declaration.name) collides with \(list.framework) (\(list.file))")
                    }
                }
            }
        }
        #expect(collisions.isEmpty, "\n\(collisions.joined(separator: "\n"))")
    }

    @Test func everyListIsUsedAndHoldsNames() throws {
        let folder = Repository.url("Tests/PlatformTests/AppleNames")
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".txt") })
        let used = Set((Self.everyTarget + Self.appOnly).map(\.file))
        #expect(present == used, "lists on disk and in the test differ: \(present.symmetricDifference(used).sorted())")
        for list in Self.everyTarget + Self.appOnly {
            #expect(try !list.names().isEmpty, "\(list.file) has no names")
        }
        for target in Self.appImported {
            #expect(try Repository.swiftTargets().contains { $0.name == target }, "no target \(target) under Sources/")
        }
    }

    /// The reader itself, on the shapes that would fool a line-by-line grep.
    @Test func onlyTopLevelDeclarationsOutsideCommentsAndStringsCount() {
        let text = #"""
        /* struct Commented {} */
        // public struct AlsoCommented
        let text = """
        struct InAString {}
        """
        @available(iOS 17, *)
        public final class Outer {
            struct Inner {}
            func method() {}
        }
        extension Point { static let zero = Point() }
        private struct Hidden {}
        #if os(macOS)
        public enum Platform { case mac }
        #endif
        public func helper(_ s: String = "struct Quoted {") {}
        public private(set) var counter = 0
        """#
        let names = Self.topLevelDeclarations(in: SwiftSource(path: "sample.swift", text: text)).map(\.name)
        #expect(names == ["text", "Outer", "Platform", "helper", "counter"])
    }

    struct Declaration {
        let name: String
        let line: Int
    }

    /// Declarations at brace depth 0. File-private ones are left out: no
    /// other file can see them, so they cannot clash. Internal ones stay, as
    /// `@testable import` shows them to the tests.
    static func topLevelDeclarations(in source: SwiftSource) -> [Declaration] {
        let pattern = try! NSRegularExpression(pattern: declaration)
        var depth = 0
        var found: [Declaration] = []
        for (index, line) in source.lines.enumerated() {
            if depth == 0, let name = declaredName(line, pattern) { found.append(Declaration(name: name, line: index + 1)) }
            for character in line where character == "{" || character == "}" { depth += character == "{" ? 1 : -1 }
        }
        return found
    }

    static let modifiers = "public|open|internal|package|private|fileprivate|final|static|nonisolated|indirect|lazy|weak|unowned|dynamic|override|mutating|nonmutating|required|convenience|prefix|postfix|infix|distributed"
    static let declaration =
        #"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*((?:(?:"# + modifiers + #")(?:\(set\))?\s+)*)(?:struct|enum|class|actor|protocol|typealias|func|let|var)\s+`?([A-Za-z_]\w*)"#

    static func declaredName(_ line: String, _ pattern: NSRegularExpression) -> String? {
        guard let match = pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
              let modifiers = Range(match.range(at: 1), in: line).map({ line[$0] }),
              let name = Range(match.range(at: 2), in: line).map({ line[$0] }) else { return nil }
        let words = modifiers.split(separator: " ").map(String.init)
        return words.contains("private") || words.contains("fileprivate") ? nil : String(name)
    }
}
