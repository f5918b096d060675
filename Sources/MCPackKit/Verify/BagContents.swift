import Archiving
import FileIO
import Foundation
import Hashing

/// What verify learns of every file of a bag, from one read of it: its
/// size, the digests the manifests may ask for, and the bytes of the small
/// files the rules read (tag files, JSON, the .dzi, icons).
struct BagFile {
    /// Relative to the bag's top folder: `bagit.txt`, `data/clauses.json`.
    var path: String
    var size: Int64
    var digests: [DigestAlgorithm: String]
    var data: Data?
    /// The first bytes of a picture whose rules need only its header (size,
    /// bands, bit depth, profile) when `data` is not kept: the document's
    /// tiles and the launch screens, too many or too large to hold whole.
    var head: Data?
    /// The archive itself says this entry's bytes are wrong (a zip CRC, a
    /// broken deflate stream); reported once as that, so the rules that
    /// would read it leave it alone.
    var damaged = false
}

struct BagContents {
    var files: [String: BagFile] = [:]
    var problems: [Problem] = []
    /// False when the bag could not be read to the end (truncated, limits).
    var complete = true
    /// Where reading stopped before the end, when it did ("in X", "after
    /// X"): files beyond it were not reached, which is not the same as missing.
    var stoppedAt: String?
    var bytes: Int64 = 0

    /// What verify holds of a file while it reads the bag, besides its
    /// digests: tag files and small descriptors (JSON, .dzi) whole, and of
    /// a payload file what the input owning it asks for (a document tile's
    /// header, never the whole of thousands of tiles). Asked once a file.
    static func keeping(_ path: String, size: Int64) -> VerifyKeeps {
        if BagNames.isTagFile(path) { return size <= 64 << 20 ? .whole : .digests }
        let lower = path.lowercased()
        let wanted = lower.hasSuffix(".json") || lower.hasSuffix(".dzi") ? .whole
            : Inputs.owner(of: path)?.verifyKeeps(path) ?? .digests
        // Too large to hold: its header still serves the rules that read
        // a picture's size (a sample tile of a huge tile size).
        return wanted == .whole && size > 16 << 20 ? .head(1024) : wanted
    }

    /// The `/`-separated components of a path as stored if safe; if not,
    /// nil and the reason among `problems`.
    static func safeComponents(_ path: String, entry: String, problems: inout [Problem]) -> [String]? {
        switch BagNames.components(path) {
        case .success(let components): return components
        case .failure(let unsafe):
            problems.append(Problem(entry, unsafe.rule, unsafe.message))
            return nil
        }
    }
}

