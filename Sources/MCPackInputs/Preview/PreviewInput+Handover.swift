extension PreviewInput {
    package static func handover(_ record: Record, files: [String]) -> [HandoverPart] {
        let overlays = record.clauses == 0 ? "" : " with its \(record.clauses) clauses and \(record.categories) categories"
        return [HandoverPart(path: "preview/",
                             purpose: "the bundle in a browser (`index.html` with its script and style): the document\(overlays), the icons and launch screens; open it from the unpacked folder, no server needed")]
    }
}
