import Archiving
import FileIO
import Foundation
import Hashing

/// An archive's entries hashed on every core while `BagReader` walks the
/// archive on its own thread.
///
/// A zip's stored entries are hashed where they lie (`Job`): libarchive
/// reads each entry's local header (its name, type, method, warnings, as
/// for every other entry), says where the bytes start, and leaves them
/// unread; a worker reads them by offset, with their local header in
/// front, which it checks again (the signature, stored, not encrypted, the
/// data where libarchive found them), and hashes them. No inflate, no copy
/// beyond the read, and no CRC-32 unless the reader checks CRCs.
///
/// The entries libarchive unpacks (a tar's, a zip's deflated ones) are
/// unpacked on the walking thread, copied out of libarchive's buffer into
/// a slab of this class's, and hashed here from that copy (`Unpacked`)
/// while the next is unpacked.
final class EntryWorkers: @unchecked Sendable {
    /// One entry's bytes to hash: `count` bytes from `dataStart`, whose
    /// local header is at `localHeader` (entry `index` of the directory).
    struct Job {
        var ticket: Int
        var index: Int
        var localHeader: UInt64
        var dataStart: UInt64
        var count: Int64
        var bytes: BagReader.Keep.Bytes
        var digests: Set<DigestAlgorithm>
        /// The CRC-32 to check the bytes against, when CRCs are checked.
        var crc: UInt32?
    }

    /// An entry libarchive unpacked, read whole and counted against the
    /// limits on the walking thread: `bytes` (in one of `slab()`'s slabs,
    /// left alone until the walking thread has taken this entry's outcome)
    /// to put through `hashers` (made there, so that one that cannot be
    /// made fails the read as it always did) and to hold as `keep` says.
    struct Unpacked: @unchecked Sendable {
        var ticket: Int
        var bytes: UnsafeRawBufferPointer
        var keep: BagReader.Keep.Bytes
        var hashers: [(DigestAlgorithm, Digest)]
    }

    private enum Batch {
        case spans([Job])
        case unpacked([Unpacked])
    }

    enum Outcome {
        case read(digests: [DigestAlgorithm: String], data: Data?, head: Data?)
        /// What is wrong with the entry's bytes, in the words a read through
        /// libarchive would give.
        case damaged(String)
    }

    /// A job's local header and name and extra field at most: 30 bytes and
    /// two 16-bit lengths.
    private static let headerLimit: UInt64 = UInt64(ZipDirectory.LocalHeader.size) + 2 * 0xFFFF
    /// A worker's buffer: entries that lie one after another (their headers
    /// between) read together, up to its size at a time, a size whose copy
    /// and hash stay in the core's cache (`FileChunks.readSize`).
    private static let bufferSize = FileChunks.readSize

    private let file: FileReader
    private let condition = NSCondition()
    private var outcomes: [Int: Outcome] = [:]
    private var running = 0
    /// Directory entries whose local header a worker found where the
    /// directory points, stored as it says.
    private var checked: [Bool]
    private var buffers: [UnsafeMutableRawBufferPointer] = []
    /// Every slab made, and those free again: touched only by the walking
    /// thread, and freed here, after the last worker has let go of this.
    private var slabs: [UnsafeMutableRawBufferPointer] = []
    private var freeSlabs: [UnsafeMutableRawBufferPointer] = []

    init(_ file: FileReader, entries: Int) {
        self.file = file
        checked = Array(repeating: false, count: entries)
    }

    deinit {
        for buffer in buffers + slabs { buffer.deallocate() }
    }

