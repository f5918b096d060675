import Foundation
import MCPackSchema

extension ManifestInput {
    /// A IIIF bundle has its manifest; every id in it is an HTTP(S) URI
    /// under the base URL; its canvas is the master's size, painted by the
    /// bag's own image service; and its annotations are exactly the clause
    /// overlays of clauses.json, each with its clause's title and text.
    static func verify(_ record: Record?, in bag: BagView) -> [Problem] {
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
        let services = canvas.items.flatMap(\.items).flatMap { $0.body.service ?? [] }.map(\.id)
        let infos = bag.files.keys.filter { $0.hasPrefix("data/document/") && $0.hasSuffix("/info.json") && $0.split(separator: "/").count == 4 }
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

    /// The annotations against the overlays of clauses.json: one per
    /// rectangle, with the clause's title and translation.
    private static func compare(_ annotations: [PresentationManifest.Annotation], _ clauses: ClausesDocument, canvas: String,
                                path: String) -> [Problem] {
        struct Overlay: Hashable { var target: String; var title: String; var text: String }
        var expected: [Overlay: String] = [:]
        for clause in clauses.clauses {
            for r in clause.overlays {
                expected[Overlay(target: "\(canvas)#xywh=\(r.x),\(r.y),\(r.width),\(r.height)", title: clause.title, text: clause.translation)] = clause.id
            }
        }
        let found = annotations.map { Overlay(target: $0.target, title: $0.label?["en"]?.first ?? "", text: $0.body.value ?? "") }
        var problems: [Problem] = []
        let missing = expected.filter { !found.contains($0.key) }.sorted { ($0.value, $0.key.target) < ($1.value, $1.key.target) }
        for (overlay, clause) in missing {
            problems.append(Problem(path, "manifest-clauses", "clause \"\(clause)\": no annotation targets \(overlay.target) with its title and text"))
        }
        for overlay in found where expected[overlay] == nil {
            problems.append(Problem(path, "manifest-clauses", "an annotation targets \(overlay.target) (\"\(overlay.title)\"), which no clause overlay of clauses.json matches"))
        }
        return problems
    }
}
