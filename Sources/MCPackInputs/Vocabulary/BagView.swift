import MCPackBag
import Foundation
import Hashing
import MCPackSchema

/// A bag as the inputs' verify stages see it: its files, and bundle.json's
/// record of each input, decoded into that input's own type.
package struct BagView {
    /// What the inputs' records in bundle.json say, for rules that need
    /// another input's facts (the master's size, the pyramid).
    package let facts: [any InputFact]

    /// The bag's files less Finder's own (.DS_Store, ._ files), which
    /// BagRules names once: a Mac that unpacked the bag put them there,
    /// not the sender, so no input's content rule should read a `._x.dzi`
    /// as a descriptor or a `._0_0.jpeg` as a tile.
    package let files: [String: BagFile]

    /// The same files by folder: what a rule about one folder reads.
    package let folders: BagFolders

    /// Where reading stopped before the end, when it did.
    package let stoppedAt: String?

    /// Each input's record in bundle.json, decoded once for every rule
    /// that asks (each decode parses the whole file).
    private let records: [ObjectIdentifier: any Sendable]

    /// `folders`, `finderFiles`: the same paths by folder, and whether any
    /// is Finder's own, when the reader found that as it read them.
    package init(files: [String: BagFile], stoppedAt: String?, folders: BagFolders? = nil, finderFiles: Bool? = nil) {
        let finder = finderFiles ?? files.keys.contains(where: BagNames.isFinderMetadata)
        self.files = finder ? files.filter { !BagNames.isFinderMetadata($0.key) } : files
        self.folders = !finder ? folders ?? BagFolders(files.keys) : BagFolders(self.files.keys)
        self.stoppedAt = stoppedAt
        var records: [ObjectIdentifier: any Sendable] = [:]
        var facts: [any InputFact] = []
        if let data = files[BundleJSON.path]?.data {
            for input in Inputs.all {
                guard let (record, published) = input.recordAndFacts(data) else { continue }
                records[ObjectIdentifier(input)] = record
                facts += published
            }
        }
        self.records = records
        self.facts = facts
    }

    /// A fact an input's record gives, gathered as a check would.
    package func fact<F: InputFact>(_ type: F.Type) -> F? { F.gather(from: facts) }

    /// The record bundle.json holds for `input`, or nil when there is none
    /// or it is not in the shape that input writes.
    package func record<I: BundleInput>(of input: I.Type) -> I.Record? {
        records[ObjectIdentifier(input)] as? I.Record
    }

    /// A JSON file of the bag decoded as `type`; a file that is not JSON,
    /// or not in that shape, is reported under `rule` and gives nil.
    package func decode<T: Decodable>(_ type: T.Type, _ path: String, rule: String, _ problems: inout [Problem]) -> T? {
        guard let file = files[path] else { return nil }
        guard let data = file.data else {
            if !file.damaged { problems.append(Problem(path, rule, "too large to check")) }
            return nil
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            problems.append(Problem(path, rule, "not well-formed JSON"))
        } catch {
            problems.append(Problem(path, rule, "not in the shape mcpack writes: \(JSON.describe(error))"))
        }
        return nil
    }
}

/// What verify learns of every file of a bag, from one read of it: its
/// size, the digests the manifests may ask for, and the bytes of the small
/// files the rules read (tag files, JSON, what each input asks for).
package struct BagFile {
    /// Relative to the bag's top folder: `bagit.txt`, `data/clauses.json`.
    package var path: String
    package var size: Int64
    package var digests: [DigestAlgorithm: String]
    package var data: Data?
    /// The first bytes of a picture whose rules need only its header (size,
    /// bands, bit depth, profile) when `data` is not kept: the document's
    /// tiles and the launch screens, too many or too large to hold whole.
    package var head: Data?
    /// The archive itself says this entry's bytes are wrong (a zip CRC, a
    /// broken deflate stream); reported once as that, so the rules that
    /// would read it leave it alone.
    package var damaged = false
    package init(path: String, size: Int64, digests: [DigestAlgorithm: String], data: Data? = nil, head: Data? = nil, damaged: Bool = false) {
        self.path = path
        self.size = size
        self.digests = digests
        self.data = data
        self.head = head
        self.damaged = damaged
    }
}