    /// Room for unpacked entries, `slabSize` bytes: one used before if one
    /// was handed back. Copies into slabs reused, not into a fresh block of
    /// memory an entry, spared the walking thread malloc's time and the
    /// kernel's clearing of the pages it kept handing back and taking anew.
    func slab() -> UnsafeMutableRawBufferPointer {
        if let free = freeSlabs.popLast() { return free }
        let slab = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.slabSize, alignment: 16)
        slabs.append(slab)
        return slab
    }

    /// A slab none of whose entries a worker is still to hash.
    func recycle(_ slab: UnsafeMutableRawBufferPointer) {
        freeSlabs.append(slab)
    }

    /// The largest entry a slab holds.
    static let slabSize = 1 << 20

    /// Batches not yet taken by a worker, and whether the workers are to end.
    private var waiting: [Batch] = []
    private var waitingHead = 0
    private var workers = 0
    private var stopped = false

    /// Hashes `jobs` on a worker, in order. The workers are threads of their
    /// own, one a core, not Dispatch's: its pool is as wide as the cores,
    /// and the thread walking the headers and the one hashing the archive
    /// for its .sha256 may hold both, waiting or not, which left batches
    /// queued behind them.
    func submit(_ jobs: [Job]) {
        guard !jobs.isEmpty else { return }
        submit(.spans(jobs))
    }

    /// Hashes `jobs` on a worker, in order.
    func submit(unpacked jobs: [Unpacked]) {
        guard !jobs.isEmpty else { return }
        submit(.unpacked(jobs))
    }

    private func submit(_ batch: Batch) {
        condition.lock()
        running += 1
        waiting.append(batch)
        let start = workers < Self.cores && waiting.count - waitingHead > 0
        if start { workers += 1 }
        condition.broadcast()
        condition.unlock()
        if start {
            let thread = Thread { [self] in work() }
            thread.name = "mcpack.stored-spans"
            thread.start()
        }
    }

    /// Ends the workers once the batches given them are done.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private static let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)

    private func work() {
        while true {
            condition.lock()
            while waitingHead == waiting.count && !stopped { condition.wait() }
            if waitingHead == waiting.count {
                workers -= 1
                condition.unlock()
                return
            }
            let batch = waiting[waitingHead]
            waitingHead += 1
            if waitingHead == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                waitingHead = 0
            }
            condition.unlock()
            switch batch {
            case .spans(let jobs): hashBatch(jobs)
            case .unpacked(let jobs): hashUnpacked(jobs)
            }
        }
    }

    private func hashUnpacked(_ jobs: [Unpacked]) {
        var done: [(Int, Outcome)] = []
        done.reserveCapacity(jobs.count)
        for job in jobs {
            var held = Held(BagReader.Keep(job.keep))
            // Held throws only what a caller's stream throws; an unpacked
            // entry has none.
            try? held.take(job.bytes, size: Int64(job.bytes.count), hashing: job.hashers)
            done.append((job.ticket, .read(digests: Digest.finish(job.hashers), data: held.data, head: held.head)))
        }
        deliver(done)
    }

    /// A batch's outcomes handed back, and the directory entries whose local
    /// headers it found, and its buffer to the next batch.
    private func deliver(_ done: [(Int, Outcome)], headers: [Int] = [], buffer: UnsafeMutableRawBufferPointer? = nil) {
        condition.lock()
        for (ticket, outcome) in done { outcomes[ticket] = outcome }
        for index in headers { checked[index] = true }
        if let buffer { buffers.append(buffer) }
        running -= 1
        condition.broadcast()
        condition.unlock()
    }

    private func hashBatch(_ jobs: [Job]) {
        let buffer = takeBuffer()
        var done: [(Int, Outcome)] = []
        var headers: [Int] = []
        // Entries that lie one after another are read together, in one
        // read of their whole extent; one too large alone, by itself.
        var first = 0
        while first < jobs.count {
            var last = first
            var end = jobs[first].dataStart + UInt64(jobs[first].count)
            // Each entry's header before its data: a hostile directory's
            // offsets must not make a range run backwards.
            while last + 1 < jobs.count, jobs[last + 1].localHeader >= end, jobs[last + 1].localHeader < jobs[last + 1].dataStart,
                  jobs[last + 1].dataStart + UInt64(jobs[last + 1].count) - jobs[first].localHeader <= UInt64(buffer.count) {
                last += 1
                end = jobs[last].dataStart + UInt64(jobs[last].count)
            }
            let start = jobs[first].localHeader
            let together = last > first && jobs[first].localHeader < jobs[first].dataStart && end - start <= UInt64(buffer.count)
                && file.read(at: start, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<Int(end - start)])) == Int(end - start)
            for job in jobs[first...last] {
                let (outcome, headerFound) = together
                    ? hash(job, in: UnsafeRawBufferPointer(rebasing: buffer[Int(job.localHeader - start)..<Int(job.dataStart - start + UInt64(job.count))]))
                    : run(job, buffer)
                done.append((job.ticket, outcome))
                if headerFound { headers.append(job.index) }
            }
            first = last + 1
        }
        deliver(done, headers: headers, buffer: buffer)
    }

    /// The outcome of `ticket`, once its worker is done.
    func take(_ ticket: Int) -> Outcome {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let outcome = outcomes.removeValue(forKey: ticket) { return outcome }
            condition.wait()
        }
    }

    func isDone(_ ticket: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return outcomes[ticket] != nil
    }

    /// Waits for every job submitted; then which directory entries' local
    /// headers were found as the directory says.
    func finish() -> [Bool] {
        condition.lock()
        defer { condition.unlock() }
        while running > 0 { condition.wait() }
        return checked
    }

    private func takeBuffer() -> UnsafeMutableRawBufferPointer {
        condition.lock()
        defer { condition.unlock() }
        return buffers.popLast() ?? UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferSize, alignment: 16)
    }

    /// Hashes one entry from `bytes`, read from its local header to the end
    /// of its data; whether its local header was found as the directory says.
    private func hash(_ job: Job, in bytes: UnsafeRawBufferPointer) -> (Outcome, Bool) {
        guard job.localHeader < job.dataStart, bytes.count >= ZipDirectory.LocalHeader.size,
              let local = ZipDirectory.LocalHeader(UnsafeRawBufferPointer(rebasing: bytes[0..<ZipDirectory.LocalHeader.size]), at: job.localHeader),
              local.dataStart == job.dataStart, local.method == 0, !local.isEncrypted else {
            return (.damaged(Self.misplaced), false)
        }
        let data = UnsafeRawBufferPointer(rebasing: bytes[Int(job.dataStart - job.localHeader)...])
        var held = Held(BagReader.Keep(job.bytes))
        var digests: [DigestAlgorithm: String] = [:]
        digests.reserveCapacity(job.digests.count)
        for algorithm in job.digests {
            guard let hasher = try? Digest(algorithm) else { return (.damaged("cannot hash the entry (\(algorithm.rawValue))"), true) }
            hasher.update(data)
            digests[algorithm] = hasher.finish()
        }
        if let declared = job.crc {
            var crc = CRC32()
            crc.update(data)
            if crc.value != declared { return (.damaged(CRC32.mismatch(computed: crc.value, declared: declared)), true) }
        }
        try? held.take(data, size: Int64(data.count))
        return (.read(digests: digests, data: held.data, head: held.head), true)
    }

    /// Reads and hashes one entry; whether its local header was found as
    /// the directory says.
    private func run(_ job: Job, _ buffer: UnsafeMutableRawBufferPointer) -> (Outcome, Bool) {
        let end = job.dataStart + UInt64(job.count)
        guard job.localHeader < job.dataStart, job.dataStart - job.localHeader <= Self.headerLimit else {
            return (.damaged(Self.misplaced), false)
        }
        // The local header and the first of the data in one read.
        let first = Int(min(UInt64(buffer.count), end - job.localHeader))
        guard let read = file.read(at: job.localHeader, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<first])) else {
            return (.damaged("cannot read the entry's data"), false)
        }
        guard read >= ZipDirectory.LocalHeader.size,
              let local = ZipDirectory.LocalHeader(UnsafeRawBufferPointer(rebasing: buffer[0..<ZipDirectory.LocalHeader.size]), at: job.localHeader),
              local.dataStart == job.dataStart, local.method == 0, !local.isEncrypted else {
            return (.damaged(Self.misplaced), false)
        }
        guard read == first else { return (.damaged(Self.truncated), true) }
        var hashers: [(DigestAlgorithm, Digest)] = []
        for algorithm in job.digests.sorted() {
            guard let hasher = try? Digest(algorithm) else { return (.damaged("cannot hash the entry (\(algorithm.rawValue))"), true) }
            hashers.append((algorithm, hasher))
        }
        var held = Held(BagReader.Keep(job.bytes))
        var crc = CRC32()
        var size: Int64 = 0
        func take(_ chunk: UnsafeRawBufferPointer) {
            if job.crc != nil { crc.update(chunk) }
            size += Int64(chunk.count)
            try? held.take(chunk, size: size, hashing: hashers)
        }
        take(UnsafeRawBufferPointer(rebasing: buffer[Int(job.dataStart - job.localHeader)..<first]))
        var position = job.localHeader + UInt64(first)
        while position < end {
            let count = Int(min(UInt64(buffer.count), end - position))
            guard let read = file.read(at: position, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])) else {
                return (.damaged("cannot read the entry's data"), true)
            }
            guard read == count else { return (.damaged(Self.truncated), true) }
            take(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            position += UInt64(count)
        }
        if let declared = job.crc, crc.value != declared {
            return (.damaged(CRC32.mismatch(computed: crc.value, declared: declared)), true)
        }
        let digests = Digest.finish(hashers)
        return (.read(digests: digests, data: held.data, head: held.head), true)
    }

    private static let misplaced = "the entry's local header is not where the zip's central directory and the entry's data say; unzip may extract other bytes"
    private static let truncated = "the archive ends inside the entry's data"
}

