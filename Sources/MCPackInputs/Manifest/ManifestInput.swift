import MCPackBag
import Foundation
import MCPackSchema

/// With `layout = "iiif3"`, data/document/manifest.json: a IIIF Presentation
/// 3 manifest whose one canvas is the document, painted from the bundle's
/// own image service, and whose annotations are the clauses (W3C Web
/// Annotations, one a clause, labelled with its title, with its text,
/// targeting all its rectangles), so a museum's IIIF viewer lists and shows
/// the clauses as the kiosk does; the manifest and canvas are labelled with
/// the bundle's title. It
/// sits in document/ because every id is under `[document] iiif_base_url`,
/// where that folder is served.
///
/// It has no table of its own: it needs the document's image service and
/// the clauses, facts their checks publish, and nothing else. It reads the
/// [document] table only to run when the document does; that input owns
/// the table's keys and reports their mistakes.
package enum ManifestInput: BundleInput {
    package static let table = "document"
    package static let required = false
    package static let component = "manifest"
    package static let path = "document/manifest.json"
    package static let payload = [path]

    package struct Settings: Sendable {}

    /// The document as a IIIF service and the clause file, from two inputs;
    /// without clauses the manifest has no annotations.
    package struct Needs: InputFact {
        package var service: IIIFService
        package var clauses: ClauseList?

        package static func gather(from facts: [any InputFact]) -> Needs? {
            guard let service = IIIFService.gather(from: facts) else { return nil }
            return Needs(service: service, clauses: ClauseList.gather(from: facts))
        }
    }

    package struct Plan: InputPlan {
        package var service: IIIFService
        package var clauses: ClauseFile
        /// The clause file's own hash is recorded by the clauses input.
        package var sources: [SourceRef] { [] }
    }

    package struct Record: Codable, Sendable, Equatable {
        /// The manifest's id, its URL once document/ is served.
        package var id: String
        package var annotations: Int
    }

    package static func settings(_ table: TableReader, paths: ProjectPaths) -> Settings? { Settings() }

    /// Nothing to check of its own: without an image service (Deep Zoom)
    /// there is no manifest, and the clauses input reports their mistakes.
    package static func check(_ settings: Settings, needs: Needs?, in env: CheckEnvironment) -> Checked<Plan> {
        guard let needs else { return .failed }
        return Checked(plan: Plan(service: needs.service, clauses: needs.clauses?.file ?? .empty))
    }

    package static func make(_ plan: Plan, in env: MakeEnvironment) throws -> Made<Record> {
        let service = plan.service
        let manifest = PresentationManifest(base: service.base, serviceID: service.id, geometry: service.pyramid.geometry, format: service.format,
                                            clauses: plan.clauses.clauses, title: env.project.config.title)
        return Made(payload: [PayloadFile(path: path, bytes: JSON.encode(manifest))],
                    record: Record(id: manifest.id, annotations: manifest.clauseAnnotations.count))
    }
}
