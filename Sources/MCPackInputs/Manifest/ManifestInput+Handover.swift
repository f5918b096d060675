extension ManifestInput {
    package static func handover(_ record: Record, files: [String]) -> [HandoverPart] {
        [HandoverPart(path: path, purpose: "the IIIF Presentation 3 manifest `\(record.id)`: one canvas painted from the bag's image service and \(record.annotations) annotations, one for each clause, labelled with its title and targeting all its rectangles")]
    }
}