/// Reads a serialized bag (zip, tar, tar.gz, tar.zst) in one streaming pass
/// through libarchive: nothing is unpacked to disk, and memory holds only
/// the digests and the small files.
enum ArchiveCollector {
    static func collect(_ path: String, limits: BagLimits) throws -> (contents: BagContents, top: String?) {
        let archiveName = (path as NSString).lastPathComponent
        var contents = BagContents()
        let isZip = FileHandle(forReadingAtPath: path).flatMap { try? $0.read(upToCount: 4) } == Data([0x50, 0x4B, 0x03, 0x04])
        var reader: ArchiveReader
        // The first entry, read while finding out whether a zip can be read
        // through its central directory (libarchive reads all of it then).
        var first: ArchiveReader.Entry??
        if isZip, let opened = try? ArchiveReader(path: path), case let .success(entry) = Result(catching: { try opened.next() }) {
            // entry is nil for a readable directory of no entries.
            reader = opened
            first = .some(entry)
        } else if isZip {
            // Say what the entries hold all the same, read one by one.
            contents.problems.append(Problem(archiveName, "truncated", "the zip has no readable central directory (cut short, or its end damaged); unzip and most tools cannot open it"))
            contents.complete = false
            reader = try ArchiveReader(path: path, zip: .stream)
        } else {
            reader = try ArchiveReader(path: path)
        }
        let throughDirectory = first != nil
        var streamedNames: [[UInt8]] = []
        let fileSize = Int64((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0)
        var tops: [String] = []
        var seen = Set<String>()
        var entries = 0
        var lastName: String?
        var reopened = 0
        // An entry whose bytes the archive itself says are wrong: named once.
        // The Oxum sees the size declared, so it does not repeat the news;
        // the limits count the bytes inflated, so damaged entries cannot
        // carry a decompression bomb past them.
        func recordDamaged(_ name: String, _ relative: String, declared: Int64?, inflated: Int64, _ message: String) {
            contents.problems.append(Problem(name, "archive-damaged", message))
            contents.bytes += inflated
            contents.files[relative] = BagFile(path: relative, size: declared ?? inflated, digests: [:], data: nil, damaged: true)
        }
        var algorithms: Set<DigestAlgorithm>?
        var declared = Set<DigestAlgorithm>()

        reading: while true {
            let entry: ArchiveReader.Entry
            do {
                let next = try first ?? reader.next()
                first = nil
                guard let next else { break }
                entry = next
            } catch {
                contents.problems.append(Problem((path as NSString).lastPathComponent, "truncated", "the archive is damaged or truncated: \(error)"))
                contents.complete = false
                contents.stoppedAt = lastName.map { "after \($0)" } ?? "at its start"
                break
            }
            entries += 1
            lastName = entry.path ?? lastName
            if isZip { streamedNames.append(entry.rawPath) }
            if let warning = entry.warning {
                contents.problems.append(Problem(entry.path ?? archiveName, "archive-damaged", warning))
            }
            if entries > limits.maxEntries {
                contents.problems.append(Problem((path as NSString).lastPathComponent, "limits", "more than \(limits.maxEntries) entries; stopped reading (see --max-entries)"))
                contents.complete = false
                contents.stoppedAt = "after \(lastName ?? archiveName)"
                break
            }
            guard let name = entry.path else {
                let shown = entry.rawPath.map { $0 < 0x80 && $0 >= 0x20 ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined()
                contents.problems.append(Problem(shown, "unsafe-name", "the name is not valid UTF-8"))
                continue
            }
            let components: [String]
            if BagNames.isPlain(name) {
                // top folder and the rest, without splitting every component
                if let slash = name.firstIndex(of: "/") {
                    components = [String(name[..<slash]), String(name[name.index(after: slash)...])]
                } else {
                    components = [name]
                }
            } else {
                guard let checked = BagContents.safeComponents(name, entry: name, problems: &contents.problems) else { continue }
                components = checked
            }
            guard let top = components.first else { continue }
            if !tops.contains(top) { tops.append(top) }
            if let target = entry.hardlinkTarget {
                contents.problems.append(Problem(name, "unsafe-entry", "a hard link (to \(target)); a bag holds regular files only"))
                continue
            }
            switch entry.fileType {
            case 0o040000:
                continue
            case 0o100000:
                break
            case 0o120000:
                contents.problems.append(Problem(name, "unsafe-entry", "a symbolic link; a bag holds regular files only"))
                continue
            default:
                contents.problems.append(Problem(name, "unsafe-entry", "a device, FIFO or socket; a bag holds regular files only"))
                continue
            }
            let normal = components.joined(separator: "/")
            if !seen.insert(normal).inserted {
                contents.problems.append(Problem(name, "duplicate-entry", "the archive holds this path more than once"))
                continue
            }
            guard components.count > 1 else {
                contents.problems.append(Problem(name, "top-folder", "a file beside the bag's top folder; everything belongs inside it"))
                continue
            }
            let relative = components.dropFirst().joined(separator: "/")
            if let size = entry.size, size > limits.maxEntryBytes {
                contents.problems.append(Problem(name, "limits", "claims \(size) bytes, over the \(limits.maxEntryBytes) byte limit for one entry (see --max-entry-bytes)"))
                contents.complete = false
                contents.stoppedAt = "in \(name)"
                break reading
            }
            if BagNames.isTagFile(relative), components.count == 2,
               let algorithm = BagNames.manifestAlgorithm(relative, prefix: "manifest-") {
                declared.insert(algorithm)
            }
            let wanted: Set<DigestAlgorithm>
            if BagNames.isTagFile(relative) {
                wanted = Set(DigestAlgorithm.allCases)
            } else {
                if algorithms == nil { algorithms = declared.isEmpty ? Set(DigestAlgorithm.allCases) : declared }
                wanted = algorithms!
            }
            let hashers = try wanted.map { ($0, try Digest($0)) }
            let keeping = BagContents.keeping(relative, size: entry.size ?? 0)
            var data = keeping == .whole ? Data() : nil
            let headLimit = keeping.headBytes
            var head = headLimit.map { _ in Data() }
            var size: Int64 = 0
            var stop: Problem?
            do {
                try reader.readData { chunk in
                    for (_, hasher) in hashers { hasher.update(chunk) }
                    size += Int64(chunk.count)
                    if data != nil {
                        if size <= 64 << 20 { data!.append(contentsOf: chunk) } else { data = nil }
                    }
                    if let limit = headLimit, let kept = head?.count, kept < limit {
                        head!.append(contentsOf: chunk.prefix(limit - kept))
                    }
                    let total = contents.bytes + size
                    if size > limits.maxEntryBytes {
                        stop = Problem(name, "limits", "unpacks to more than \(limits.maxEntryBytes) bytes (see --max-entry-bytes)")
                    } else if total > limits.maxTotalBytes {
                        stop = Problem(name, "limits", "the archive unpacks to more than \(limits.maxTotalBytes) bytes (see --max-bytes)")
                    } else if total > 16 << 20, fileSize > 0, Double(total) / Double(fileSize) > limits.maxRatio {
                        stop = Problem(name, "limits", "unpacks to over \(Int(limits.maxRatio)) times the archive's size: a decompression bomb? (see --max-ratio)")
                    }
                    if stop != nil { throw CancellationError() }
                }
            } catch is CancellationError {
                contents.problems.append(stop!)
                contents.complete = false
                contents.stoppedAt = "in \(name)"
                break reading
            } catch let damage as ArchiveReader.EntryDamaged {
                // Only this entry is bad: say so once and read on.
                recordDamaged(name, relative, declared: entry.size, inflated: size, damage.description)
                continue
            } catch {
                // A zip's directory says where every entry starts, so damage
                // inside one (a deflate stream libarchive gives up on) need
                // not end the read: a new reader goes on from the next entry.
                // At most 100 times: each reopening skips every entry read so
                // far, and a zip of many damaged entries must not make that
                // quadratic.
                if throughDirectory, reopened < 100, let resumed = reopen(path, past: entries) {
                    reopened += 1
                    recordDamaged(name, relative, declared: entry.size, inflated: size, "cannot read the entry's data: \(error)")
                    reader = resumed
                    continue
                }
                contents.problems.append(Problem(name, "truncated", "the archive cannot be read past this entry: \(error)"))
                contents.complete = false
                contents.stoppedAt = "in \(name)"
                break reading
            }
            contents.bytes += size
            var digests: [DigestAlgorithm: String] = [:]
            for (algorithm, hasher) in hashers { digests[algorithm] = hasher.finish() }
            contents.files[relative] = BagFile(path: relative, size: size, digests: digests, data: data, head: head)
        }
        if isZip && contents.complete, let directory = ZipDirectory.entries(of: path) {
            contents.problems += directoryMismatches(streamed: streamedNames, directory: directory.map(\.name))
            contents.problems += localHeaderProblems(ZipDirectory.localHeaderMismatches(of: path, directory))
        }
        if tops.count > 1 {
            contents.problems.append(Problem((path as NSString).lastPathComponent, "top-folder",
                                             "holds \(tops.count) top folders (\(tops.prefix(5).joined(separator: ", "))); a serialized bag has exactly one"))
        }
        return (contents, tops.first)
    }

    /// A new reader of a zip, past its first `count` entries (each skipped
    /// by a seek), or nil if it cannot get there.
    private static func reopen(_ path: String, past count: Int) -> ArchiveReader? {
        guard let reader = try? ArchiveReader(path: path) else { return nil }
        for _ in 0..<count {
            guard case .some = try? reader.next() else { return nil }
        }
        return reader
    }

    /// Names unzip would extract that verify did not check, and the reverse.
    static func directoryMismatches(streamed: [[UInt8]], directory: [[UInt8]]) -> [Problem] {
        // The usual case, the same names in the same order, needs no table:
        // building one of 17,000 byte arrays was some 15 ms of a verify.
        if streamed == directory { return [] }
        func shown(_ raw: [UInt8]) -> String { String(decoding: raw, as: UTF8.self) }
        var problems: [Problem] = []
        var unmatched = Dictionary(directory.map { ($0, 1) }, uniquingKeysWith: +)
        for name in streamed {
            if let count = unmatched[name], count > 0 {
                unmatched[name] = count - 1
            } else {
                problems.append(Problem(shown(name), "zip-directory", "the zip's central directory does not name this entry; unzip would extract it under another name"))
            }
        }
        for name in directory where unmatched[name, default: 0] > 0 {
            unmatched[name]! -= 1
            problems.append(Problem(shown(name), "zip-directory", "named by the zip's central directory, but no entry has this name; unzip would extract a file verify did not check"))
        }
        return problems
    }

    /// Entries unzip would fail on: their local header is missing or gives
    /// another compression method than the central directory.
    static func localHeaderProblems(_ mismatches: [ZipDirectory.Mismatch]) -> [Problem] {
        mismatches.map { mismatch in
            let name = String(decoding: mismatch.name, as: UTF8.self)
            switch mismatch.kind {
            case .noLocalHeader(let offset):
                return Problem(name, "zip-directory", "the zip's central directory points at byte \(offset), where this entry does not start; unzip cannot extract it")
            case .method(let directory, let local):
                return Problem(name, "zip-directory", "the zip's central directory gives compression method \(directory), the entry itself \(local); unzip would fail to extract it")
            }
        }
    }
}

/// Reads an unpacked bag folder: tag files first, then the payload hashed
/// on every core with just the algorithms its manifests use.
enum FolderCollector {
    static func collect(_ root: URL, limits: BagLimits) -> BagContents {
        var contents = BagContents()
        var paths: [String] = []
        let base = root.standardizedFileURL.path
        if let enumerator = FileManager.default.enumerator(atPath: base) {
            for case let relative as String in enumerator {
                let full = base + "/" + relative
                guard let attributes = try? FileManager.default.attributesOfItem(atPath: full),
                      let type = attributes[.type] as? FileAttributeType else { continue }
                if type == .typeDirectory { continue }
                if type == .typeSymbolicLink {
                    contents.problems.append(Problem(relative, "unsafe-entry", "a symbolic link; a bag holds regular files only"))
                    continue
                }
                if type != .typeRegular {
                    contents.problems.append(Problem(relative, "unsafe-entry", "a device, FIFO or socket; a bag holds regular files only"))
                    continue
                }
                if relative.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                    contents.problems.append(Problem(relative, "unsafe-name", "the name holds control characters"))
                    continue
                }
                paths.append(relative)
            }
        }
        if paths.count > limits.maxEntries {
            contents.problems.append(Problem(root.lastPathComponent, "limits", "more than \(limits.maxEntries) files (see --max-entries)"))
            contents.complete = false
            return contents
        }
        let declared = Set(paths.filter { !$0.contains("/") }.compactMap { BagNames.manifestAlgorithm($0, prefix: "manifest-") })
        let payloadAlgorithms = declared.isEmpty ? Set(DigestAlgorithm.allCases) : declared
        let all = paths
        let results = LockedArray<BagFile?>(repeating: nil, count: all.count)
        DispatchQueue.concurrentPerform(iterations: all.count) { index in
            let path = all[index]
            let url = root.appendingPathComponent(path)
            let wanted = BagNames.isTagFile(path) ? Set(DigestAlgorithm.allCases) : payloadAlgorithms
            guard let hashers = try? wanted.map({ ($0, try Digest($0)) }) else { return }
            let expected = Int64((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int ?? 0)
            var size: Int64 = 0
            let keeping = BagContents.keeping(path, size: expected)
            var data: Data? = keeping == .whole ? Data() : nil
            let headLimit = keeping.headBytes
            var head: Data? = headLimit.map { _ in Data() }
            let read = try? FileChunks.read(url.path) { chunk in
                for (_, hasher) in hashers { hasher.update(chunk) }
                size += Int64(chunk.count)
                if data != nil { data!.append(contentsOf: chunk) }
                if let limit = headLimit, let kept = head?.count, kept < limit {
                    head!.append(contentsOf: chunk.prefix(limit - kept))
                }
                if size > 64 << 20 { data = nil }
            }
            guard read != nil else { return }
            var digests: [DigestAlgorithm: String] = [:]
            for (algorithm, hasher) in hashers { digests[algorithm] = hasher.finish() }
            results[index] = BagFile(path: path, size: size, digests: digests, data: data, head: head)
        }
        for (index, file) in results.values.enumerated() {
            if let file {
                contents.files[file.path] = file
                contents.bytes += file.size
            } else {
                contents.problems.append(Problem(paths[index], "unreadable", "cannot read the file"))
            }
        }
        return contents
    }
}

