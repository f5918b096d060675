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

    var name: String
    var version: String
    var title: String
    var `extension`: String
    var mcpackVersion: String
    var sourceDate: String
    var clausesFile: String
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

    /// What the templates show of the inputs, gathered from the facts their
    /// checks published, as an input's `Needs` is.
    struct Needs: InputFact {
        var clauses: ClauseList
        var master: MasterSize
        var icons: AppIconSet?
        var launch: LaunchScreens?

        static func gather(from facts: [any InputFact]) -> Needs? {
            guard let clauses = ClauseList.gather(from: facts), let master = MasterSize.gather(from: facts) else { return nil }
            return Needs(clauses: clauses, master: master, icons: AppIconSet.gather(from: facts), launch: LaunchScreens.gather(from: facts))
        }
    }

    init(_ project: Project, needs: Needs, sources: [SourceFile], sourceDate: String) {
        let (list, master) = (needs.clauses, needs.master)
        let config = project.config
        let file = list.file
        name = config.name
        version = config.version.text
        title = config.title
        `extension` = config.format.fileExtension
        mcpackVersion = MCPackVersion.current
        self.sourceDate = sourceDate
        clausesFile = list.path
        masterWidth = master.width
        masterHeight = master.height
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
    }
}
