import Archiving
import Foundation
import Imaging
import MCPackSchema

/// data/bundle.json: what was built, from what, with which settings. Each
/// input's record sits under `components`, keyed by the input's name, in the
/// input's own `Codable` type; keys are sorted when encoded, so the same
/// build gives the same bytes.
struct BundleFile: Encodable {
    typealias Info = BundleJSON.Info

    var schema = BundleJSON.schema
    var mcpack: String
    var bundle: Info
    /// The libraries whose versions the archive's bytes depend on, as each
    /// reports itself at run time: the same inputs give the same bytes only
    /// with the same versions, so a receiver comparing two builds can tell
    /// a changed library from a changed input.
    var libraries: [String: String] = [
        "libvips": Imaging.libraryVersion,
        "lcms2": Imaging.colourLibraryVersion,
        // libarchive names the compressors it was built with (zlib, zstd...).
        "libarchive": ArchiveWriter.libraryVersion,
    ]
    var components: [String: any Encodable & Sendable]
    /// bundle.toml and every input file read, in byte order of their paths.
    var inputs: [SourceFile]

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        try container.encode(schema, forKey: AnyKey("schema"))
        try container.encode(mcpack, forKey: AnyKey("mcpack"))
        try container.encode(bundle, forKey: AnyKey("bundle"))
        try container.encode(libraries, forKey: AnyKey("libraries"))
        var records = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("components"))
        for (name, record) in components { try records.encode(record, forKey: AnyKey(name)) }
        try container.encode(inputs, forKey: AnyKey("inputs"))
    }
}

/// One input's record in a bundle.json, decoded as that input's type.
extension BundleInput {
    static func record(in bundleJSON: Data) throws -> Record? {
        try BundleJSON.component(Record.self, named: component, from: bundleJSON)
    }
}
