import Archiving
import MCPackInputs
import Foundation
import Hashing
import MCPackBag
import MCPackSchema

extension BagContents {
    /// A zip's entries are read without their CRC-32: for nearly every
    /// entry the SHA-256 its manifest lists covers the same bytes, and the
    /// CRC was a second pass over all of them on the reading thread. What
    /// no manifest confirms (a tag manifest, an entry whose digest differs
    /// from the one listed, one no manifest lists) is read again here with
    /// its CRC checked, so that damage to the archive is still named as
    /// such (`archive-damaged`, once, the file then left alone by the rules),
    /// as when every CRC was checked, and no entry goes uncovered by either.
    mutating func checkUnconfirmed(_ path: String, directory: ZipBagDirectory, limits: BagLimits) throws {
        guard let top else { return }
        let unconfirmed = unconfirmedByManifests()
        guard !unconfirmed.isEmpty else { return }
        var wanted: [EntryName: String] = [:]
        for inside in unconfirmed { wanted[EntryName(bytes: Array((top + "/" + inside).utf8))] = inside }
        var pending = Set<String>()
        var found = Set<String>()
        for entry in directory.raw {
            guard let inside = wanted[EntryName(bytes: entry.name)] else { continue }
            guard found.insert(inside).inserted else { continue }
            switch Self.crcCheck(path, entry: entry, name: top + "/" + inside) {
            case .whole: break
            case .damaged(let message): markDamaged(inside, top: top, message)
            case .unknown: pending.insert(inside)
            }
        }
        pending.formUnion(unconfirmed.filter { !found.contains($0) })
        guard !pending.isEmpty else { return }
        // What a reader from the entry's own header cannot settle, the
        // whole archive read again for, with every CRC checked.
        let reader = try BagReader(path, limits: limits, only: pending, checkCRC: true) { _ in BagReader.Keep(.digestsOnly) }
        while let file = try reader.next() {
            if let damage = file.damage { markDamaged(file.entry.path, top: top, damage) }
        }
    }

    /// The undamaged files whose digest is not the one a manifest (payload
    /// or tag) lists for them, read as the rules read the manifests (kept
    /// for them in `manifests`). A match proves the bytes whatever the
    /// manifest's own state: a damaged line matches nothing. Each manifest
    /// is compared with the files as it is parsed (`ParsedManifest.unmatched`);
    /// a file is looked up in the manifests only when that comparison
    /// cannot vouch for it wholesale.
    private mutating func unconfirmedByManifests() -> [String] {
        let parsed = parseManifests()
        let folders = self.folders
        // A manifest whose entries matched as many payload files as were
        // read whole matched every one of them (an entry matches one file,
        // and only one read whole): only the tag files are then looked up.
        let whole = folders.count(under: "data/") - index.damagedPayload
        let payloadConfirmed = parsed.contains { $0.payloadPresent.matched == whole }
        let candidates = payloadConfirmed ? folders.files(under: "", outside: "data/") : Array(files.keys)
        return candidates.filter { name in
            files[name]?.damaged == false && !parsed.contains { $0.entries[name] != nil && $0.unmatched[name] == nil }
        }
    }

    /// Each manifest and tag manifest read whole, parsed as the rules
    /// parse it and kept in `manifests` for them, once (a zip's
    /// confirmation asks first): parsed here, the tables of 17,000 lines
    /// are freed with these contents rather than while the rules run.
    @discardableResult
    mutating func parseManifests() -> [ParsedManifest] {
        let (version, decoded) = BagRules.manifestReading(self)
        var parsed: [ParsedManifest] = []
        for name in folders.files(in: "") {
            guard let file = files[name], !file.damaged, file.data != nil,
                  let algorithm = BagNames.manifestAlgorithm(name, prefix: "manifest-") ?? BagNames.manifestAlgorithm(name, prefix: "tagmanifest-")
            else { continue }
            if let earlier = manifests[name] {
                parsed.append(earlier)
                continue
            }
            let manifest = BagRules.parse(self, decoded, name: name, algorithm: algorithm, version: version)
            manifests[name] = manifest
            parsed.append(manifest)
        }
        return parsed
    }

    private mutating func markDamaged(_ inside: String, top: String, _ message: String) {
        guard let file = files[inside], !file.damaged else { return }
        put(BagFile(path: inside, size: file.size, digests: [:], data: nil, damaged: true))
        // The manifests' comparisons with the files are the rules' too.
        for name in Array(manifests.keys) where manifests[name]?.entries[inside] != nil {
            manifests[name]?.unmatched[inside] = .damaged
        }
        problems.append(Problem(top + "/" + inside, "archive-damaged", message))
    }

    private enum CRCResult { case whole, damaged(String), unknown }

    /// The entry read from its local header on, as unzip reads it, its
    /// CRC-32 checked; `.unknown` when it cannot be read so.
    private static func crcCheck(_ path: String, entry: ZipDirectory.Entry, name: String) -> CRCResult {
        guard let reader = try? ArchiveReader(zipPath: path, from: entry.localHeader),
              let read = try? reader.next(), read.path == name, read.isRegular else { return .unknown }
        do {
            try reader.readData { _ in }
            return .whole
        } catch let damage as ArchiveReader.EntryDamaged {
            return .damaged(damage.description)
        } catch {
            return .unknown
        }
    }
}

/// A zip entry's name as a table's key, hashed in one call over its bytes:
/// an array of bytes is hashed a byte at a time, which over the 17,000
/// names of a zip's directory cost more than the check it serves.
private struct EntryName: Hashable {
    let bytes: [UInt8]

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
