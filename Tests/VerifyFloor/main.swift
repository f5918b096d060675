// mcpack-verify-floor PATH: the floor under `mcpack verify PATH` and
// MCPackReader's verify, for scripts/bench.sh. It computes every digest a
// verify must compute, over the same bytes, on every core, and nothing
// else: no rule, no manifest compared, nothing kept per file.
//
//   a zip      each entry's SHA-256, read at the offset its central directory
//              gives (a stored entry's bytes as they lie, no CRC-32, no
//              inflate; a deflated one inflated), and the SHA-256 of the
//              whole archive (its .sha256), all spread over the cores
//   a tar      (plain, .gz, .zst) decompressed and split by libarchive on
//              one thread, each entry's SHA-256 on the others, and the
//              archive's own SHA-256 beside them
//   a folder   each file's SHA-256, the files spread over the cores
//
// Prints one JSON object: the files and bytes hashed.
import Archiving
import CZlib
import FileIO
import Foundation
import Hashing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let cores = ProcessInfo.processInfo.activeProcessorCount
// The product's read size (FileChunks.readSize): a floor reading through a
// larger buffer, which spills the core's cache, would be slower than the
// product for it, and flatter every ratio.
let chunk = FileChunks.readSize

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("mcpack-verify-floor: \(message)\n".utf8))
    exit(2)
}

/// Counts what the workers hashed.
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var files = 0
    private(set) var bytes: Int64 = 0
    func add(files: Int, bytes: Int64) {
        lock.lock()
        self.files += files
        self.bytes += bytes
        lock.unlock()
    }
}

/// SHA-256 of `count` bytes of `fd` from `offset`, through `buffer`.
func hashRange(_ fd: Int32, from offset: Int64, count: Int64, _ buffer: UnsafeMutableRawBufferPointer) -> Bool {
    let hasher = Digest()
    var done: Int64 = 0
    while done < count {
        let n = pread(fd, buffer.baseAddress, Int(min(Int64(buffer.count), count - done)), off_t(offset + done))
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return false }
        hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        done += Int64(n)
    }
    _ = hasher.finishBytes()
    return true
}

/// SHA-256 of a whole file, read front to back.
func hashFile(_ path: String, _ buffer: UnsafeMutableRawBufferPointer) -> Int64? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    let hasher = Digest()
    var total: Int64 = 0
    while true {
        let n = read(fd, buffer.baseAddress, buffer.count)
        if n < 0 && errno == EINTR { continue }
        guard n >= 0 else { return nil }
        if n == 0 { break }
        hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        total += Int64(n)
    }
    _ = hasher.finishBytes()
    return total
}

/// A raw deflate stream of `count` bytes at `offset`, inflated and hashed.
func hashDeflated(_ fd: Int32, from offset: Int64, count: Int64, _ buffer: UnsafeMutableRawBufferPointer) -> Int64? {
    var stream = z_stream()
    guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
    defer { inflateEnd(&stream) }
    let input = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(min(count, Int64(chunk))), alignment: 16)
    defer { input.deallocate() }
    let hasher = Digest()
    var read: Int64 = 0, out: Int64 = 0
    var status = Z_OK
    while status != Z_STREAM_END {
        if stream.avail_in == 0 {
            guard read < count else { return nil }
            let n = pread(fd, input.baseAddress, Int(min(Int64(input.count), count - read)), off_t(offset + read))
            guard n > 0 else { return nil }
            read += Int64(n)
            stream.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.avail_in = uInt(n)
        }
        stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = uInt(buffer.count)
        status = inflate(&stream, Z_NO_FLUSH)
        guard status == Z_OK || status == Z_STREAM_END else { return nil }
        let made = buffer.count - Int(stream.avail_out)
        hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<made]))
        out += Int64(made)
    }
    _ = hasher.finishBytes()
    return out
}

/// Runs `work(i, buffer)` for i in 0..<count on every core, each worker
/// with a buffer of its own.
func spread(_ count: Int, _ work: @Sendable @escaping (Int, UnsafeMutableRawBufferPointer) -> Void) {
    let next = ManagedAtomicCounter()
    DispatchQueue.concurrentPerform(iterations: cores) { _ in
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let i = next.take()
            guard i < count else { return }
            work(i, buffer)
        }
    }
}

final class ManagedAtomicCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func take() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value - 1
    }
}

