import FileIO
import Foundation

/// What a zip's central directory says of each entry. libarchive takes each
/// entry's name and compression method from its local header; unzip, Python
/// and Finder take them from the central directory. A bag that verifies must
/// unpack as verify read it, so verify compares the two (the corruption
/// campaign found both kinds of difference passing). A build also takes a
/// previous archive's entry sizes from here rather than reading every local
/// header (each is checked again as the entry is copied). Only these fields
/// are read; libarchive reads the rest. APPNOTE.TXT 4.3.7, 4.3.12-4.3.16.
public enum ZipDirectory {
    public struct Entry: Sendable {
        public var name: [UInt8]
        public var method: UInt16
        /// Where the entry's local header starts.
        public var localHeader: UInt64
        /// The size the directory declares once unpacked.
        public var size: UInt64 = 0
        /// The size the directory declares as stored (equal to `size` for
        /// a stored entry), which a reader by offset reads no further than.
        public var compressedSize: UInt64 = 0
        /// The CRC-32 the directory declares.
        public var crc32: UInt32 = 0
    }

    /// An entry whose local header is not what the central directory says.
    public struct Mismatch: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// No local header starts where the directory points.
            case noLocalHeader(offset: UInt64)
            /// The local header gives another compression method.
            case method(directory: UInt16, local: UInt16)
        }
        public var name: [UInt8]
        public var kind: Kind

        public init(name: [UInt8], kind: Kind) {
            self.name = name
            self.kind = kind
        }
    }

    /// A local file header's fixed fields (4.3.7), which a reader by offset
    /// checks before taking the bytes after it as the entry's data.
    public struct LocalHeader: Sendable {
        /// The fixed part's length; the name and extra field follow it.
        public static let size = 30
        public var flags: UInt16
        public var method: UInt16
        /// Where the entry's data starts: past the name and extra field.
        public var dataStart: UInt64

        /// nil unless `bytes` (at least `size` of them, read at `offset`)
        /// start with a local header's signature.
        public init?(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) {
            guard bytes.count >= Self.size, bytes.loadLittle32(0) == 0x0403_4B50 else { return nil }
            flags = bytes.loadLittle16(6)
            method = bytes.loadLittle16(8)
            dataStart = offset + UInt64(Self.size) + UInt64(bytes.loadLittle16(26)) + UInt64(bytes.loadLittle16(28))
        }

        /// Encrypted (traditional or strong): its data are not its bytes.
        public var isEncrypted: Bool { flags & 0x41 != 0 }
    }

    /// nil when there is no end-of-central-directory record to be found.
    public static func entries(of path: String) -> [Entry]? {
        guard let handle = try? FileReader(path: path), let size = handle.size, size >= 22 else { return nil }

        // The end record is in the last 22 + 65,535 (comment) bytes.
        let tailLength = min(size, 22 + 65_535 + 20)
        guard let tail = read(handle, at: size - tailLength, count: Int(tailLength)) else { return nil }
        guard let end = lastSignature(0x0605_4B50, in: tail, minimumRemaining: 22) else { return nil }
        var entries = UInt64(tail.uint16(at: end + 10))
        var directorySize = UInt64(tail.uint32(at: end + 12))
        var directoryOffset = UInt64(tail.uint32(at: end + 16))

        // Zip64: the locator sits just before the end record.
        if entries == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            guard end >= 20, tail.uint32(at: end - 20) == 0x0706_4B50 else { return nil }
            let recordOffset = tail.uint64(at: end - 20 + 8)
            guard recordOffset < size, let record = read(handle, at: recordOffset, count: 56),
                  record.uint32(at: 0) == 0x0606_4B50 else { return nil }
            entries = record.uint64(at: 32)
            directorySize = record.uint64(at: 40)
            directoryOffset = record.uint64(at: 48)
        }
        guard directoryOffset <= size, directorySize <= size - directoryOffset, directorySize <= 1 << 30,
              let directory = read(handle, at: directoryOffset, count: Int(directorySize)) else { return nil }

        var found: [Entry] = []
        var at = 0
        while found.count < entries {
            guard at + 46 <= directory.count, directory.uint32(at: at) == 0x0201_4B50 else { return nil }
            let nameLength = Int(directory.uint16(at: at + 28))
            let extraLength = Int(directory.uint16(at: at + 30))
            let commentLength = Int(directory.uint16(at: at + 32))
            guard at + 46 + nameLength + extraLength <= directory.count else { return nil }
            var offset = UInt64(directory.uint32(at: at + 42))
            var unpacked = UInt64(directory.uint32(at: at + 24))
            var packed = UInt64(directory.uint32(at: at + 20))
            if offset == 0xFFFF_FFFF || unpacked == 0xFFFF_FFFF || packed == 0xFFFF_FFFF {
                // Zip64: the 8-byte fields that overflowed, in the order
                // uncompressed size, compressed size, offset (4.5.3).
                let extra = Array(directory[(at + 46 + nameLength)..<(at + 46 + nameLength + extraLength)])
                let sizeOverflows = unpacked == 0xFFFF_FFFF
                let packedOverflows = packed == 0xFFFF_FFFF
                let skipped = (sizeOverflows ? 8 : 0) + (packedOverflows ? 8 : 0)
                guard let zip64 = zip64Field(in: extra) else { return nil }
                if sizeOverflows {
                    guard zip64.count >= 8 else { return nil }
                    unpacked = zip64.uint64(at: 0)
                }
                if packedOverflows {
                    let at = sizeOverflows ? 8 : 0
                    guard zip64.count >= at + 8 else { return nil }
                    packed = zip64.uint64(at: at)
                }
                if offset == 0xFFFF_FFFF {
                    guard zip64.count >= skipped + 8 else { return nil }
                    offset = zip64.uint64(at: skipped)
                }
            }
            found.append(Entry(name: Array(directory[(at + 46)..<(at + 46 + nameLength)]),
                               method: directory.uint16(at: at + 10), localHeader: offset, size: unpacked,
                               compressedSize: packed, crc32: directory.uint32(at: at + 16)))
            at += 46 + nameLength + extraLength + commentLength
        }
        return found
    }

    /// Entries whose local header is missing or gives another compression
    /// method than the central directory: unzip would fail on them.
    /// `checked(i)`: entry i's local header was read already, found where
    /// the directory points with the same method, and is not read again.
    public static func localHeaderMismatches(of path: String, _ entries: [Entry], checked: (Int) -> Bool = { _ in false }) -> [Mismatch] {
        guard let file = try? FileReader(path: path) else { return [] }
        var found: [Mismatch] = []
        for (index, entry) in entries.enumerated() where !checked(index) {
            guard let header = file.read(at: entry.localHeader, count: 30), header.uint32(at: 0) == 0x0403_4B50 else {
                found.append(Mismatch(name: entry.name, kind: .noLocalHeader(offset: entry.localHeader)))
                continue
            }
            let method = header.uint16(at: 8)
            if method != entry.method {
                found.append(Mismatch(name: entry.name, kind: .method(directory: entry.method, local: method)))
            }
        }
        return found
    }

    private static func zip64Field(in extra: [UInt8]) -> [UInt8]? {
        var at = 0
        while at + 4 <= extra.count {
            let id = extra.uint16(at: at)
            let size = Int(extra.uint16(at: at + 2))
            guard at + 4 + size <= extra.count else { return nil }
            if id == 0x0001 { return Array(extra[(at + 4)..<(at + 4 + size)]) }
            at += 4 + size
        }
        return nil
    }

    private static func read(_ file: FileReader, at offset: UInt64, count: Int) -> [UInt8]? {
        file.read(at: offset, count: count)
    }

    private static func lastSignature(_ signature: UInt32, in bytes: [UInt8], minimumRemaining: Int) -> Int? {
        guard bytes.count >= minimumRemaining else { return nil }
        var at = bytes.count - minimumRemaining
        while at >= 0 {
            if bytes.uint32(at: at) == signature { return at }
            at -= 1
        }
        return nil
    }
}

private extension UnsafeRawBufferPointer {
    func loadLittle16(_ i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }
    func loadLittle32(_ i: Int) -> UInt32 { UInt32(loadLittle16(i)) | UInt32(loadLittle16(i + 2)) << 16 }
}

private extension Array where Element == UInt8 {
    func uint16(at i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }
    func uint32(at i: Int) -> UInt32 { UInt32(uint16(at: i)) | UInt32(uint16(at: i + 2)) << 16 }
    func uint64(at i: Int) -> UInt64 { UInt64(uint32(at: i)) | UInt64(uint32(at: i + 4)) << 32 }
}
