import Foundation

/// With `layout = "iiif3"`, data/document/manifest.json: a IIIF Presentation
/// 3 manifest whose one canvas is the document, painted from the bundle's
/// own image service, and whose annotations are the clause overlays (W3C
/// Web Annotations with the clause's text, each targeting the canvas at a
/// rectangle), so a museum's IIIF viewer shows what the kiosk shows. It
/// sits in document/ because every id is under `[document] iiif_base_url`,
/// where that folder is served.
///
/// It has no table of its own: it needs the document's image service and
/// the clauses, facts their checks publish, and nothing else. It reads the
/// [document] table only to run when the document does; that input owns
/// the table's keys and reports their mistakes.
enum ManifestInput: BundleInput {
    static let table = "document"
    static let required = false
    static let component = "manifest"
    static let path = "document/manifest.json"
    static let payload = [path]

    struct Settings: Sendable {}

    /// The document as a IIIF service and the clause file, from two inputs.
    struct Needs: InputFact {
        var service: IIIFService
        var clauses: ClauseList

        static func gather(from facts: [any InputFact]) -> Needs? {
            guard let service = IIIFService.gather(from: facts), let clauses = ClauseList.gather(from: facts) else { return nil }
            return Needs(service: service, clauses: clauses)
        }
    }

    struct Plan: InputPlan {
        var service: IIIFService
        var clauses: ClauseFile
        /// The clause file's own hash is recorded by the clauses input.
        var sources: [SourceRef] { [] }
    }

    struct Record: Codable, Sendable, Equatable {
        /// The manifest's id, its URL once document/ is served.
        var id: String
        var annotations: Int
    }

    static func settings(_ table: TableReader, paths: ProjectPaths) -> Settings? { Settings() }

    /// Nothing to check of its own: without an image service (Deep Zoom)
    /// there is no manifest, and the clauses input reports their mistakes.
    static func check(_ settings: Settings, needs: Needs?, in env: CheckEnvironment) -> Checked<Plan> {
        guard let needs else { return .failed }
        return Checked(plan: Plan(service: needs.service, clauses: needs.clauses.file))
    }

    static func make(_ plan: Plan, in env: MakeEnvironment) throws -> Made<Record> {
        let manifest = PresentationManifest(service: plan.service, clauses: plan.clauses, title: env.project.config.title)
        return Made(payload: [PayloadFile(path: path, bytes: JSON.encode(manifest))],
                    record: Record(id: manifest.id, annotations: manifest.clauseAnnotations.count))
    }
}

/// A IIIF Presentation 3 manifest, in the shape mcpack writes: one canvas,
/// painted by one image, annotated by the clause overlays.
struct PresentationManifest: Codable, Equatable {
    typealias LanguageMap = [String: [String]]

    struct Canvas: Codable, Equatable {
        var id: String
        var type = "Canvas"
        var width: Int
        var height: Int
        var items: [AnnotationPage]
        var annotations: [AnnotationPage]?
    }

    struct AnnotationPage: Codable, Equatable {
        var id: String
        var type = "AnnotationPage"
        var items: [Annotation]
    }

    struct Annotation: Codable, Equatable {
        var id: String
        var type = "Annotation"
        var motivation: String
        var label: LanguageMap?
        var body: Body
        var target: String
    }

    /// The painted image (`Image`, with its service) or a clause's text (`TextualBody`).
    struct Body: Codable, Equatable {
        var id: String?
        var type: String
        var format: String?
        var language: String?
        var value: String?
        var width: Int?
        var height: Int?
        var service: [Service]?
    }

    struct Service: Codable, Equatable {
        var id: String
        var type = "ImageService3"
        var profile = "level0"
    }

    var context = "http://iiif.io/api/presentation/3/context.json"
    var id: String
    var type = "Manifest"
    var label: LanguageMap
    var items: [Canvas]

    enum CodingKeys: String, CodingKey {
        case context = "@context", id, type, label, items
    }

    /// The painting annotation's id; the clauses' page is beside it.
    static func canvasID(base: String) -> String { base + "/canvas/1" }

    /// A clause id as one segment of a URI path.
    static func segment(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? id
    }

    static func mediaType(_ format: String) -> String { "image/" + format }

    init(service: IIIFService, clauses: ClauseFile, title: String) {
        let base = service.base
        let canvas = Self.canvasID(base: base)
        let layout = IIIFLayout(width: service.width, height: service.height, tileSize: service.tileSize, ext: IIIFLayout.ext(service.format))
        let full = layout.maxSize
        let image = Annotation(
            id: canvas + "/page/1/image", motivation: "painting",
            body: Body(id: service.id + "/" + layout.fullMaxPath, type: "Image", format: Self.mediaType(service.format),
                       width: full.width, height: full.height, service: [Service(id: service.id)]),
            target: canvas)
        var overlays: [Annotation] = []
        for clause in clauses.clauses {
            for (index, r) in clause.overlays.enumerated() {
                overlays.append(Annotation(
                    id: canvas + "/clauses/\(Self.segment(clause.id))/\(index + 1)", motivation: "commenting",
                    label: ["en": [clause.title]],
                    body: Body(type: "TextualBody", format: "text/plain", language: "en", value: clause.translation),
                    target: canvas + "#xywh=\(r.x),\(r.y),\(r.width),\(r.height)"))
            }
        }
        id = base + "/manifest.json"
        label = ["en": [title]]
        items = [Canvas(id: canvas, width: service.width, height: service.height,
                        items: [AnnotationPage(id: canvas + "/page/1", items: [image])],
                        annotations: [AnnotationPage(id: canvas + "/clauses", items: overlays)])]
    }

    /// The clause overlays' annotations.
    var clauseAnnotations: [Annotation] { items.flatMap { $0.annotations ?? [] }.flatMap(\.items) }

    /// Every id the manifest gives, body and service ids included.
    var allIDs: [String] {
        var ids = [id]
        for canvas in items {
            ids.append(canvas.id)
            for page in canvas.items + (canvas.annotations ?? []) {
                ids.append(page.id)
                for annotation in page.items {
                    ids.append(annotation.id)
                    ids += [annotation.body.id].compactMap { $0 } + (annotation.body.service ?? []).map(\.id)
                }
            }
        }
        return ids
    }
}
