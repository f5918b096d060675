import Foundation
import MCPackSchema

extension ManifestInput {
    /// A IIIF bundle has its manifest; every id in it is an HTTP(S) URI
    /// under the base URL; its canvas is the master's size, painted by the
    /// bag's own image service; and its annotations are exactly the clauses
    /// of clauses.json, one each, with its title, text and rectangles.
    package static func verify(_ record: Record?, in bag: BagView) -> [Problem] {
        let path = "data/" + self.path
        var problems: [Problem] = []
        let service = bag.fact(IIIFService.self)
        guard bag.files[path] != nil else {
            if bag.stoppedAt == nil, record != nil || bag.fact(PyramidLayout.self)?.kind == .iiif3 {
                problems.append(Problem(path, "manifest-present", "missing: a bundle with layout = \"iiif3\" holds a IIIF Presentation manifest of the document and its clause overlays"))
            }
            return problems
        }
        guard let manifest = bag.decode(PresentationManifest.self, path, rule: "manifest-json", &problems) else { return problems }
        let suffix = "/manifest.json"
        let base = manifest.id.hasSuffix(suffix) ? String(manifest.id.dropLast(suffix.count)) : manifest.id
        if !manifest.id.hasSuffix(suffix) || !IIIFBaseURL.isAbsolute(manifest.id) {
            problems.append(Problem(path, "manifest-ids", "id \"\(manifest.id)\" is not an http:// or https:// URL ending in /manifest.json"))
        } else if let expected = service?.base, base != expected {
            problems.append(Problem(path, "manifest-ids", "id \"\(manifest.id)\" is not under \"\(expected)\", the base URL bundle.json records"))
        }
        let outside = manifest.allIDs.filter { !IIIFBaseURL.isAbsolute($0) || !$0.hasPrefix(base + "/") }
        if let first = outside.first {
            problems.append(Problem(path, "manifest-ids", "\(outside.count) ids are not http:// or https:// URIs under \(base)/ (first: \"\(first)\")"))
        }
        if let record, record.id != manifest.id {
            problems.append(Problem(path, "manifest-ids", "id \"\(manifest.id)\" but bundle.json records \"\(record.id)\""))
        }
        guard manifest.items.count == 1, let canvas = manifest.items.first else {
            problems.append(Problem(path, "manifest-canvas", "has \(manifest.items.count) canvases; mcpack writes one, the document"))
            return problems
        }
        // The painting image's service is the bag's info.json.
        let services = canvas.items.flatMap(\.items).flatMap(\.body).flatMap { $0.service ?? [] }.map(\.id)
        let infos = DocumentInput.iiifDescriptors(bag)
        var ignored: [Problem] = []
        let serviceIDs = Set(infos.compactMap { bag.decode(IIIFImageInfo.self, $0, rule: "pyramid-iiif", &ignored)?.id })
        if services.isEmpty || !services.allSatisfy(serviceIDs.contains) {
            problems.append(Problem(path, "manifest-canvas", "the canvas is painted from \(services.map { "\"\($0)\"" }.joined(separator: ", ")), not from the image service of this bag's info.json (\(serviceIDs.sorted().joined(separator: ", ")))"))
        }
        guard let clauses = bag.decode(ClausesDocument.self, ClausesDocument.path, rule: "clauses-json", &ignored) else { return problems }
        if (canvas.width, canvas.height) != (clauses.master.width, clauses.master.height) {
            problems.append(Problem(path, "manifest-canvas", "the canvas is \(canvas.width) x \(canvas.height) but clauses.json's master is \(clauses.master.width) x \(clauses.master.height)"))
        }
        problems += compare(manifest.clauseAnnotations, clauses, canvas: canvas.id, path: path)
        return problems
    }

    /// The annotations against the clauses of clauses.json: one a clause,
    /// by its id, with its title, its text and all its rectangles.
    private static func compare(_ annotations: [PresentationManifest.Annotation], _ clauses: ClausesDocument, canvas: String,
                                path: String) -> [Problem] {
        var problems: [Problem] = []
        var seen = Set<String>()
        for annotation in annotations where !seen.insert(annotation.id).inserted {
            problems.append(Problem(path, "manifest-clauses", "annotation \(annotation.id) appears more than once; each clause has one"))
        }
        var found = Dictionary(annotations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for clause in clauses.clauses {
            let expected = PresentationManifest.annotation(clause, canvas: canvas)
            guard let annotation = found.removeValue(forKey: expected.id) else {
                problems.append(Problem(path, "manifest-clauses", "clause \"\(clause.id)\": no annotation \(expected.id)"))
                continue
            }
            if annotation.label != expected.label || annotation.body != expected.body || annotation.motivation != expected.motivation {
                problems.append(Problem(path, "manifest-clauses", "clause \"\(clause.id)\": its annotation's label or bodies are not the clause's title, translation, context and categories"))
            }
            if annotation.target != expected.target {
                let rects = annotation.target.rectangles.map { "\($0.values)" }.joined(separator: ", ")
                problems.append(Problem(path, "manifest-clauses", "clause \"\(clause.id)\": its annotation targets [\(rects)] of \(annotation.target.source), not its rectangles \(clause.overlays.map(\.values)) of the canvas"))
            }
        }
        for annotation in annotations where found[annotation.id] != nil {
            problems.append(Problem(path, "manifest-clauses", "annotation \(annotation.id) (\"\(annotation.label?["en"]?.first ?? "")\") is of no clause of clauses.json"))
        }
        return problems
    }
}
