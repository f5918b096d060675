import Archiving
import MCPackInputs
import MCPackBag
import Foundation
import MCPackSchema
import Hashing


extension BagView {
    /// The view the inputs' verify stages get of what verify read.
    init(contents: BagContents) {
        self.init(files: contents.files, stoppedAt: contents.stoppedAt, folders: contents.index.folders,
                  finderFiles: contents.index.finderFiles)
    }
}

struct BagContents {
    /// Put by `put` only, which keeps `index` in step.
    private(set) var files: [String: BagFile] = [:]
    /// What the rules ask of every file, found by `put` as the files were
    /// read (each path then new to its core's cache): asked again by rules
    /// on two threads, which then share the paths, 17,000 files cost more
    /// than the rules themselves.
    private(set) var index = ReadIndex()

    struct ReadIndex {
        /// The paths by folder.
        var folders = BagFolders()
        /// Whether any is Finder's own (.DS_Store, ._ files).
        var finderFiles = false
        /// The payload's bytes, for the Oxum.
        var payloadBytes: Int64 = 0
        /// Payload files the archive said were damaged.
        var damagedPayload = 0
        /// Whether bytes kept for the rules may be a picture only libvips's
        /// optional loaders read (once true, true: a file put again keeps
        /// what it replaces in the count, as the rules may have seen it).
        var optionalLoaders = false

        mutating func count(_ file: BagFile, replacing previous: BagFile?) {
            if previous == nil {
                folders.add(file.path)
                if BagNames.isFinderMetadata(file.path) { finderFiles = true }
            }
            if !optionalLoaders, let bytes = file.data ?? file.head, ImageFileCheck.needsOptionalLoader(bytes) { optionalLoaders = true }
            guard !BagNames.isTagFile(file.path) else { return }
            payloadBytes += file.size - (previous?.size ?? 0)
            damagedPayload += (file.damaged ? 1 : 0) - (previous?.damaged == true ? 1 : 0)
        }
    }

    /// Puts a file in `files` (in place of one of its path), `index`
    /// kept in step.
    mutating func put(_ file: BagFile) {
        index.count(file, replacing: files.updateValue(file, forKey: file.path))
    }

    /// The paths of `files` by folder.
    var folders: BagFolders { index.folders }
    var problems: [Problem] = []
    /// False when the bag could not be read to the end (truncated, limits).
    var complete = true
    /// Where reading stopped before the end, when it did ("in X", "after
    /// X"): files beyond it were not reached, which is not the same as missing.
    var stoppedAt: String?
    var bytes: Int64 = 0
    /// An archive's top folder (the first, when it has several).
    var top: String?
    /// The manifests parsed before the rules (`parseManifests`; a zip's
    /// confirmation needs them to tell which of its entries they confirm),
    /// by name: the rules use them rather than parse them again.
    var manifests: [String: ParsedManifest] = [:]
    /// A zip read without its CRCs whose unconfirmed entries are still to
    /// be checked (`confirm()`), when the caller asked to do it later.
    var unconfirmed: (path: String, directory: ZipBagDirectory, limits: BagLimits)?
    /// The reader `read` read with, let go with these contents: verify does
    /// that on another thread once its report is made, so that freeing its
    /// tables of 17,000 names takes no core from the rules.
    var reader: Retained?

    /// Held only to be let go of, never read again: whichever thread drops
    /// the last reference frees it, once every use of it has ended.
    struct Retained: @unchecked Sendable { let object: AnyObject }

    /// What verify holds of a file while it reads the bag, besides its
    /// digests: tag files and JSON files whole, and of
    /// a payload file what the input owning it asks for (a document tile's
    /// header, never the whole of thousands of tiles). Asked once a file.
    static func keeping(_ path: String, size: Int64) -> BagReader.Keep.Bytes {
        if BagNames.isTagFile(path) { return size <= 64 << 20 ? .whole : .digestsOnly }
        let wanted: BagReader.Keep.Bytes = PathBytes.hasSuffix(path, ignoringCase: ".json") ? .whole
            : Inputs.owner(of: path)?.verifyKeeps(path) ?? .digestsOnly
        // Too large to hold: its header still serves the rules that read
        // a picture's size (a sample tile of a huge tile size).
        return wanted == .whole && size > 16 << 20 ? .head(1024) : wanted
    }

}

