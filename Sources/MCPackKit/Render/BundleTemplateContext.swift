import MCPackInputs
import Foundation
import MCPackSchema
import SwiftLiteral

/// What Templates/bundle sees (HANDOVER.md, the app's clause data in
/// Swift): the bundle, its clauses and categories with their text as Swift
/// literals, and the inputs it was built from.
struct BundleTemplateContext {
    struct CategoryItem {
        var name: String
        var icon: Int
        var nameLiteral: String
        /// Its icon's image name in the catalog, as a Swift literal.
        var imageNameLiteral: String
        var filterLiteral: String
        var filterText: String
    }

    struct OverlayItem {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        /// ", " between overlays, "" after the last.
        var separator: String
    }

    struct ClauseItem {
        var idLiteral: String
        var titleLiteral: String
        var categoriesLiteral: String
        /// 0xRRGGBBAA.
        var colourHex: String
        var translationLiteral: String
        var contextLiteral: String
        var overlays: [OverlayItem]
    }

    struct InputItem {
        var path: String
        var sha256: String
    }

    /// A row of HANDOVER.md's "What is inside": a file or folder under data/.
    struct ContentItem {
        var path: String
        /// "" where not known while the page is made (bundle.json, the page).
        var files: String
        var size: String
        var purpose: String
    }

    var name: String
    var version: String
    var title: String
    var `extension`: String
    var mcpackVersion: String
    var sourceDate: String
    /// Whether the project has clauses: app/ClauseData.swift renders to
    /// nothing, and so is not made, without them.
    var hasClauses: Bool
    var hasCategories: Bool
    var clausesFile: String
    /// The master scan's size; 0 without a document.
    var masterWidth: Int
    var masterHeight: Int
    var clauseCount: Int
    var categoryCount: Int
    var categories: [CategoryItem]
    var clauses: [ClauseItem]
    var inputs: [InputItem]
    /// What app/Info-fragment.plist states: the app icon's name in the
    /// catalog (`CFBundleIconName`) and the launch storyboard's
    /// (`UILaunchStoryboardName`), each when the bundle has one.
    var appIconName: String?
    var launchStoryboardName: String?
    var contents: [ContentItem]
    var profileIdentifier = BagItProfile.mcpackBundleIdentifier
    var profileFile = BagItProfile.tagFileName

    /// What the templates show of the inputs, gathered from the facts their
    /// checks published, as an input's `Needs` is; each may be missing, as
    /// a project may leave any input out.
    struct Needs: InputFact {
        var clauses: ClauseList?
        var master: MasterSize?
        var icons: AppIconSet?
        var launch: LaunchScreens?

        static func gather(from facts: [any InputFact]) -> Needs? {
            Needs(clauses: ClauseList.gather(from: facts), master: MasterSize.gather(from: facts),
                  icons: AppIconSet.gather(from: facts), launch: LaunchScreens.gather(from: facts))
        }
    }

    /// `made`: what each input described of its part (counted); `rendered`:
    /// the files the bundle's templates make, relative to data/.
    init(_ project: Project, needs: Needs, sources: [SourceFile], sourceDate: String, made: [HandoverRow], rendered: [String]) {
        let config = project.config
        let file = needs.clauses?.file ?? .empty
        name = config.name
        version = config.version.text
        title = config.title
        `extension` = config.format.fileExtension
        mcpackVersion = MCPackVersion.current
        self.sourceDate = sourceDate
        hasClauses = !file.clauses.isEmpty
        hasCategories = !file.categories.isEmpty
        clausesFile = needs.clauses?.path ?? ""
        masterWidth = needs.master?.width ?? 0
        masterHeight = needs.master?.height ?? 0
        clauseCount = file.clauses.count
        categoryCount = file.categories.count
        categories = file.categories.map { category in
            CategoryItem(name: category.name, icon: category.icon, nameLiteral: swiftLiteral(category.name),
                         imageNameLiteral: swiftLiteral(AssetCatalog.categoryImageName(category.icon)),
                         filterLiteral: category.filter.map(swiftLiteral) ?? "nil", filterText: category.filter ?? "")
        }
        clauses = file.clauses.map { clause in
            let hex = clause.colour.dropFirst()
            return ClauseItem(
                idLiteral: swiftLiteral(clause.id), titleLiteral: swiftLiteral(clause.title),
                categoriesLiteral: clause.categories.map(swiftLiteral).joined(separator: ", "),
                colourHex: "0x" + (hex.count == 6 ? hex + "FF" : hex),
                translationLiteral: swiftLiteral(clause.translation), contextLiteral: swiftLiteral(clause.context),
                overlays: clause.overlays.enumerated().map { index, rect in
                    OverlayItem(x: rect.x, y: rect.y, width: rect.width, height: rect.height,
                                separator: index == clause.overlays.count - 1 ? "" : ", ")
                })
        }
        inputs = sources.map { InputItem(path: $0.path, sha256: $0.sha256) }
        appIconName = needs.icons?.name
        launchStoryboardName = needs.launch == nil ? nil : AssetCatalog.launchStoryboardName
        contents = Self.contents(made: made, rendered: rendered)
    }

    /// The inputs' parts, then bundle.json and the templates' files, in
    /// path order as the bag lists them.
    static func contents(made: [HandoverRow], rendered: [String]) -> [ContentItem] {
        var items = made.map { ContentItem(path: $0.path, files: "\($0.files)", size: HandoverRow.sizeText($0.bytes), purpose: $0.purpose) }
        items.append(ContentItem(path: BundleJSON.path.replacingOccurrences(of: "data/", with: ""), files: "1", size: "—",
                                 purpose: "what was built, from which inputs (each with its SHA-256 and size), with which settings, and what was done to each picture"))
        let known = [
            "HANDOVER.md": "this page",
            "app/ClauseData.swift": "the clause data as Swift source, for an app that keeps its text in code",
            "app/Info-fragment.plist": "the keys the app's Info.plist needs for the catalog and the launch screen (`CFBundleIconName`, `UILaunchStoryboardName`)",
        ]
        if made.contains(where: { $0.path.hasPrefix(AssetCatalog.folder + "/") }) {
            items.append(ContentItem(path: AssetCatalog.folder + "/Contents.json", files: "1", size: "—",
                                     purpose: "the asset catalog's own `Contents.json`: drag `\(AssetCatalog.folder)` into the app's Xcode target"))
        }
        for path in rendered {
            items.append(ContentItem(path: path, files: "1", size: "—", purpose: known[path] ?? "rendered from the bundle templates (Templates/bundle)"))
        }
        return items.sorted { $0.path.precedesInUTF8Order($1.path) }
    }
}
