import Archiving
import Foundation
import Imaging
import MCPackSchema

/// data/bundle.json is the schema's `BundleJSON.Head`: each input's record
/// sits under `components`, keyed by the input's name, in the input's own
/// `Codable` type; keys are sorted when encoded, so the same build gives
/// the same bytes.
extension BundleJSON.Head {
    /// The libraries this mcpack writes with, as each reports itself.
    static var writtenWith: [String: String] {
        [
            "libvips": Imaging.libraryVersion,
            "lcms2": Imaging.colourLibraryVersion,
            // libarchive names the compressors it was built with (zlib, zstd...).
            "libarchive": ArchiveWriter.libraryVersion,
        ]
    }
}
