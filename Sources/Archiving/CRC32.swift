import CZlib
import Foundation

/// The CRC-32 a zip declares of each entry (zlib's), for a reader that
/// takes a stored entry's bytes by offset instead of through libarchive,
/// which checks it as it reads.
public struct CRC32: Sendable {
    public private(set) var value: UInt32 = 0

    public init() {}

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes
        while let base = rest.baseAddress, !rest.isEmpty {
            let count = min(rest.count, 1 << 30)
            value = UInt32(truncatingIfNeeded: crc32(uLong(value), base.assumingMemoryBound(to: Bytef.self), uInt(count)))
            rest = UnsafeRawBufferPointer(rebasing: rest[count...])
        }
    }

    /// libarchive's words for an entry whose CRC-32 is not the declared
    /// one, so that a zip reads as damaged alike whoever read it.
    public static func mismatch(computed: UInt32, declared: UInt32) -> String {
        "ZIP bad CRC: 0x\(String(computed, radix: 16)) should be 0x\(String(declared, radix: 16))"
    }
}
