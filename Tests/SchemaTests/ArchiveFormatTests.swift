import MCPackSchema
import Testing

/// The one list of archive formats, and what each place that names an
/// archive reads from it.
@Suite struct ArchiveFormatTests {
    @Test func namesGiveTheFormatAndTheStem() {
        let cases: [(String, ArchiveFormat?, String?)] = [
            ("magna-carta-1.0.0.zip", .zip, "magna-carta-1.0.0"),
            ("magna-carta-1.0.0.tar.gz", .tarGz, "magna-carta-1.0.0"),
            ("magna-carta-1.0.0.tgz", .tarGz, "magna-carta-1.0.0"),
            ("magna-carta-1.0.0.tar.zst", .tarZst, "magna-carta-1.0.0"),
            ("magna-carta-1.0.0.tar", .tar, "magna-carta-1.0.0"),
            ("magna-carta-1.0.0.ZIP", nil, nil),
            ("magna-carta-1.0.0.tar.xz", nil, nil),
            ("zip", nil, nil),
        ]
        for (name, format, stem) in cases {
            let found = ArchiveFormat.named(name)
            #expect(found?.format == format && found?.stem == stem, "\(name)")
        }
        // What mcpack writes: the formats it builds, by the ending it gives.
        #expect(ArchiveFormat.written("x-1.0.0.tar") == nil)
        #expect(ArchiveFormat.written("x-1.0.0.tgz") == nil)
        #expect(ArchiveFormat.written("x-1.0.0.tar.gz")?.stem == "x-1.0.0")
        #expect(ArchiveFormat.written("x-1.0.0.tar.zst")?.format == .tarZst)
    }

    /// bundle.toml's choices and the profile every bag carries, as they
    /// were spelled before they were derived from the list.
    @Test func derivedListsKeepTheirBytes() {
        #expect(ArchiveFormat.built.map(\.rawValue) == ["zip", "tar.zst", "tar.gz"])
        #expect(BagItProfile.mcpackBundle.acceptSerialization == ["application/zip", "application/x-tar", "application/gzip", "application/zstd"])
        #expect(ArchiveFormat.tarGz.mediaTypes == ["application/gzip", "application/x-gzip", "application/x-tar"])
        #expect(ArchiveFormat.tarZst.mediaTypes == ["application/zstd", "application/x-tar"])
        #expect(ArchiveFormat.compressedEndings == ["zip", "gz", "tgz", "zst"])
    }
}