func floorOfZip(_ path: String, _ tally: Tally) {
    guard let entries = ZipDirectory.entries(of: path) else { fail("\(path): no readable central directory") }
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { fail("cannot open \(path)") }
    defer { close(fd) }
    // Work item 0 is the archive's own SHA-256, the longest single task,
    // so it starts first; the entries follow in batches of 64.
    let batch = 64
    let batches = (entries.count + batch - 1) / batch
    spread(1 + batches) { item, buffer in
        if item == 0 {
            guard let size = hashFile(path, buffer) else { fail("cannot read \(path)") }
            tally.add(files: 0, bytes: size)
            return
        }
        var files = 0, bytes: Int64 = 0
        for entry in entries[((item - 1) * batch)..<min(entries.count, item * batch)] where entry.name.last != UInt8(ascii: "/") {
            var header = [UInt8](repeating: 0, count: 30)
            guard pread(fd, &header, 30, off_t(entry.localHeader)) == 30 else { fail("\(path): cannot read a local header") }
            let data = Int64(entry.localHeader) + 30 + Int64(UInt16(header[26]) | UInt16(header[27]) << 8)
                + Int64(UInt16(header[28]) | UInt16(header[29]) << 8)
            switch entry.method {
            case 0:
                guard hashRange(fd, from: data, count: Int64(entry.compressedSize), buffer) else { fail("\(path): cannot read an entry") }
                bytes += Int64(entry.compressedSize)
            case 8:
                guard let out = hashDeflated(fd, from: data, count: Int64(entry.compressedSize), buffer) else { fail("\(path): cannot inflate an entry") }
                bytes += out
            default:
                fail("\(path): compression method \(entry.method)")
            }
            files += 1
        }
        tally.add(files: files, bytes: bytes)
    }
}

/// Entries' bytes handed from the reading thread to the hashing workers.
final class Handover: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [Data] = []
    private var ended = false
    private let limit = 64

    func put(_ data: Data) {
        condition.lock()
        while queue.count >= limit { condition.wait() }
        queue.append(data)
        condition.broadcast()
        condition.unlock()
    }

    func end() {
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    func take() -> Data? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !ended { condition.wait() }
        guard !queue.isEmpty else { return nil }
        condition.broadcast()
        return queue.removeFirst()
    }
}

func floorOfTar(_ path: String, _ tally: Tally) {
    let handover = Handover()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        guard let size = hashFile(path, buffer) else { fail("cannot read \(path)") }
        tally.add(files: 0, bytes: size)
    }
    for _ in 0..<max(1, cores - 1) {
        DispatchQueue.global().async(group: group) {
            while let data = handover.take() {
                let hasher = Digest()
                hasher.update(data)
                _ = hasher.finishBytes()
                tally.add(files: 1, bytes: Int64(data.count))
            }
        }
    }
    do {
        let reader = try ArchiveReader(path: path)
        while let entry = try reader.next() {
            guard entry.isRegular else { continue }
            var data = Data()
            if let size = entry.size { data.reserveCapacity(Int(size)) }
            try reader.readData { data.append(contentsOf: $0) }
            handover.put(data)
        }
    } catch {
        fail("\(path): \(error)")
    }
    handover.end()
    group.wait()
}

func floorOfFolder(_ path: String, _ tally: Tally) {
    // Listed as verify lists it (FileManager's enumerator and attributes
    // took most of this floor's time), but in no order: the order verify
    // hands its files over in is its own work.
    let files = FileSystem.entries(under: path).filter { $0.kind == .regular }.map { path + "/" + $0.path }
    if files.isEmpty { fail("no files under \(path)") }
    let batch = 64
    let listed = files
    spread((files.count + batch - 1) / batch) { item, buffer in
        var bytes: Int64 = 0, count = 0
        for file in listed[(item * batch)..<min(listed.count, (item + 1) * batch)] {
            guard let size = hashFile(file, buffer) else { fail("cannot read \(file)") }
            bytes += size
            count += 1
        }
        tally.add(files: count, bytes: bytes)
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: mcpack-verify-floor ARCHIVE-OR-BAG-FOLDER\n".utf8))
    exit(2)
}
let path = arguments[1]
var isFolder: ObjCBool = false
guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { fail("no such file or folder: \(path)") }
let tally = Tally()
let started = Date()
if isFolder.boolValue {
    floorOfFolder(path, tally)
} else if ZipDirectory.entries(of: path) != nil {
    floorOfZip(path, tally)
} else {
    floorOfTar(path, tally)
}
print("{\"files\": \(tally.files), \"bytesHashed\": \(tally.bytes), \"seconds\": \(Date().timeIntervalSince(started)), \"cores\": \(cores)}")
