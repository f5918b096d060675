import Foundation

/// A IIIF Presentation 3 manifest, in the shape mcpack writes: one canvas,
/// painted by one image, annotated by the clause overlays.
public struct PresentationManifest: Codable, Equatable, Sendable {
    public typealias LanguageMap = [String: [String]]

    public struct Canvas: Codable, Equatable, Sendable {
        public var id: String
        public var type = "Canvas"
        public var width: Int
        public var height: Int
        public var items: [AnnotationPage]
        public var annotations: [AnnotationPage]?
    }

    public struct AnnotationPage: Codable, Equatable, Sendable {
        public var id: String
        public var type = "AnnotationPage"
        public var items: [Annotation]
    }

    public struct Annotation: Codable, Equatable, Sendable {
        public var id: String
        public var type = "Annotation"
        public var motivation: String
        public var label: LanguageMap?
        public var body: Body
        public var target: String
    }

    /// The painted image (`Image`, with its service) or a clause's text (`TextualBody`).
    public struct Body: Codable, Equatable, Sendable {
        public var id: String?
        public var type: String
        public var format: String?
        public var language: String?
        public var value: String?
        public var width: Int?
        public var height: Int?
        public var service: [Service]?
    }

    public struct Service: Codable, Equatable, Sendable {
        public var id: String
        public var type = "ImageService3"
        public var profile = "level0"
    }

    public var context = "http://iiif.io/api/presentation/3/context.json"
    public var id: String
    public var type = "Manifest"
    public var label: LanguageMap
    public var items: [Canvas]

    enum CodingKeys: String, CodingKey {
        case context = "@context", id, type, label, items
    }

    /// The painting annotation's id; the clauses' page is beside it.
    public static func canvasID(base: String) -> String { base + "/canvas/1" }

    /// A clause id as one segment of a URI path.
    public static func segment(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? id
    }

    public static func mediaType(_ format: String) -> String { "image/" + format }

    /// The manifest of an image service at `serviceID` (under `base`, where
    /// document/ is served) whose pyramid is `geometry` with tiles in
    /// `format` (jpeg, png, webp), annotated by `clauses`.
    public init(base: String, serviceID: String, geometry: PyramidGeometry, format: String, clauses: [Clause], title: String) {
        let canvas = Self.canvasID(base: base)
        let layout = IIIFLayout(width: geometry.width, height: geometry.height, tileSize: geometry.tileSize, ext: IIIFLayout.ext(format))
        let full = layout.maxSize
        let image = Annotation(
            id: canvas + "/page/1/image", motivation: "painting",
            body: Body(id: serviceID + "/" + layout.fullMaxPath, type: "Image", format: Self.mediaType(format),
                       width: full.width, height: full.height, service: [Service(id: serviceID)]),
            target: canvas)
        var overlays: [Annotation] = []
        for clause in clauses {
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
        items = [Canvas(id: canvas, width: geometry.width, height: geometry.height,
                        items: [AnnotationPage(id: canvas + "/page/1", items: [image])],
                        annotations: [AnnotationPage(id: canvas + "/clauses", items: overlays)])]
    }

    /// The clause overlays' annotations.
    public var clauseAnnotations: [Annotation] { items.flatMap { $0.annotations ?? [] }.flatMap(\.items) }

    /// Every id the manifest gives, body and service ids included.
    public var allIDs: [String] {
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
