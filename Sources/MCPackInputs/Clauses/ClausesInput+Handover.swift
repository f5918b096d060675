extension ClausesInput {
    package static func handover(_ record: Record, files: [String]) -> [HandoverPart] {
        [HandoverPart(path: "clauses.json",
                      purpose: "the \(record.clauses) clauses and \(record.categories) categories of `\(record.file)`: each clause's title, translation, context, colour and overlays, in master pixels and as fractions of the master")]
    }
}
