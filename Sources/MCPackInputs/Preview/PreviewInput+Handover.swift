extension PreviewInput {
    package static func handover(_ record: Record, files: [String]) -> [HandoverPart] {
        [HandoverPart(path: "preview/",
                      purpose: "the bundle in a browser (`index.html` with its script and style): the document with its \(record.clauses) clauses and \(record.categories) categories, the icons and launch screens; open it from the unpacked folder, no server needed")]
    }
}
