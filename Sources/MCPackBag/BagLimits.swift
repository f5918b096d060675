/// The limits that stop a decompression bomb, each an option of verify.
/// The defaults pass a 2 GB bundle of tens of thousands of tiles.
package struct BagLimits: Sendable {
    /// Total bytes of all entries once unpacked.
    package var maxTotalBytes: Int64 = 8 << 30
    /// Bytes of any one entry.
    package var maxEntryBytes: Int64 = 2 << 30
    package var maxEntries: Int = 1_000_000
    /// Unpacked bytes per byte of archive, checked once past 16 MB unpacked.
    package var maxRatio: Double = 200

    package init() {}

    /// For reading back an archive mcpack has just written: its size is
    /// what the payload made it, not a hostile claim.
    package static let unlimited: BagLimits = {
        var limits = BagLimits()
        limits.maxTotalBytes = .max
        limits.maxEntryBytes = .max
        limits.maxEntries = .max
        limits.maxRatio = .infinity
        return limits
    }()
}
