import Foundation

/// The entry names a zip's central directory gives, in its order. libarchive
/// takes each name from the entry's local header; unzip, Python and Finder
/// take it from the central directory. A bag that verifies must unpack under
/// the names verify checked, so verify compares the two lists. Only names
/// are read (libarchive reads everything else); APPNOTE.TXT 4.3.12-4.3.16.
enum ZipDirectory {
    /// nil when there is no end-of-central-directory record to be found.
    static func names(of path: String) -> [[UInt8]]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size >= 22 else { return nil }

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

        var names: [[UInt8]] = []
        var at = 0
        while names.count < entries {
            guard at + 46 <= directory.count, directory.uint32(at: at) == 0x0201_4B50 else { return nil }
            let nameLength = Int(directory.uint16(at: at + 28))
            let extraLength = Int(directory.uint16(at: at + 30))
            let commentLength = Int(directory.uint16(at: at + 32))
            guard at + 46 + nameLength <= directory.count else { return nil }
            names.append(Array(directory[(at + 46)..<(at + 46 + nameLength)]))
            at += 46 + nameLength + extraLength + commentLength
        }
        return names
    }

    private static func read(_ handle: FileHandle, at offset: UInt64, count: Int) -> [UInt8]? {
        guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.read(upToCount: count), data.count == count else {
            return nil
        }
        return [UInt8](data)
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

private extension Array where Element == UInt8 {
    func uint16(at i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }
    func uint32(at i: Int) -> UInt32 { UInt32(uint16(at: i)) | UInt32(uint16(at: i + 2)) << 16 }
    func uint64(at i: Int) -> UInt64 { UInt64(uint32(at: i)) | UInt64(uint32(at: i + 4)) << 32 }
}