extension BagContents {
    /// Reads a serialized bag or an unpacked bag folder, every entry once:
    /// nothing is unpacked to disk, and memory holds only the digests and
    /// the bytes `keeping` asks for. Throws only when `path` cannot be read
    /// at all; what is wrong inside it is a problem found. `archiveCovered`:
    /// the archive's own bytes are checked besides (its .sha256, a good
    /// signature), so a zip's CRC-32s may be left to the manifests' digests.
    /// `confirmingLater`: the entries no manifest confirms are left for
    /// `confirm()` to check, so that a caller may start on the rules meanwhile.
    static func read(_ path: String, limits: VerifyLimits, archiveCovered: Bool = false, confirmingLater: Bool = false) throws -> BagContents {
        // Payload files are hashed with the algorithms of the payload
        // manifests only. A folder hands its tag files over first; an
        // archive holds them where its maker put them (mcpack: last, as the
        // manifest of tiles made while written can only be). A zip names
        // them all in its central directory, read before any entry; a tar
        // names them only when reached, so a payload file met before them
        // is hashed with SHA-256 (what mcpack and most tools write) and
        // read again below for any other algorithm they turn out to name.
        var declared = Set<DigestAlgorithm>()
        let directory = ZipBagDirectory(path)
        // Names of one slash (top/name), the only ones decoded: a manifest's.
        let slash = UInt8(ascii: "/")
        for entry in directory?.raw ?? [] where entry.name.count(where: { $0 == slash }) == 1 {
            guard let name = ArchiveNames.text(entry.name), let at = name.firstIndex(of: "/") else { continue }
            if let algorithm = BagNames.manifestAlgorithm(String(name[name.index(after: at)...]), prefix: "manifest-") { declared.insert(algorithm) }
        }
        // With the zip's directory at hand and the archive's bytes checked
        // besides, its CRCs are left to `checkUnconfirmed`, for the entries
        // no manifest's digest covers. Without that check every CRC is read:
        // a zip whose CRC fields were rewritten alike would pass on its
        // digests alone, while unzip, which a receiver may use, refuses it.
        let skipsCRC = directory != nil && archiveCovered
        // Whether a payload file was hashed before a manifest named an
        // algorithm it lacks (a tar's manifests come after the payload).
        var payloadRead = false
        var declaredLate = false
        let reader = try BagReader(path, limits: limits, crossCheckZip: true, zipDirectory: directory, checkCRC: !skipsCRC,
                                   hashesOnWorkers: true) { entry in
            let path = entry.path
            let wanted: Set<DigestAlgorithm>
            if BagNames.isTagFile(path) {
                if PathBytes.isTopLevel(path), let algorithm = BagNames.manifestAlgorithm(path, prefix: "manifest-"),
                   declared.insert(algorithm).inserted, payloadRead {
                    declaredLate = true
                }
                wanted = Set(DigestAlgorithm.allCases)
            } else {
                payloadRead = true
                wanted = declared.isEmpty ? [.sha256] : declared
            }
            return BagReader.Keep(keeping(path, size: entry.size ?? 0), digests: wanted)
        }
        var contents = BagContents()
        // Grown one entry at a time, the table of 17,000 was copied over
        // and over.
        contents.files.reserveCapacity(directory?.raw.count ?? reader.listedFiles)
        while let file = try reader.next() {
            let read = file.damage == nil
                ? BagFile(path: file.entry.path, size: file.size, digests: file.digests, data: file.data, head: file.head)
                : BagFile(path: file.entry.path, size: file.size, digests: [:], data: nil, damaged: true)
            contents.put(read)
        }
        // Names differing only in case are said by BagRules, each against
        // the first of its group, which only the whole list can tell.
        contents.problems = reader.issues.filter { $0.kind != .caseCollision }.map { Problem($0.path, $0.rule, $0.message) }
        contents.complete = reader.complete
        contents.stoppedAt = reader.stoppedAt
        contents.bytes = reader.bytesRead
        contents.top = reader.top
        contents.reader = Retained(object: reader)
        if declaredLate { try contents.hashAgain(path, limits: limits, for: declared) }
        if skipsCRC, let directory {
            contents.unconfirmed = (path, directory, limits)
            if !confirmingLater { _ = try contents.confirm() }
        }
        return contents
    }

    /// Checks what `read` left unconfirmed, if anything; whether it found
    /// damage, which changes what the rules see.
    mutating func confirm() throws -> Bool {
        guard let (path, directory, limits) = unconfirmed else { return false }
        unconfirmed = nil
        let before = problems.count
        try checkUnconfirmed(path, directory: directory, limits: limits)
        return problems.count != before
    }

    /// Reads again the payload files read before a manifest named an
    /// algorithm they were not hashed with: only those, only for it.
    private mutating func hashAgain(_ path: String, limits: VerifyLimits, for algorithms: Set<DigestAlgorithm>) throws {
        var missing: [String: Set<DigestAlgorithm>] = [:]
        for (name, file) in files where !BagNames.isTagFile(name) && !file.damaged {
            let lacking = algorithms.subtracting(file.digests.keys)
            if !lacking.isEmpty { missing[name] = lacking }
        }
        guard !missing.isEmpty else { return }
        let reader = try BagReader(path, limits: limits, only: Set(missing.keys)) { entry in
            BagReader.Keep(.digestsOnly, digests: missing[entry.path] ?? [])
        }
        while let file = try reader.next() {
            if file.damage == nil { files[file.entry.path]?.digests.merge(file.digests) { first, _ in first } }
        }
    }
}
