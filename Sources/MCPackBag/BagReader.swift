import Archiving
import FileIO
import Foundation
import Hashing
import MCPackSchema

/// A bag's entries, from a serialized bag (zip, tar, tar.gz, tar.zst) or an
/// unpacked bag folder, in one streaming pass: nothing is unpacked to disk
/// unless the caller writes it. The one place mcpack opens an archive, so
/// the safety rules and limits are applied once, whoever reads: an entry
/// with an unsafe name, a link, a device, a duplicate, or one past a limit
/// is never handed over, only reported as an `Issue`.
///
/// Entries come in the archive's order (mcpack's: the payload, then the
/// tag files); a folder's tag files first, then its payload in byte order,
/// so two versions read side by side pair up early. For each entry the caller's `keep`
/// says what to hold of it: its digests, a head of N bytes, the whole file,
/// its bytes handed on as they are read, or nothing (not read at all).
package final class BagReader {
    /// An entry, named before any of its bytes are read.
    package struct Entry: Sendable {
        /// As stored: `top/data/x.png` in an archive, `data/x.png` in a folder.
        package var name: String
        /// Inside the bag: `data/x.png`, `bagit.txt`.
        package var path: String
        /// The archive's top folder; empty for a folder.
        package var top: String
        /// The size the archive declares (a folder: the file's size).
        package var size: Int64?
    }

    /// What to hold of an entry while it is read.
    package struct Keep {
        /// How much of its bytes is held; verify's inputs say it of each of
        /// their files (`BundleInput.verifyKeeps`).
        package enum Bytes: Equatable {
            /// Not read: the entry is handed over with its declared size.
            case skip
            /// Read for its size and digests (and `stream`), none held.
            case digestsOnly
            /// The first N bytes: a picture's header.
            case head(Int)
            /// All of it, up to `wholeLimit`; larger, no bytes are kept.
            case whole

            package var headBytes: Int? {
                if case .head(let bytes) = self { return bytes }
                return nil
            }
        }

        package var bytes: Bytes
        package var digests: Set<DigestAlgorithm>
        /// Each chunk handed on as read (unpacking to disk), never held.
        package var stream: ((UnsafeRawBufferPointer) throws -> Void)?

        package init(_ bytes: Bytes, digests: Set<DigestAlgorithm> = [], stream: ((UnsafeRawBufferPointer) throws -> Void)? = nil) {
            self.bytes = bytes
            self.digests = digests
            self.stream = stream
        }

        package static var skip: Keep { Keep(.skip) }

        /// Every chunk handed to `body` as read, none held.
        package static func stream(digests: Set<DigestAlgorithm> = [], _ body: @escaping (UnsafeRawBufferPointer) throws -> Void) -> Keep {
            Keep(.digestsOnly, digests: digests, stream: body)
        }
        /// Past this a whole file is not held: a JSON or tag file that large
        /// is not one mcpack wrote.
        package static let wholeLimit: Int64 = 64 << 20
    }

    /// An entry read, with what its `Keep` asked for.
    package struct File {
        package var entry: Entry
        /// Bytes read; for an entry not read, or damaged, the size declared
        /// (what a bag's Oxum counts).
        package var size: Int64
        package var digests: [DigestAlgorithm: String] = [:]
        package var data: Data?
        package var head: Data?
        /// The archive itself says this entry's bytes are wrong (a zip CRC,
        /// a broken deflate stream); nothing read of it is handed over.
        package var damage: String?
    }

    /// Something wrong with the bag as stored. `rule` and `message` are
    /// what verify reports; the other callers refuse on it, or read on.
    package struct Issue: Error, Sendable, CustomStringConvertible {
        package enum Kind: Sendable, Equatable {
            case notUTF8, unsafeName(BagPath.Unsafe), link, special, duplicate, caseCollision
            case besideTop, topFolders, tooManyEntries, tooLarge
            case entryWarning, damaged, noCentralDirectory, truncated, zipDirectory, unreadable
        }

        package var kind: Kind
        /// The entry as stored, or the archive's file name for the whole.
        package var path: String
        package var message: String
        /// Reading stopped here: later entries were not reached.
        package var stops = false
        /// What libarchive said, when it ended the read.
        package var cause: (any Error & Sendable)?

        package var rule: String {
            switch kind {
            case .notUTF8: return "unsafe-name"
            case .unsafeName(let unsafe): return unsafe.rule
            case .link, .special: return "unsafe-entry"
            case .duplicate: return "duplicate-entry"
            case .caseCollision: return "name-collision"
            case .besideTop, .topFolders: return "top-folder"
            case .tooManyEntries, .tooLarge: return "limits"
            case .entryWarning, .damaged: return "archive-damaged"
            case .noCentralDirectory, .truncated: return "truncated"
            case .zipDirectory: return "zip-directory"
            case .unreadable: return "unreadable"
            }
        }

        package var description: String { "\(path): \(message)" }
    }

    /// The path is neither a folder nor an archive libarchive can open.
    package struct CannotOpen: Error, Sendable, CustomStringConvertible {
        package var path: String
        package var cause: any Error & Sendable
        package var description: String { "\(cause)" }
    }

    package let path: String
    package let isFolder: Bool
    private let limits: BagLimits
    private var only: Set<String>?
    private let keep: (Entry) throws -> Keep
    private let refusing: (Issue) -> Bool

    /// Every issue met so far, in order.
    package private(set) var issues: [Issue] = []
    /// False when the bag was not read to its end (cut short, a limit, a
    /// zip read without its central directory).
    package private(set) var complete = true
    /// Where reading stopped before the end, when it did ("in X", "after
    /// X"): entries beyond it were not reached, which is not the same as missing.
    package private(set) var stoppedAt: String?
    /// Bytes read, once unpacked, damaged entries included.
    package private(set) var bytesRead: Int64 = 0
    /// An archive's top folders in the order met; a bag has one.
    package private(set) var tops: [String] = []

    private var finished = false
    /// Folded name to the first name that folded to it.
    private var folded: [String: String] = [:]
    /// The names after the first that folded alike.
    private var caseVariants = Set<String>()
    private let archiveName: String

    // An archive's state.
    private var archive: ArchiveReader?
    private var isZip = false
    /// The first entry, read while finding out whether a zip can be read
    /// through its central directory (libarchive reads all of it then).
    private var first: ArchiveReader.Entry??
    private var throughDirectory = false
    private let crossCheckZip: Bool
    private let zipDirectory: ZipBagDirectory?
    private let checkCRC: Bool
    private var streamedNames: [[UInt8]] = []
    private var fileSize: Int64 = 0
    private var entries = 0
    private var lastName: String?
    private var reopened = 0

    // An archive's entries hashed on the workers (`hashesOnWorkers`).
    private let hashesOnWorkers: Bool
    private var spans: EntryWorkers?
    /// The zip's directory, its local headers in ascending order (what a
    /// stored entry's bytes are looked up in).
    private var spanDirectory: [ZipDirectory.Entry] = []
    /// What `next()` hands over, in the archive's order, from `queueHead`
    /// on: entries read, entries being hashed, issues met between them.
    private var queue: [Queued] = []
    private var queueHead = 0
    private var hashing = 0
    private var batch: [EntryWorkers.Job] = []
    private var unpackedBatch: [EntryWorkers.Unpacked] = []
    private var batchBytes: Int64 = 0
    /// The bytes of unpacked entries handed to the workers and not yet
    /// handed over.
    private var unpackedHeld: Int64 = 0
    /// The slabs unpacked entries were copied into, oldest first, each with
    /// the last ticket put in it; the last is the one being filled, up to
    /// `slabUsed`. A slab goes back to the workers once its last entry is
    /// handed over: a worker is done with every entry handed over.
    private var slabsInUse: [(slab: UnsafeMutableRawBufferPointer, last: Int)] = []
    private var slabUsed = 0
    private var tickets = 0
    /// The last ticket sent to the workers.
    private var sentThrough = 0
    /// Entries read by offset so far (the rest through libarchive).
    package private(set) var readByOffset = 0
    /// Entries libarchive unpacked that were hashed on the workers.
    package private(set) var unpackedOnWorkers = 0
    /// Entries handed to the workers at most, and a batch's size.
    private static let window = 1024
    private static let batchLimit: Int64 = 1 << 20
    private static let batchCount = 256
    /// An unpacked entry up to this size, a slab's, is hashed on a worker,
    /// from a copy (a larger one here, as it is unpacked, so that none is
    /// held whole); and unpacked entries' bytes are held up to
    /// `unpackedHeldLimit` in all (in slabs, any two of which in a row
    /// hold more than one slab's worth: about twice that at most).
    private static let unpackedLimit = Int64(EntryWorkers.slabSize)
    private static let unpackedHeldLimit: Int64 = 16 << 20

    private enum Queued {
        case file(File)
        case issue(Issue)
        /// `unpacked`: the bytes read of an unpacked entry, held until it
        /// is handed over (nil for a stored entry read where it lies).
        case hashing(ticket: Int, entry: Entry, unpacked: Int64?)
    }

    // A folder's state.
    private var folderPaths: [(path: String, size: Int64)] = []
    private var folderNext = 0
    /// The files of a folder its listing found (none for an archive), for
    /// a caller to make room for.
    package var listedFiles: Int { folderPaths.count }
    /// The files of `folderPaths` taken from the workers so far; `ready`,
    /// those of them still to hand over.
    private var folderTaken = 0
    private var ready: [Result<File, Issue>] = []
    private var folderWorkers: FolderWorkers?

    /// Opens `path`, an archive or a bag folder. `only`: paths inside the
    /// bag to hand over, all others passed by unread (and the read ends
    /// when every one was found). `refusing`: the issues that end the read,
    /// thrown from `next()` (or here) as they are met; the others are only
    /// recorded. `crossCheckZip`: compare a zip's entries, once all are
    /// read, with what its central directory names (what unzip extracts);
    /// `zipDirectory`: that directory, if the caller has read it already.
    /// `keep`: asked once for each safe entry, in order, before it is read.
    /// `checkCRC: false`: a zip entry's CRC-32 is not checked, for a caller
    /// that checks every byte against a manifest's SHA-256 anyway.
    /// `hashesOnWorkers`: an archive's entries, but for those the caller
    /// streams, are hashed on every core while the archive is walked
    /// (`EntryWorkers`): a zip's stored entries read where they lie, the
    /// others as libarchive unpacks them; handed over in order all the same.
    package init(_ path: String, limits: BagLimits = BagLimits(), only: Set<String>? = nil, crossCheckZip: Bool = false,
         zipDirectory: ZipBagDirectory? = nil, checkCRC: Bool = true, hashesOnWorkers: Bool = false,
         refusing: @escaping (Issue) -> Bool = { _ in false }, keep: @escaping (Entry) throws -> Keep) throws {
        self.path = path
        self.hashesOnWorkers = hashesOnWorkers
        self.zipDirectory = zipDirectory
        // Grown one name at a time, the table of a zip's 17,000 was copied over and over.
        folded.reserveCapacity(zipDirectory?.raw.count ?? 0)
        self.limits = limits
        self.only = only
        self.keep = keep
        self.refusing = refusing
        self.crossCheckZip = crossCheckZip
        self.checkCRC = checkCRC
        archiveName = (path as NSString).lastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FileError(path: path, message: "no such file or folder")
        }
        isFolder = isDirectory.boolValue
        if isFolder {
            try listFolder()
        } else {
            try openArchive()
        }
    }

    deinit {
        spans?.stop()
        // A caller's stream is never called once its reader is gone.
        folderWorkers?.stop()
    }

    /// The next entry read, or nil at the end (or where reading stopped).
    package func next() throws -> File? {
        isFolder ? try nextInFolder() : try nextInArchive()
    }

    /// The top folder, the first met.
    package var top: String? { tops.first }

    private func report(_ issue: Issue) throws {
        // Behind entries still being hashed, it waits its turn.
        if queueHead < queue.count {
            queue.append(.issue(issue))
            return
        }
        try record(issue)
    }

    private func record(_ issue: Issue) throws {
        issues.append(issue)
        if refusing(issue) { throw issue }
    }

    private func stop(_ issue: Issue, at place: String?) throws {
        complete = false
        stoppedAt = place
        finished = true
        var stopping = issue
        stopping.stops = true
        try report(stopping)
    }

    // MARK: Archives

    private func openArchive() throws {
        isZip = Self.isZip(path)
        fileSize = Int64((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0)
        if isZip {
            // Stored entries read by offset need a directory in libarchive's
            // order; libarchive then reads little more than the headers.
            var offsetDirectory: [ZipDirectory.Entry]?
            if hashesOnWorkers, only == nil, let directory = zipDirectory?.raw ?? ZipDirectory.entries(of: path), Self.ascending(directory) {
                offsetDirectory = directory
            }
            let probe = Result { () throws -> (ArchiveReader, ArchiveReader.Entry?) in
                let opened = try ArchiveReader(path: path, checkCRC: checkCRC, blockSize: offsetDirectory == nil ? 1 << 20 : 1 << 12)
                return (opened, try opened.next())
            }
            switch probe {
            case .success(let (opened, entry)):
                // entry is nil for a readable directory of no entries.
                archive = opened
                first = .some(entry)
                throughDirectory = true
                if let directory = offsetDirectory, let file = try? FileReader(path: path) {
                    spanDirectory = directory
                    spans = EntryWorkers(file, entries: directory.count)
                }
                return
            case .failure(let error):
                // Say what the entries hold all the same, read one by one.
                do { archive = try ArchiveReader(path: path, zip: .stream, checkCRC: checkCRC) } catch { throw CannotOpen(path: path, cause: error as? FileError ?? FileError(path: path, message: "\(error)")) }
                complete = false
                try report(Issue(kind: .noCentralDirectory, path: archiveName,
                                 message: "the zip has no readable central directory (cut short, or its end damaged); unzip and most tools cannot open it",
                                 cause: error as? FileError))
                return
            }
        }
        do { archive = try ArchiveReader(path: path, checkCRC: checkCRC) } catch { throw CannotOpen(path: path, cause: error as? FileError ?? FileError(path: path, message: "\(error)")) }
        // A tar's entries, unpacked on this thread, are hashed on the
        // workers: unpacking a tar.zst took this thread as long again as
        // hashing what it unpacked.
        if hashesOnWorkers, only == nil, let file = try? FileReader(path: path) {
            spans = EntryWorkers(file, entries: 0)
        }
    }

    private func nextInArchive() throws -> File? {
        guard archive != nil else { return nil }
        if let spans { return try nextThroughSpans(spans) }
        while !finished {
            if let only, only.isEmpty {
                // Every wanted entry found: the rest is not walked.
                finished = true
                return nil
            }
            guard let raw = try nextHeader() else { return nil }
            switch try admit(raw) {
            case .passed:
                continue
            case .stopped:
                return nil
            case .handed(let entry):
                let keeping = try keep(entry)
                if case .skip = keeping.bytes { return File(entry: entry, size: entry.size ?? 0) }
                return try read(entry, keeping)
            }
        }
        return nil
    }

    /// The next entry in order, stored ones hashed by the workers while
    /// the headers after them are walked, up to `window` ahead.
    private func nextThroughSpans(_ spans: EntryWorkers) throws -> File? {
        while true {
            if queueHead < queue.count {
                switch queue[queueHead] {
                case .issue(let issue):
                    dequeue()
                    try record(issue)
                    continue
                case .file(let file):
                    dequeue()
                    return file
                case .hashing(let ticket, let entry, let unpacked):
                    if finished || hashing >= Self.window || unpackedHeld >= Self.unpackedHeldLimit || spans.isDone(ticket) {
                        dequeue()
                        hashing -= 1
                        unpackedHeld -= unpacked ?? 0
                        // Only a batch not yet sent is sent early: sent at
                        // every hand-over, batches of one entry or two kept
                        // the workers waking.
                        if ticket > sentThrough { sendBatch() }
                        let outcome = spans.take(ticket)
                        releaseSlabs(through: ticket, spans)
                        return try handOver(entry, size: unpacked ?? entry.size ?? 0, outcome)
                    }
                }
            } else if finished {
                return nil
            }
            try walkOne(spans)
        }
    }

    private func dequeue() {
        queueHead += 1
        if queueHead == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
        } else if queueHead >= 4096 {
            queue.removeFirst(queueHead)
            queueHead = 0
        }
    }

    /// One header walked: its entry read, handed to a worker, or passed.
    private func walkOne(_ spans: EntryWorkers) throws {
        guard let raw = try nextHeader() else { return }
        switch try admit(raw) {
        case .passed, .stopped:
            return
        case .handed(let entry):
            let keeping = try keep(entry)
            if case .skip = keeping.bytes {
                queue.append(.file(File(entry: entry, size: entry.size ?? 0)))
            } else if let job = spanJob(raw, entry, keeping) {
                queue.append(.hashing(ticket: job.ticket, entry: entry, unpacked: nil))
                hashing += 1
                batch.append(job)
                batchBytes += job.count
                if batchBytes >= Self.batchLimit || batch.count >= Self.batchCount { sendBatch() }
            } else if keeping.stream == nil, let declared = entry.size, declared >= 0, declared <= Self.unpackedLimit {
                try unpackForWorkers(entry, keeping, declared: declared, spans)
            } else if let file = try read(entry, keeping) {
                queue.append(.file(file))
            }
        }
    }

    /// Unpacks an entry here, into a slab, and hands its bytes to a worker
    /// to hash while the next is unpacked.
    private func unpackForWorkers(_ entry: Entry, _ keeping: Keep, declared: Int64, _ spans: EntryWorkers) throws {
        let hashers = try keeping.digests.map { ($0, try Digest($0)) }
        let (room, fresh) = room(for: Int(declared), spans)
        // A slab taken for an entry that then fails goes straight back:
        // entries that fail, one after another, must not each hold one.
        func giveBack() {
            if let fresh { spans.recycle(fresh) }
        }
        // Bytes past the size the entry's header declares have no room; they
        // are counted, not copied. libarchive then calls the entry damaged
        // in its own words, as for a read in line: a tar's entry holds what
        // its header says, and a zip's that inflates past it is "wrong size".
        let unpacked = try unpack(entry) { chunk, size in
            guard size <= declared else { return }
            UnsafeMutableRawBufferPointer(rebasing: room[Int(size) - chunk.count..<Int(size)]).copyMemory(from: chunk)
        }
        guard case .read(let size) = unpacked else {
            giveBack()
            if case .ended(let file?) = unpacked { queue.append(.file(file)) }
            return
        }
        guard size <= declared else {
            giveBack()
            queue.append(.file(try damaged(entry, inflated: 0, "unpacks to \(size) bytes, more than the \(declared) its header declares")))
            return
        }
        tickets += 1
        unpackedOnWorkers += 1
        if let fresh {
            slabsInUse.append((fresh, tickets))
            slabUsed = Int(size)
        } else {
            slabsInUse[slabsInUse.count - 1].last = tickets
            slabUsed += Int(size)
        }
        queue.append(.hashing(ticket: tickets, entry: entry, unpacked: size))
        hashing += 1
        unpackedHeld += size
        unpackedBatch.append(EntryWorkers.Unpacked(ticket: tickets, bytes: UnsafeRawBufferPointer(rebasing: room[0..<Int(size)]),
                                                   keep: keeping.bytes, hashers: hashers))
        batchBytes += size
        if batchBytes >= Self.batchLimit || unpackedBatch.count >= Self.batchCount { sendBatch() }
    }

    /// Room for an unpacked entry of `count` bytes, at most a slab's: the
    /// rest of the slab being filled, or the start of a `fresh` one, which
    /// becomes the one filled only once the entry is read.
    private func room(for count: Int, _ spans: EntryWorkers) -> (UnsafeMutableRawBufferPointer, fresh: UnsafeMutableRawBufferPointer?) {
        if let current = slabsInUse.last, slabUsed + count <= EntryWorkers.slabSize {
            return (UnsafeMutableRawBufferPointer(rebasing: current.slab[slabUsed..<slabUsed + count]), nil)
        }
        let fresh = spans.slab()
        return (UnsafeMutableRawBufferPointer(rebasing: fresh[0..<count]), fresh)
    }

    /// Every entry up to `ticket` handed over: the slabs that held only
    /// those go back to the workers, and the one being filled, if it did,
    /// is filled again from its start.
    private func releaseSlabs(through ticket: Int, _ spans: EntryWorkers) {
        while let oldest = slabsInUse.first, oldest.last <= ticket {
            if slabsInUse.count == 1 {
                slabUsed = 0
                return
            }
            spans.recycle(slabsInUse.removeFirst().slab)
        }
    }

    /// The job that reads `entry` by offset, or nil when libarchive is to
    /// read it: not stored, streamed, warned of, not where the directory
    /// says, past the file's end or past a limit (which that read reports).
    private func spanJob(_ raw: ArchiveReader.Entry, _ entry: Entry, _ keeping: Keep) -> EntryWorkers.Job? {
        guard keeping.stream == nil, raw.warning == nil, let size = entry.size,
              let span = archive?.storedSpan(), span.count == size,
              let index = directoryIndex(before: UInt64(span.offset)) else { return nil }
        let listed = spanDirectory[index]
        // The directory's entry libarchive is reading: its local header the
        // last before the data, its name the one read, its sizes the ones
        // libarchive reads by, its bytes inside the file.
        guard listed.name == raw.rawPath, listed.method == 0,
              listed.size == UInt64(size), listed.compressedSize == UInt64(size),
              span.offset <= fileSize, size <= fileSize - span.offset,
              limitPassed(entry.name, entryBytes: size) == nil else { return nil }
        bytesRead += size
        tickets += 1
        readByOffset += 1
        return EntryWorkers.Job(ticket: tickets, index: index, localHeader: listed.localHeader, dataStart: UInt64(span.offset),
                               count: size, bytes: keeping.bytes, digests: keeping.digests, crc: checkCRC ? listed.crc32 : nil)
    }

    private func sendBatch() {
        sentThrough = tickets
        spans?.submit(batch)
        spans?.submit(unpacked: unpackedBatch)
        batch.removeAll(keepingCapacity: true)
        unpackedBatch.removeAll(keepingCapacity: true)
        batchBytes = 0
    }

    /// The last directory entry whose local header starts before `offset`.
    private func directoryIndex(before offset: UInt64) -> Int? {
        var low = 0, high = spanDirectory.count
        while low < high {
            let middle = (low + high) / 2
            if spanDirectory[middle].localHeader < offset { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// A directory whose local headers are each after the one before: the
    /// order libarchive walks them in, with no two at one offset.
    private static func ascending(_ directory: [ZipDirectory.Entry]) -> Bool {
        var last: UInt64?
        for entry in directory {
            if let last, entry.localHeader <= last { return false }
            last = entry.localHeader
        }
        return true
    }

    /// A hashed entry handed over, `size` bytes read; its damage said in
    /// its turn.
    private func handOver(_ entry: Entry, size: Int64, _ outcome: EntryWorkers.Outcome) throws -> File {
        switch outcome {
        case .read(let digests, let data, let head):
            return File(entry: entry, size: size, digests: digests, data: data, head: head)
        case .damaged(let message):
            try record(Issue(kind: .damaged, path: entry.name, message: message))
            return File(entry: entry, size: size, damage: message)
        }
    }

    /// The next entry's header; nil at the end, or where the archive can
    /// be read no further (said as an issue).
    private func nextHeader() throws -> ArchiveReader.Entry? {
        do {
            let next = try first ?? archive?.next()
            first = nil
            guard let next else {
                try endOfArchive()
                return nil
            }
            return next
        } catch let issue as Issue {
            throw issue
        } catch {
            try stop(Issue(kind: .truncated, path: archiveName, message: "the archive is damaged or truncated: \(error)", cause: error as? FileError),
                     at: lastName.map { "after \($0)" } ?? "at its start")
            return nil
        }
    }

    /// What becomes of an entry, by its header alone.
    private enum Admission {
        /// Refused or not wanted: reading goes on with the next.
        case passed
        /// Past a limit: reading ends here.
        case stopped
        /// Safe, wanted, and to be read.
        case handed(Entry)
    }

    /// The safety rules and limits an entry's header must pass before any
    /// of its bytes are read: every refusal is said as an issue.
    private func admit(_ raw: ArchiveReader.Entry) throws -> Admission {
        entries += 1
        lastName = raw.path ?? lastName
        if crossCheckZip && isZip { streamedNames.append(raw.rawPath) }
        if let warning = raw.warning {
            try report(Issue(kind: .entryWarning, path: raw.path ?? archiveName, message: warning))
        }
        if entries > limits.maxEntries {
            try stop(Issue(kind: .tooManyEntries, path: archiveName, message: "more than \(limits.maxEntries) entries; stopped reading (see --max-entries)"),
                     at: "after \(lastName ?? archiveName)")
            return .stopped
        }
        guard let name = raw.path else {
            let shown = raw.rawPath.map { $0 < 0x80 && $0 >= 0x20 ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined()
            try report(Issue(kind: .notUTF8, path: shown, message: "the name is not valid UTF-8"))
            return .passed
        }
        guard let (components, plain) = try safeComponents(name), let top = components.first else { return .passed }
        if !tops.contains(top) { tops.append(top) }
        guard try isRegularFile(raw, name: name) else { return .passed }
        // A plain name is its own normal form: not joined again.
        let normal = plain ? name : components.joined(separator: "/")
        guard try isNew(normal, name: name) else { return .passed }
        guard components.count > 1 else {
            try report(Issue(kind: .besideTop, path: name, message: "a file beside the bag's top folder; everything belongs inside it"))
            return .passed
        }
        let relative = components.count == 2 ? components[1] : components.dropFirst().joined(separator: "/")
        if let only, !only.contains(relative) { return .passed }
        if let size = raw.size, size > limits.maxEntryBytes {
            try stop(Issue(kind: .tooLarge, path: name, message: "claims \(size) bytes, over the \(limits.maxEntryBytes) byte limit for one entry (see --max-entry-bytes)"),
                     at: "in \(name)")
            return .stopped
        }
        only?.remove(relative)
        return .handed(Entry(name: name, path: relative, top: top, size: raw.size))
    }

    /// The name's top folder and the rest, for a plain name, or every
    /// component; nil, said as an issue, for an unsafe name.
    private func safeComponents(_ name: String) throws -> (components: [String], plain: Bool)? {
        if BagPath.isPlain(name) {
            // The top folder and the rest, without splitting every component,
            // made from the bytes (a String's own slicing checks each cut
            // for a Character's boundary); the top is nearly always the
            // last one met, which is used again.
            return PathBytes.withBytes(name) { bytes in
                guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")) else { return ([name], true) }
                let topBytes = UnsafeBufferPointer(rebasing: bytes[..<slash])
                let top = tops.last.flatMap { last in PathBytes.withBytes(last) { $0.elementsEqual(topBytes) } ? last : nil }
                    ?? String(decoding: topBytes, as: UTF8.self)
                return ([top, String(decoding: UnsafeBufferPointer(rebasing: bytes[(slash + 1)...]), as: UTF8.self)], true)
            }
        }
        switch BagPath.components(name) {
        case .success(let checked): return (checked, false)
        case .failure(let unsafe):
            try report(Issue(kind: .unsafeName(unsafe), path: name, message: unsafe.message))
            return nil
        }
    }

    /// False for a folder (passed by quietly) and for a link, a device, a
    /// FIFO or a socket (said as an issue): a bag holds regular files only.
    private func isRegularFile(_ raw: ArchiveReader.Entry, name: String) throws -> Bool {
        if let target = raw.hardlinkTarget {
            try report(Issue(kind: .link, path: name, message: "a hard link (to \(target)); a bag holds regular files only"))
            return false
        }
        switch raw.fileType {
        case 0o040000:
            return false
        case 0o100000:
            return true
        case 0o120000:
            try report(Issue(kind: .link, path: name, message: "a symbolic link; a bag holds regular files only"))
            return false
        default:
            try report(Issue(kind: .special, path: name, message: "a device, FIFO or socket; a bag holds regular files only"))
            return false
        }
    }

    /// Reads an admitted entry's bytes, holding what `keeping` asks for and
    /// counting them against the limits; nil where reading ended.
    private func read(_ entry: Entry, _ keeping: Keep) throws -> File? {
        let hashers = try keeping.digests.map { ($0, try Digest($0)) }
        var held = Held(keeping)
        switch try unpack(entry, { chunk, size in try held.take(chunk, size: size, hashing: hashers) }) {
        case .ended(let file):
            return file
        case .read(let size):
            let digests = Digest.finish(hashers)
            return File(entry: entry, size: size, digests: digests, data: held.data, head: held.head)
        }
    }

    /// How an entry's read through libarchive ended.
    private enum Unpacking {
        /// Every byte read: this many.
        case read(Int64)
        /// Not to the end: the entry damaged (handed over as such), or the
        /// reading of the archive ended (nil).
        case ended(File?)
    }

    /// Reads an admitted entry's bytes through libarchive, each chunk to
    /// `take` with the bytes read so far, counting them against the limits.
    /// What `take` throws, a caller's, is thrown.
    private func unpack(_ entry: Entry, _ take: (UnsafeRawBufferPointer, Int64) throws -> Void) throws -> Unpacking {
        guard let reader = archive else { return .ended(nil) }
        let name = entry.name
        var size: Int64 = 0
        var limit: Issue?
        var callerError: Error?
        // Entries are handed on in libarchive's own blocks, not copied out:
        // a stored zip entry's bytes as read from the file, a tar's as
        // unpacked, its sparse entries' holes as zeros.
        do {
            try reader.readBlocks(holes: !isZip) { chunk in
                size += Int64(chunk.count)
                do { try take(chunk, size) } catch {
                    callerError = error
                    throw CancellationError()
                }
                limit = limitPassed(name, entryBytes: size)
                if limit != nil { throw CancellationError() }
            }
        } catch is CancellationError {
            if let callerError { throw callerError }
            try stop(limit!, at: "in \(name)")
            return .ended(nil)
        } catch let damage as ArchiveReader.EntryDamaged {
            // Only this entry is bad: say so once and read on.
            return .ended(try damaged(entry, inflated: size, damage.description))
        } catch {
            // A zip's directory says where every entry starts, so damage
            // inside one (a deflate stream libarchive gives up on) need
            // not end the read: a new reader goes on from the next entry.
            // At most 100 times: each reopening skips every entry read so
            // far, and a zip of many damaged entries must not make that
            // quadratic.
            if throughDirectory, reopened < 100, let resumed = reopen(past: entries) {
                reopened += 1
                archive = resumed
                return .ended(try damaged(entry, inflated: size, "cannot read the entry's data: \(error)"))
            }
            try stop(Issue(kind: .truncated, path: name, message: "the archive cannot be read past this entry: \(error)", cause: error as? FileError),
                     at: "in \(name)")
            return .ended(nil)
        }
        bytesRead += size
        return .read(size)
    }

    /// The limit an entry passes once `entryBytes` of it are unpacked: its
    /// own size, the whole archive's, or the ratio to the archive's size
    /// (a decompression bomb).
    private func limitPassed(_ name: String, entryBytes size: Int64) -> Issue? {
        let total = bytesRead + size
        if size > limits.maxEntryBytes {
            return Issue(kind: .tooLarge, path: name, message: "unpacks to more than \(limits.maxEntryBytes) bytes (see --max-entry-bytes)")
        } else if total > limits.maxTotalBytes {
            return Issue(kind: .tooLarge, path: name, message: "the archive unpacks to more than \(limits.maxTotalBytes) bytes (see --max-bytes)")
        } else if total > 16 << 20, fileSize > 0, Double(total) / Double(fileSize) > limits.maxRatio {
            return Issue(kind: .tooLarge, path: name, message: "unpacks to over \(Int(limits.maxRatio)) times the archive's size: a decompression bomb? (see --max-ratio)")
        }
        return nil
    }

    /// An entry whose bytes the archive itself says are wrong: named once.
    /// Its size is the one declared, so a bag's Oxum does not repeat the
    /// news; the limits count the bytes inflated, so damaged entries cannot
    /// carry a decompression bomb past them.
    private func damaged(_ entry: Entry, inflated: Int64, _ message: String) throws -> File {
        bytesRead += inflated
        try report(Issue(kind: .damaged, path: entry.name, message: message))
        return File(entry: entry, size: entry.size ?? inflated, damage: message)
    }

    /// Each path once; one differing only in case is handed over, but said.
    private func isNew(_ normal: String, name: String) throws -> Bool {
        // One table operation for the usual new path (asked of every entry);
        // a path that folds like an earlier one, rare, is set back and
        // looked at closely.
        let key = BagNames.folded(normal)
        guard let earlier = folded.updateValue(normal, forKey: key) else { return true }
        folded[key] = earlier
        guard earlier != normal, caseVariants.insert(normal).inserted else {
            try report(Issue(kind: .duplicate, path: name, message: "the archive holds this path more than once"))
            return false
        }
        try report(Issue(kind: .caseCollision, path: name, message: "differs from \(earlier) only by case"))
        return true
    }

    /// A new reader of a zip, past its first `count` entries (each skipped
    /// by a seek), or nil if it cannot get there.
    private func reopen(past count: Int) -> ArchiveReader? {
        guard let reader = try? ArchiveReader(path: path, checkCRC: checkCRC) else { return nil }
        for _ in 0..<count {
            guard case .some = try? reader.next() else { return nil }
        }
        return reader
    }

    private func endOfArchive() throws {
        finished = true
        // The workers' local headers, each read with its entry's bytes, are
        // not read again.
        sendBatch()
        let found = spans?.finish()
        spans?.stop()
        if crossCheckZip && isZip && complete, let directory = zipDirectory?.raw ?? ZipDirectory.entries(of: path) {
            let checked: (Int) -> Bool = { index in found.map { index < $0.count && $0[index] } ?? false }
            for (name, message) in Self.directoryMismatches(streamed: streamedNames, directory: directory.map(\.name))
                + Self.localHeaderMismatches(ZipDirectory.localHeaderMismatches(of: path, directory, checked: checked)) {
                try report(Issue(kind: .zipDirectory, path: name, message: message))
            }
        }
        if tops.count > 1 {
            try report(Issue(kind: .topFolders, path: archiveName,
                             message: "holds \(tops.count) top folders (\(tops.prefix(5).joined(separator: ", "))); a serialized bag has exactly one"))
        }
    }

    /// Names unzip would extract that were not read, and the reverse.
    package static func directoryMismatches(streamed: [[UInt8]], directory: [[UInt8]]) -> [(String, String)] {
        // The usual case, the same names in the same order, needs no table:
        // building one of 17,000 byte arrays was some 15 ms of a verify. Each
        // pair is compared as memory: Array's == goes a byte at a time.
        if streamed.count == directory.count, zip(streamed, directory).allSatisfy(sameBytes) { return [] }
        func shown(_ raw: [UInt8]) -> String { String(decoding: raw, as: UTF8.self) }
        var found: [(String, String)] = []
        var unmatched = Dictionary(directory.map { ($0, 1) }, uniquingKeysWith: +)
        for name in streamed {
            if let count = unmatched[name], count > 0 {
                unmatched[name] = count - 1
            } else {
                found.append((shown(name), "the zip's central directory does not name this entry; unzip would extract it under another name"))
            }
        }
        for name in directory where unmatched[name, default: 0] > 0 {
            unmatched[name]! -= 1
            found.append((shown(name), "named by the zip's central directory, but no entry has this name; unzip would extract a file verify did not check"))
        }
        return found
    }

    private static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && a.withUnsafeBytes { x in b.withUnsafeBytes { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
    }

    /// Entries unzip would fail on: their local header is missing or gives
    /// another compression method than the central directory.
    private static func localHeaderMismatches(_ mismatches: [ZipDirectory.Mismatch]) -> [(String, String)] {
        mismatches.map { mismatch in
            let name = String(decoding: mismatch.name, as: UTF8.self)
            switch mismatch.kind {
            case .noLocalHeader(let offset):
                return (name, "the zip's central directory points at byte \(offset), where this entry does not start; unzip cannot extract it")
            case .method(let directory, let local):
                return (name, "the zip's central directory gives compression method \(directory), the entry itself \(local); unzip would fail to extract it")
            }
        }
    }

    /// Those of the files `paths` (inside the bag) a zip holds, each read
    /// from its own local header, found through the central directory: a
    /// few files of a zip of 17,000 tiles (its tag files, at the end, or
    /// bundle.json) without walking the entries before them. Files larger
    /// than `Keep.wholeLimit` are left out, as a whole read leaves them.
    /// nil when the file is not a zip mcpack can read so (not a zip, more
    /// than one top folder, a name twice, an entry that does not read as
    /// the directory says): the caller then reads the archive as usual,
    /// which says what is wrong. `directory`: the zip's central directory,
    /// when the caller has read it already.
    package static func zipFiles(_ path: String, _ paths: Set<String>, directory: ZipBagDirectory? = nil) -> (top: String, files: [String: Data])? {
        guard let directory = directory?.raw ?? ZipBagDirectory(path)?.raw else { return nil }
        var tops = Set<String>()
        var offsets: [String: UInt64] = [:]
        for entry in directory {
            guard let name = ArchiveNames.text(entry.name), let slash = name.firstIndex(of: "/") else { return nil }
            tops.insert(String(name[..<slash]))
            let inside = String(name[name.index(after: slash)...])
            if paths.contains(inside) {
                guard offsets.updateValue(entry.localHeader, forKey: inside) == nil else { return nil }
                if entry.size > UInt64(Keep.wholeLimit) { offsets[inside] = nil }
            }
        }
        guard tops.count == 1, let top = tops.first else { return nil }
        var files: [String: Data] = [:]
        for (inside, offset) in offsets {
            guard let reader = try? ArchiveReader(zipPath: path, from: offset), let entry = try? reader.next(),
                  entry.path == top + "/" + inside, entry.isRegular else { return nil }
            var data = Data()
            do {
                try reader.readData { chunk in
                    guard data.count + chunk.count <= Keep.wholeLimit else { throw FileError(path: path, message: "\(inside) is larger than its directory entry") }
                    data.append(contentsOf: chunk)
                }
            } catch {
                return nil
            }
            files[inside] = data
        }
        return (top, files)
    }

    /// Whether the file starts as a zip does (a local file header).
    package static func isZip(_ path: String) -> Bool {
        FileHandle(forReadingAtPath: path).flatMap { try? $0.read(upToCount: 4) } == Data([0x50, 0x4B, 0x03, 0x04])
    }

    /// True for a gzip file (a .tar.gz), whatever its name.
    package static func isGzip(_ path: String) -> Bool {
        FileHandle(forReadingAtPath: path).flatMap { try? $0.read(upToCount: 2) } == Data([0x1F, 0x8B])
    }

    /// What is wrong with a gzip file's trailer (its CRC-32 and length),
    /// which libarchive's gzip reader skips; nil when zlib finds it whole.
    package static func gzipDamage(_ path: String) -> String? { GzipStream.damage(in: path) }

    // MARK: Folders

    /// Lists the folder at once: its files are counted against the limit
    /// before any is read. Only the entry count is limited: nothing is
    /// unpacked from a folder, so no byte count can be a bomb.
    /// The folder's own path with links resolved: a bag reached through a
    /// link (the one `mcpack pull` switches) is read as the folder it
    /// points to, while links inside it stay refused.
    private var folderBase: String { URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }

    private func listFolder() throws {
        let base = folderBase
        // The tag files first, then the rest, each in the byte order of
        // their paths, as listed. (Foundation's contains("/") searches as
        // text does.)
        var tags: [(String, Int64)] = []
        var listed: [(String, Int64)] = []
        let slash = UInt8(ascii: "/")
        func look(_ entry: FileSystem.Entry, listing: Bool) throws {
            let relative = entry.path
            switch entry.kind {
            case .symbolicLink:
                try report(Issue(kind: .link, path: relative, message: "a symbolic link; a bag holds regular files only"))
            case .other:
                try report(Issue(kind: .special, path: relative, message: "a device, FIFO or socket; a bag holds regular files only"))
            case .notUTF8:
                try report(Issue(kind: .notUTF8, path: relative, message: "the name is not valid UTF-8"))
            case .regular:
                // A control character is one byte of UTF-8, and no byte of
                // another character is below 0x80: the bytes tell it faster.
                if listing && relative.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
                    try report(Issue(kind: .unsafeName(.controlCharacters), path: relative, message: BagPath.Unsafe.controlCharacters.message))
                } else if relative.utf8.contains(slash) {
                    listed.append((relative, entry.size))
                } else {
                    tags.append((relative, entry.size))
                }
            }
        }
        if let only {
            for relative in only.sorted(by: { $0.precedesInUTF8Order($1) }) where BagPath.isPlain(relative) {
                if let entry = FileSystem.entry(relative, under: base) { try look(entry, listing: false) }
            }
        } else {
            for entry in FileSystem.entriesInOrder(under: base) { try look(entry, listing: true) }
        }
        if tags.count + listed.count > limits.maxEntries {
            try stop(Issue(kind: .tooManyEntries, path: URL(fileURLWithPath: path).lastPathComponent, message: "more than \(limits.maxEntries) files (see --max-entries)"),
                     at: nil)
            return
        }
        folderPaths = tags + listed
    }

    /// Files are read on every core (hashing a folder's 2 GB on one was
    /// most of its verify), up to `folderWindow` ahead of those handed
    /// over, and handed over in order, `folderChunk` at a time: a batch read
    /// and waited for whole left the cores idle while the caller took it
    /// in, and a wake-up for every file cost more than that. A caller's
    /// `Keep.stream` thus runs on a worker while the caller goes on; none
    /// runs once `next()` has thrown.
    private func nextInFolder() throws -> File? {
        do {
            return try nextReadAhead()
        } catch {
            folderWorkers?.waitForAdded()
            throw error
        }
    }

    private func nextReadAhead() throws -> File? {
        while true {
            if !ready.isEmpty {
                switch ready.removeFirst() {
                case .success(let file): return file
                case .failure(let issue):
                    try report(issue)
                    continue
                }
            }
            while !finished, folderNext < folderPaths.count, folderNext < folderTaken + Self.folderWindow {
                var added: [(Entry, Keep)] = []
                for (relative, size) in folderPaths[folderNext..<min(folderPaths.count, folderNext + Self.folderChunk)] {
                    let entry = Entry(name: relative, path: relative, top: "", size: size)
                    added.append((entry, try keep(entry)))
                }
                let workers = folderWorkers ?? FolderWorkers(base: folderBase)
                folderWorkers = workers
                workers.add(added)
                folderNext += added.count
            }
            guard folderTaken < folderNext, let workers = folderWorkers else {
                folderWorkers?.stop()
                return nil
            }
            let taken = workers.take(folderTaken..<min(folderNext, folderTaken + Self.folderChunk))
            folderTaken += taken.count
            for result in taken {
                if case .success(let file) = result, file.damage == nil { bytesRead += file.size }
            }
            ready = taken
        }
    }

    private static let folderChunk = 16
    /// A caller's `keep` may open a file to stream into (unpacking,
    /// publishing): it is asked only once every file taken is handed over,
    /// so at most this many are open at once, well under the 256
    /// descriptors a Mac allows a process by default.
    private static let folderWindow = 48

    fileprivate static func read(_ full: String, _ entry: Entry, _ keeping: Keep, through buffer: UnsafeMutableRawBufferPointer) -> Result<File, Issue> {
        let unreadable = Issue(kind: .unreadable, path: entry.path, message: "cannot read the file")
        if case .skip = keeping.bytes { return .success(File(entry: entry, size: entry.size ?? 0)) }
        guard let hashers = try? keeping.digests.map({ ($0, try Digest($0)) }) else { return .failure(unreadable) }
        var held = Held(keeping)
        var size: Int64 = 0
        do {
            _ = try FileChunks.read(regular: full, through: buffer) { chunk in
                size += Int64(chunk.count)
                try held.take(chunk, size: size, hashing: hashers)
            }
        } catch let error as FileError where error.path == full {
            // Why the file itself could not be read (no permission, not a
            // regular file any more); a caller's stream that failed is its own to say.
            return .failure(Issue(kind: .unreadable, path: entry.path, message: "cannot read the file: \(error.message)"))
        } catch {
            return .failure(unreadable)
        }
        let digests = Digest.finish(hashers)
        return .success(File(entry: entry, size: size, digests: digests, data: held.data, head: held.head))
    }
}

/// A folder's files read on threads of their own, one a core, in the
/// order added: each file by one worker, so a `Keep`'s stream is only ever
/// called for its own file, from one thread at a time. The caller waiting
/// for its files is woken when the last of them is read, not for each.
private final class FolderWorkers: @unchecked Sendable {
    private let base: String
    private let condition = NSCondition()
    /// Files added and not yet taken by a worker; the first is the
    /// `started`th added.
    private var jobs: [(BagReader.Entry, BagReader.Keep)] = []
    private var started = 0
    private var results: [Int: Result<BagReader.File, BagReader.Issue>] = [:]
    /// Files added, and files read, since the start.
    private var filesAdded = 0
    private var filesRead = 0
    /// Workers waiting for a file, and the last file the caller waits for.
    private var idle = 0
    private var awaited: Int?
    private var stopped = false
    private var running = 0

    init(base: String) {
        self.base = base
        for _ in 0..<max(1, ProcessInfo.processInfo.activeProcessorCount) {
            running += 1
            let thread = Thread { [self] in work() }
            thread.name = "mcpack.folder-files"
            thread.start()
        }
    }

    func add(_ more: [(BagReader.Entry, BagReader.Keep)]) {
        condition.lock()
        jobs += more
        filesAdded += more.count
        if idle > 0 { condition.broadcast() }
        condition.unlock()
    }

    /// Returns once every file added is read, its results kept for `take`.
    func waitForAdded() {
        condition.lock()
        defer { condition.unlock() }
        while filesRead < filesAdded {
            awaited = filesAdded - 1
            condition.wait()
        }
        awaited = nil
    }

    /// The files added as `range`, once all are read.
    func take(_ range: Range<Int>) -> [Result<BagReader.File, BagReader.Issue>] {
        condition.lock()
        defer { condition.unlock() }
        while !range.allSatisfy({ results[$0] != nil }) {
            awaited = range.upperBound - 1
            condition.wait()
        }
        awaited = nil
        return range.map { results.removeValue(forKey: $0)! }
    }

    /// Ends the workers, and returns once none is reading a file.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    private func work() {
        // One buffer a worker: one a file was a buffer allocated, and its
        // pages faulted in, 17,000 times.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: FileChunks.readSize, alignment: 16)
        defer { buffer.deallocate() }
        condition.lock()
        while true {
            while jobs.isEmpty && !stopped {
                idle += 1
                condition.wait()
                idle -= 1
            }
            if stopped { break }
            // Up to 4 small files at a time, a large one alone: files taken
            // together are read one after another by one worker.
            let first = started
            var count = 0, bytes: Int64 = 0
            while count < min(4, jobs.count), count == 0 || bytes + (jobs[count].0.size ?? 0) <= 1 << 20 {
                bytes += jobs[count].0.size ?? 0
                count += 1
            }
            let mine = Array(jobs.prefix(count))
            jobs.removeFirst(count)
            started += count
            condition.unlock()
            let done = mine.map { entry, keep in BagReader.read(base + "/" + entry.path, entry, keep, through: buffer) }
            condition.lock()
            for (offset, result) in done.enumerated() { results[first + offset] = result }
            filesRead += done.count
            // The caller's files before its last are almost always read by
            // then, workers taking them in order; it checks them all.
            if let awaited, results[awaited] != nil || filesRead == filesAdded { condition.broadcast() }
        }
        running -= 1
        condition.broadcast()
        condition.unlock()
    }
}

/// The bytes one `Keep` holds while its entry is read.
struct Held {
    package var data: Data?
    package var head: Data?
    package let headLimit: Int?
    package let stream: ((UnsafeRawBufferPointer) throws -> Void)?

    package init(_ keep: BagReader.Keep) {
        switch keep.bytes {
        case .whole: (data, head, headLimit) = (Data(), nil, nil)
        case .head(let count): (data, head, headLimit) = (nil, Data(), count)
        case .skip, .digestsOnly: (data, head, headLimit) = (nil, nil, nil)
        }
        stream = keep.stream
    }

    /// `size`: bytes of the entry read so far, this chunk included.
    package mutating func take(_ chunk: UnsafeRawBufferPointer, size: Int64) throws {
        if data != nil {
            if size <= BagReader.Keep.wholeLimit { data!.append(contentsOf: chunk) } else { data = nil }
        }
        if let limit = headLimit, let kept = head?.count, kept < limit {
            head!.append(contentsOf: chunk.prefix(limit - kept))
        }
        try stream?(chunk)
    }

    /// `chunk` put through `hashers`, then taken as above: what every read
    /// of an entry does with each chunk.
    package mutating func take(_ chunk: UnsafeRawBufferPointer, size: Int64, hashing hashers: [(DigestAlgorithm, Digest)]) throws {
        for (_, hasher) in hashers { hasher.update(chunk) }
        try take(chunk, size: size)
    }
}
