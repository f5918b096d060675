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
        var wanted: [[UInt8]: String] = [:]
        for inside in unconfirmed { wanted[Array((top + "/" + inside).utf8)] = inside }
        var pending = Set<String>()
        var found = Set<String>()
        for entry in directory.raw {
            guard let inside = wanted[entry.name] else { continue }
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
    /// manifest's own state: a damaged line matches nothing. Each file is
    /// looked up in the manifests, rather than sets of the confirmed and
    /// the read made of 17,000 paths each.
    private mutating func unconfirmedByManifests() -> [String] {
        let (version, decoded) = BagRules.manifestReading(self)
        var parsed: [(DigestAlgorithm, [String: String])] = []
        let slash = UInt8(ascii: "/")
        for (name, file) in files where !file.damaged && file.data != nil && !name.utf8.contains(slash) {
            guard let algorithm = BagNames.manifestAlgorithm(name, prefix: "manifest-") ?? BagNames.manifestAlgorithm(name, prefix: "tagmanifest-")
            else { continue }
            let manifest = BagRules.parse(self, decoded, name: name, algorithm: algorithm, version: version)
            manifests[name] = manifest
            parsed.append((algorithm, manifest.entries))
        }
        var unconfirmed: [String] = []
        for (name, file) in files where !file.damaged {
            let confirmed = parsed.contains { algorithm, entries in
                entries[name].map { file.digests[algorithm] == $0 } ?? false
            }
            if !confirmed { unconfirmed.append(name) }
        }
        return unconfirmed
    }

    private mutating func markDamaged(_ inside: String, top: String, _ message: String) {
        guard let file = files[inside], !file.damaged else { return }
        files[inside] = BagFile(path: inside, size: file.size, digests: [:], data: nil, damaged: true)
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
