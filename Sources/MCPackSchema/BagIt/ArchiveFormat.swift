/// A serialized bag's format: the one list every part of mcpack names
/// archives from (bundle.toml's `format`, the archive writer, the files a
/// rebuild copies from and diff looks up, verify's top-folder and version
/// rules, a BagIt profile's serializations).
public enum ArchiveFormat: String, Sendable, CaseIterable, Codable {
    case zip
    case tar
    case tarGz = "tar.gz"
    case tarZst = "tar.zst"

    /// What bundle.toml's `format` accepts, in the order its error lists
    /// them. A plain tar is read, never written: it would only be larger
    /// than a compressed one.
    public static let built: [ArchiveFormat] = [.zip, .tarZst, .tarGz]

    /// The stream around the archive. A zip compresses each entry itself.
    public enum Compression: Sendable {
        case none, gzip, zstd
    }

    public var compression: Compression {
        switch self {
        case .zip, .tar: return .none
        case .tarGz: return .gzip
        case .tarZst: return .zstd
        }
    }

    /// As bundle.toml spells it, and the ending mcpack gives the archive.
    public var fileExtension: String { rawValue }

    /// Every ending a file of this format is known by, the one mcpack
    /// writes first: other tools name a gzipped tar `.tgz`.
    public var fileExtensions: [String] {
        self == .tarGz ? [rawValue, "tgz"] : [rawValue]
    }

    /// Its MIME type, as a BagIt profile's `acceptSerialization` names it.
    public var mediaType: String {
        switch self {
        case .zip: return "application/zip"
        case .tar: return "application/x-tar"
        case .tarGz: return "application/gzip"
        case .tarZst: return "application/zstd"
        }
    }

    /// Every MIME type a file of this format answers to: a compressed tar
    /// is its compression's type, and also the tar it holds (what Python's
    /// mimetypes, and so bagit-profile, call it).
    public var mediaTypes: [String] {
        switch self {
        case .zip, .tar: return [mediaType]
        case .tarGz: return [mediaType, "application/x-gzip", ArchiveFormat.tar.mediaType]
        case .tarZst: return [mediaType, ArchiveFormat.tar.mediaType]
        }
    }

    /// The format a file's name ends in, with the name before that ending
    /// (`magna-carta-1.0.0` of `magna-carta-1.0.0.tar.gz`); nil for any
    /// other name. Compared as spelled: `.ZIP` is not mcpack's.
    public static func named(_ fileName: String) -> (format: ArchiveFormat, stem: String)? {
        match(fileName, allCases.flatMap { format in format.fileExtensions.map { (format, $0) } })
    }

    /// As `named`, for an archive as mcpack writes it: a format of `built`,
    /// with the ending mcpack gives it (a rebuild and diff look for their
    /// own archives, not for any `.tgz`).
    public static func written(_ fileName: String) -> (format: ArchiveFormat, stem: String)? {
        match(fileName, built.map { ($0, $0.fileExtension) })
    }

    private static func match(_ fileName: String, _ endings: [(ArchiveFormat, String)]) -> (format: ArchiveFormat, stem: String)? {
        for (format, ending) in endings where fileName.hasSuffix("." + ending) {
            return (format, String(fileName.dropLast(ending.count + 1)))
        }
        return nil
    }

    /// The endings of files compressed already: a payload file so named is
    /// stored, not deflated again.
    public static let compressedEndings: Set<String> = Set(allCases.filter { $0 != .tar }.flatMap { format in
        format.fileExtensions.map { $0.split(separator: ".").last.map(String.init) ?? $0 }
    })
}
