import Crypto
import Foundation
import MCPackSchema

/// Something wrong with a bundle's files, by its path in the bag.
public struct BundleProblem: Sendable, Equatable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// Listed in a manifest, not on disk.
        case missing
        /// On disk under data/, listed in no manifest.
        case extra
        /// Its SHA-256 is not the one its manifest lists.
        case damaged
        /// On disk but could not be read.
        case unreadable
        /// A manifest that cannot be read, or a line of it that names no
        /// file of the bag.
        case unreadableManifest
    }

    public var kind: Kind
    /// The file's path in the bag (`data/document/...`), or the manifest's.
    public var path: String
    /// What was found, in words.
    public var detail: String

    public init(kind: Kind, path: String, detail: String) {
        self.kind = kind
        self.path = path
        self.detail = detail
    }

    public var description: String { "\(path): \(detail)" }
}

extension KioskBundle {
    /// The payload manifest, the one every payload file must be listed in.
    public static let manifestPath = "manifest-sha256.txt"
    /// Lists the tag files (bagit.txt, bag-info.txt, the payload manifest):
    /// checked too when present, so a manifest edited to match a changed
    /// file is caught.
    public static let tagManifestPath = "tagmanifest-sha256.txt"

    /// Checks every file against the bag's SHA-256 manifests: each listed
    /// file is read once, in chunks, and hashed; files under data/ that no
    /// manifest lists are reported too. Empty when the bundle is intact.
    ///
    /// It reads the whole bundle (hundreds of MB for the full scan): call it
    /// off the main thread, or use the `async` variant. `progress` hears
    /// (files done, files in all) after each file, on the calling thread.
    public func verify(progress: ((_ done: Int, _ total: Int) -> Void)? = nil) -> [BundleProblem] {
        // Without a task to cancel it, it never stops early.
        (try? verify(progress: progress, stop: { false })) ?? []
    }

    /// `verify`, on a thread of its own, off the calling actor (the main
    /// one, in an app): the kiosk's first launch after a new bundle is
    /// installed. Cancelling the calling task stops it between two files
    /// and throws `CancellationError`.
    public func verify(progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void) async throws -> [BundleProblem] {
        // A task cancelled already does no work: the handler below passes
        // a cancel on only once the detached task exists.
        try Task.checkCancellation()
        let bundle = self
        // Detached, so the work never runs on the caller's actor whatever
        // the caller is isolated to; cancellation is passed on by hand.
        let work = Task.detached(priority: .utility) {
            try bundle.verify(progress: progress, stop: { Task.isCancelled })
        }
        return try await withTaskCancellationHandler { try await work.value } onCancel: { work.cancel() }
    }

