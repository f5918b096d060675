import Foundation
// The only module of this package imported here, as in an app: every type
// below must be reachable through it, or this file does not compile.
import MCPackReader
import Testing

/// What an app writes with `import MCPackReader` alone: each type the
/// reader's API takes or returns, named. The views (DocumentView,
/// KioskDocumentView) are UIKit and SwiftUI, so only Apple's compilers see
/// them; everything they hand an app is named here.
@Suite struct ReaderAPITests {
    /// Compiles only if each type is visible through MCPackReader.
    @Test func everyTypeOfTheAPIIsNamedThroughTheReaderAlone() {
        let bundle: KioskBundle.Type = KioskBundle.self
        let error: KioskBundleError = KioskBundleError(path: "data/bundle.json", message: "missing")
        let info: BundleJSON.Info = BundleJSON.Info(name: "magna-carta", version: "1.0.0", title: "Magna Carta", sourceDate: "2015-06-15")
        let clause: Clause = Clause(id: "39", title: "", categories: ["Justice"], colour: "#8B1E1E", translation: "", context: "",
                                    overlays: [PixelRect(x: 0, y: 0, width: 2, height: 2)])
        let category: ClauseCategory = ClauseCategory(name: "Justice", icon: 1)
        let size: PixelSize = PixelSize(width: 600, height: 400)
        let descriptor: DeepZoomDescriptor? = DeepZoomDescriptor(Data())
        let layout: IIIFLayout.Type = IIIFLayout.self
        let kind: KioskDocument.Kind = .deepZoom
        let level: TileLevel = TileLevel(level: 0, downsample: 1, width: 1, height: 1, columns: 1, rows: 1)
        let key: TileKey = TileKey(level: 0, column: 0, row: 0)
        let tile: TileRef = TileRef(level: 0, column: 0, row: 0, frame: .zero, pixelSize: size, url: URL(fileURLWithPath: "/"))
        let cache: TileCache<Data> = TileCache(budget: 1)
        let retry: TileRetry = TileRetry()
        let insets: ContentInsets = ContentInsets.zero
        let identity: KioskBundle.Identity = KioskBundle.Identity(folder: "/b", name: "magna-carta", version: "1.0.0")
        let problem: BundleProblem = BundleProblem(kind: .missing, path: "data/a", detail: "missing")
        let problemKind: BundleProblem.Kind = problem.kind
        let documents: [Any.Type] = [KioskDocument.self, ClausesDocument.self, CategoriesDocument.self]
        // Updates in the field.
        let store: BundleStore = BundleStore(folder: URL(fileURLWithPath: "/b"))
        let trusted: ChannelKey? = try? ChannelKey(minisignPublicKey: "RWQcHhgNkpPMaPJ9iMdkDFUhOvDkW0Pk0rWkdHXWDIyRkZ1lRAcIbOVz")
        var options: UpdateOptions = UpdateOptions(channel: URL(string: "https://example.org/c/")!, trustedKeys: trusted.map { [$0] } ?? [])
        options.bundleName = "magna-carta"
        let updater: BundleUpdater = BundleUpdater(store: store, options: options)
        let progress: UpdateProgress = UpdateProgress(phase: .fetching)
        let phase: UpdateProgress.Phase = progress.phase
        let result: UpdateResult = UpdateResult(outcome: .current, version: "1.0.0", folder: "/b", sequence: 1, bytesFetched: 0, filesFetched: 0, filesReused: 0)
        let outcome: UpdateResult.Outcome = result.outcome
        let heldBack: String? = result.heldBack
        let failure: UpdateError = UpdateError(.refused, ["index.json expired"])
        let failureKind: UpdateError.Kind = failure.kind
        let minisign: MinisignText.PublicKey? = trusted?.minisign
        let minisignError: MinisignTextError = MinisignTextError(line: 1, message: "cut short")
        let channel: [Any.Type] = [ChannelIndex.self, ChannelObject.self, ChannelFileList.self, ChannelFile.self, MinisignText.Signature.self]
        #expect(updater.store.link.lastPathComponent == "current" && phase == .fetching && outcome == .current && failureKind == .refused && heldBack == nil)
        #expect(minisign?.key.count == 32 && minisignError.line == 1 && channel.count == 5)
        #expect("\(bundle)".contains("KioskBundle"))
        #expect(error.path == "data/bundle.json" && info.version == "1.0.0")
        #expect(clause.overlays.first?.contains(x: 1, y: 1) == true && category.icon == 1)
        #expect(descriptor == nil && "\(layout)" == "IIIFLayout" && kind == .deepZoom)
        #expect(level.scale == 1 && tile.key == key && cache.budget == 1 && problemKind == .missing && documents.count == 3)
        #expect(retry.count == 0 && insets == .zero && identity.version == "1.0.0")
    }

    /// Keeps the test above whole: every type the reader or the schema
    /// declares that a public line of the reader mentions is named in this
    /// file, so a new type in the API cannot go unchecked.
    @Test func theAPIHasNoTypeThisFileLeavesOut() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let reader = try Self.swiftFiles(root.appendingPathComponent("Sources/MCPackReader")).filter { !$0.path.contains("/View/") }
        let schema = try Self.swiftFiles(root.appendingPathComponent("Sources/MCPackSchema"))
        let declared = Set(try (reader + schema).flatMap { try Self.matches(#"public (?:final )?(?:struct|enum|class|protocol|typealias|actor) ([A-Z]\w*)"#, in: $0) })
        let mentioned = Set(try reader.flatMap { file in
            try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                .filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("public ") }
                .flatMap { line in Self.words(in: String(line)) }
        })
        let here = Set(Self.words(in: try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)))
        let missing = mentioned.intersection(declared).subtracting(here).sorted()
        #expect(missing.isEmpty, "the reader's API uses \(missing), which ReaderAPITests does not name")
    }

    static func swiftFiles(_ folder: URL) throws -> [URL] {
        let names = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        return names.map { folder.appendingPathComponent($0) }
    }

    static func matches(_ pattern: String, in file: URL) throws -> [String] {
        let text = try String(contentsOf: file, encoding: .utf8)
        let regex = try NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    static func words(in text: String) -> [String] {
        text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init).filter { $0.first?.isUppercase == true }
    }
}
