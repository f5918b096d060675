import MCPackBag
import Foundation
import MCPackSchema

/// data/preview/: a page that shows the bundle in a browser from the
/// unpacked bag, with no server and nothing loaded from outside the bag
/// (index.html, its script and its style, rendered from
/// Templates/preview). It is made from the facts the other inputs'
/// checks publish, so it shows what they make: the document's pyramid,
/// the clause overlays, the category filter, the icon sizes and the
/// launch screens. `[preview] include = false` leaves it out; a project
/// without a document has nothing for it to open on, and no page.
package enum PreviewInput: BundleInput {
    package static let table = "preview"
    package static let required = false
    package static let component = "preview"
    package static let payload = ["preview/"]
    /// The page, relative to data/.
    package static let page = "preview/index.html"
    package static var browserPage: String? { page }

    package struct Settings: Sendable, Equatable {
        package var include: Bool
    }

    package static var defaultSettings: Settings? { Settings(include: true) }

    /// What the page is made from: every fact comes from an earlier check.
    package struct Needs: InputFact {
        package var pyramid: PyramidLayout
        /// Nil for a project without clauses: the page shows the document alone.
        package var clauses: ClauseList?
        /// Nil for a project without category icons: the menu shows names alone.
        package var categoryIcons: CategoryIcons?
        package var icons: AppIconSet?
        package var launch: LaunchScreens?
        /// The sections other picture inputs publish.
        package var gallery: [PreviewSection]

        package static func gather(from facts: [any InputFact]) -> Needs? {
            guard let pyramid = PyramidLayout.gather(from: facts) else { return nil }
            return Needs(pyramid: pyramid, clauses: ClauseList.gather(from: facts), categoryIcons: CategoryIcons.gather(from: facts), icons: AppIconSet.gather(from: facts), launch: LaunchScreens.gather(from: facts),
                         gallery: PreviewSection.gatherAll(from: facts))
        }
    }

    package struct Plan: InputPlan {
        package var needs: Needs
        package var sources: [SourceRef] { [] }
    }

    package struct Record: Codable, Sendable, Equatable {
        /// The files of the page, relative to data/.
        package var files: [String]
        package var clauses: Int
        package var categories: Int
    }

    package static func settings(_ t: TableReader, paths: ProjectPaths) -> Settings? {
        let include = t.bool("include", required: false) ?? true
        t.rejectUnknownKeys(known: ["include"])
        return Settings(include: include)
    }

    package static func check(_ settings: Settings, needs: Needs?, in env: CheckEnvironment) -> Checked<Plan> {
        // No plan and no problem: left out on purpose, or no document to
        // show (none in the project, or one whose check has said why).
        guard settings.include, let needs else { return .failed }
        return Checked(plan: Plan(needs: needs))
    }

    package static func make(_ plan: Plan, in env: MakeEnvironment) throws -> Made<Record> {
        let config = env.project.config
        let data = PreviewData(
            bundle: .init(info: .init(name: config.name, version: config.version.text, title: config.title, sourceDate: env.sourceDate),
                          archive: "\(config.stem).\(config.format.fileExtension)"),
            pyramid: plan.needs.pyramid, clauses: plan.needs.clauses?.file ?? .empty, icons: plan.needs.categoryIcons?.paths ?? [:],
            measuredWidth: plan.needs.clauses?.measuredWidth)
        let context = PreviewContext(data: data, icons: plan.needs.icons, launch: plan.needs.launch, gallery: plan.needs.gallery)
        let rendered: [(path: String, data: Data)]
        do {
            rendered = try TemplateSet.load("preview").render(context)
        } catch {
            throw env.failure(env.project.configDisplayPath, "cannot render the preview page: \(error)")
        }
        let payload = rendered.map { PayloadFile(path: "preview/\($0.path)", bytes: $0.data) }
        return Made(payload: payload, record: Record(files: payload.map(\.path), clauses: data.clauses.count,
                                                     categories: data.categories.count))
    }
}