    func verify(progress: ((Int, Int) -> Void)?, stop: () -> Bool) throws -> [BundleProblem] {
        var problems: [BundleProblem] = []
        var checks: [(path: String, checksum: String)] = []
        guard let payload = readManifest(Self.manifestPath, required: true, problems: &problems) else { return problems }
        var listed = Set<String>()
        for entry in payload {
            guard PathBytes.hasPrefix(entry.path, "data/") else {
                problems.append(BundleProblem(kind: .unreadableManifest, path: Self.manifestPath,
                                              detail: "line \(entry.line) names \(entry.path), which is not under data/"))
                continue
            }
            guard listed.insert(entry.path).inserted else {
                problems.append(BundleProblem(kind: .unreadableManifest, path: Self.manifestPath, detail: "line \(entry.line) lists \(entry.path) a second time"))
                continue
            }
            checks.append((entry.path, entry.checksum))
        }
        for entry in readManifest(Self.tagManifestPath, required: false, problems: &problems) ?? [] {
            guard !PathBytes.hasPrefix(entry.path, "data/") else {
                problems.append(BundleProblem(kind: .unreadableManifest, path: Self.tagManifestPath,
                                              detail: "line \(entry.line) names \(entry.path), a payload file, not a tag file"))
                continue
            }
            checks.append((entry.path, entry.checksum))
        }

        // The payload folder is listed (a look at every file) while the
        // files are hashed, not before: on its own it kept one core busy
        // and the others waiting. What it finds decides at the end which
        // listed files are missing.
        let folder = self.folder
        let listing = Listing { Self.payloadFiles(in: folder) }

        // Files are hashed a batch at a time on every core (one core hashed
        // a bundle of 17,000 tiles at a fraction of the device's speed),
        // each worker reading one chunk at a time, so memory stays at a
        // chunk a core whatever the bundle. Progress and cancellation stay
        // on the calling thread, between batches: 64 files a core, since
        // each batch wakes the workers and waits for its slowest file with
        // the other cores idle, a cost paid once a batch.
        let total = checks.count
        // A file's path as a string, not a URL: `URL.appending(path:)` parsed
        // and percent-encoded every path, a tenth of the verify's time.
        let root = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
        let batchSize = 64 * max(1, ProcessInfo.processInfo.activeProcessorCount)
        var found: [Int: BundleProblem] = [:]
        var start = 0
        while start < total {
            if stop() { throw CancellationError() }
            let batch = Array(checks[start..<min(total, start + batchSize)])
            let batchFound = BatchProblems(count: batch.count)
            DispatchQueue.concurrentPerform(iterations: batch.count) { index in
                let check = batch[index]
                do {
                    let digest = try Self.sha256(atPath: root + check.path)
                    if digest != check.checksum {
                        batchFound[index] = BundleProblem(kind: .damaged, path: check.path, detail: "its SHA-256 is \(digest), the manifest lists \(check.checksum)")
                    }
                } catch let failure as ReadFailure where failure.isMissing && !PathBytes.hasPrefix(check.path, "data/") {
                    // A payload file's presence is the listing's to say
                    // (below): a link to nothing is there, unreadable.
                    batchFound[index] = Self.missing(check.path)
                } catch {
                    batchFound[index] = BundleProblem(kind: .unreadable, path: check.path, detail: "cannot be read (\(error.localizedDescription))")
                }
            }
            for (offset, problem) in batchFound.values.enumerated() {
                if let problem { found[start + offset] = problem }
            }
            for done in start..<(start + batch.count) { progress?(done + 1, total) }
            start += batch.count
        }

        let onDisk = listing.result()
        for path in onDisk.files.subtracting(listed) {
            problems.append(BundleProblem(kind: .extra, path: path, detail: "is under data/ but not listed in \(Self.manifestPath)"))
        }
        for path in onDisk.unreadable {
            problems.append(BundleProblem(kind: .unreadable, path: path, detail: "cannot be listed"))
        }
        // A payload file is there when the listing found it as a file,
        // whatever opening its path did: a folder of that name is not it,
        // nor, where names ignore case, a file named otherwise.
        for (index, check) in checks.enumerated() where PathBytes.hasPrefix(check.path, "data/") && !onDisk.files.contains(check.path) {
            found[index] = Self.missing(check.path)
        }
        problems += found.values
        return problems.sorted { ($0.path, $0.kind.rawValue) < ($1.path, $1.kind.rawValue) }
    }

    private static func missing(_ path: String) -> BundleProblem {
        BundleProblem(kind: .missing, path: path, detail: "is listed in \(PathBytes.hasPrefix(path, "data/") ? manifestPath : tagManifestPath) but not in the bundle")
    }

