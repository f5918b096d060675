import MCPackSchema

extension DocumentInput {
    /// Each entry under document/ (the pyramid's descriptor and tiles, or
    /// its IIIF folder), with the master's size and how it was cut.
    package static func handover(_ record: DocumentRecord, files: [String]) -> [HandoverPart] {
        let cut = "\(record.settings.tileSize) px tiles with \(record.settings.overlap) px overlap, \(record.settings.tileFormat.uppercased())"
        let master = "the \(record.width) x \(record.height) px master `\(record.image)`"
        if record.layout?.kind == .iiif3 {
            return [HandoverPart(
                path: "document/\(record.name)/",
                purpose: "\(master) as a IIIF Image API 3 level 0 service: `info.json`, \(record.tiles) tiles in \(record.levels) scale factors (\(cut)) and the full-image sizes it lists; served at `\(record.settings.iiifBaseURL ?? "")/\(record.name)`")]
        }
        return [
            HandoverPart(path: "document/\(record.name).dzi",
                         purpose: "the Deep Zoom descriptor of \(master): what OpenSeadragon or the app opens"),
            HandoverPart(path: "document/\(record.name)_files/",
                         purpose: "the deep-zoom tiles, `<level>/<column>_<row>.\(record.settings.tileFormat)`, \(record.levels) levels (\(cut)): every tile the descriptor implies and no other"),
        ]
    }
}