    /// A manifest's entries (checksum lower case); nil when it cannot be
    /// used at all. Lines that name no file are problems of the manifest.
    func readManifest(_ path: String, required: Bool, problems: inout [BundleProblem]) -> [(line: Int, path: String, checksum: String)]? {
        let url = folder.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: url.path) else {
            if required { problems.append(BundleProblem(kind: .unreadableManifest, path: path, detail: "is missing: nothing can be checked")) }
            return nil
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            problems.append(BundleProblem(kind: .unreadableManifest, path: path, detail: "cannot be read (\(error.localizedDescription))"))
            return nil
        }
        let manifest = Manifest(data)
        var entries: [(Int, String, String)] = []
        for line in manifest.lines {
            let checksum = manifest.checksum(line).lowercased()
            guard let name = manifest.path(line), !name.isEmpty else {
                problems.append(BundleProblem(kind: .unreadableManifest, path: path, detail: "line \(line.number) has no path after its checksum"))
                continue
            }
            guard checksum.utf8.count == 64, checksum.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
                problems.append(BundleProblem(kind: .unreadableManifest, path: path, detail: "line \(line.number): \"\(checksum)\" is not a SHA-256 (64 hexadecimal digits)"))
                continue
            }
            // A listed path must stay inside the bag, whatever it says: the
            // packager's own rule (BagPath), so the app checks no less.
            let normal: String
            if BagPath.isPlain(name) {
                normal = name
            } else {
                switch BagPath.components(name, resolvingDotDot: true) {
                case .success(let components) where !components.isEmpty:
                    normal = components.joined(separator: "/")
                case .success:
                    problems.append(BundleProblem(kind: .unreadableManifest, path: path, detail: "line \(line.number) names \(name.debugDescription), which is no file"))
                    continue
                case .failure(let unsafe):
                    problems.append(BundleProblem(kind: .unreadableManifest, path: path, detail: "line \(line.number) names \(name.debugDescription): \(unsafe.message)"))
                    continue
                }
            }
            entries.append((line.number, normal, checksum))
        }
        return entries
    }

    /// Every regular file under data/, as bag paths; and the folders that
    /// could not be listed.
    private static func payloadFiles(in folder: URL) -> PayloadFiles {
        let data = folder.appendingPathComponent("data")
        var files = Set<String>()
        var unreadable: [String] = []
        var folders = [""]
        let manager = FileManager.default
        // Folder by folder, so a folder that cannot be listed is named.
        while let relative = folders.popLast() {
            let path = relative.isEmpty ? data.path : data.appendingPathComponent(relative).path
            guard let names = try? manager.contentsOfDirectory(atPath: path) else {
                unreadable.append("data/" + relative)
                continue
            }
            for name in names {
                let child = relative.isEmpty ? name : relative + "/" + name
                // A link is a file here, never a folder to walk into: a
                // link to a folder above would make the walk endless. Asked
                // as a folder first, then as a link (only of what is a
                // folder): `attributesOfItem` would tell both at once, but
                // on Linux it took most of the verify of a bag of 17,000
                // files, looking up each file's owner's account name.
                let full = path + "/" + name
                var isFolder: ObjCBool = false
                if manager.fileExists(atPath: full, isDirectory: &isFolder), isFolder.boolValue,
                   (try? manager.destinationOfSymbolicLink(atPath: full)) == nil {
                    folders.append(child)
                } else {
                    files.insert("data/" + child)
                }
            }
        }
        return PayloadFiles(files: files, unreadable: unreadable)
    }

    /// The file's SHA-256 in lower-case hexadecimal, read in chunks so that
    /// a file of any size takes the same memory.
    static func sha256(of url: URL) throws -> String {
        try sha256(atPath: url.path)
    }

    /// The SHA-256 of the file at `path`, read 64 KiB at a time into one
    /// buffer (on the stack where it fits): 64 KiB stays in the core's
    /// cache between the read's copy and the hash, where a larger read goes
    /// out to memory and back; and no buffer is allocated and freed a read,
    /// as `FileHandle.read(upToCount:)` does, 34,000 times over a bundle.
    static func sha256(atPath path: String) throws -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadFailure(code: errno) }
        defer { close(descriptor) }
        var hasher = SHA256()
        try withUnsafeTemporaryAllocation(byteCount: 64 << 10, alignment: 16) { buffer in
            while true {
                let count = readBytes(descriptor, buffer)
                if count > 0 {
                    hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                } else if count == 0 {
                    return
                } else if errno != EINTR {
                    throw ReadFailure(code: errno)
                }
            }
        }
        return hex(hasher.finalize())
    }

    static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// read(2): inside `KioskBundle`, its own `read` hides the system's.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(descriptor, buffer.baseAddress, buffer.count)
}

/// Why a file could not be opened or read: the system's words for its
/// error number.
struct ReadFailure: LocalizedError {
    var code: Int32

    /// No such file, or a folder on its path is a file.
    var isMissing: Bool { code == ENOENT || code == ENOTDIR }
    var errorDescription: String? { String(cString: strerror(code)) }
}

/// A bundle's payload files as found on disk.
struct PayloadFiles: Sendable {
    var files: Set<String>
    var unreadable: [String]
}

/// The payload folder's listing, made on a thread of its own meanwhile,
/// at the caller's quality of service: the caller waits for it.
private final class Listing: @unchecked Sendable {
    private let done = DispatchGroup()
    private var files: PayloadFiles?

    init(_ make: @escaping @Sendable () -> PayloadFiles) {
        done.enter()
        let thread = Thread { [self] in
            files = make()
            done.leave()
        }
        thread.qualityOfService = Thread.current.qualityOfService
        thread.start()
    }

    /// The listing, once made.
    func result() -> PayloadFiles {
        done.wait()
        return files!
    }
}

/// One slot for each file of a batch, each written by the one worker
/// hashing that file.
private final class BatchProblems: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [BundleProblem?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    subscript(index: Int) -> BundleProblem? {
        get { lock.lock(); defer { lock.unlock() }; return slots[index] }
        set { lock.lock(); slots[index] = newValue; lock.unlock() }
    }

    var values: [BundleProblem?] { lock.lock(); defer { lock.unlock() }; return slots }
}
