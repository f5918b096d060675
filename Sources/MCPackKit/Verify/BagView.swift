import MCPackBag
import Foundation
import MCPackSchema

/// A bag as the inputs' verify stages see it: its files, and bundle.json's
/// record of each input, decoded into that input's own type.
struct BagView {
    let contents: BagContents
    /// What the inputs' records in bundle.json say, for rules that need
    /// another input's facts (the master's size, the pyramid).
    let facts: [any InputFact]

    /// The bag's files less Finder's own (.DS_Store, ._ files), which
    /// BagRules names once: a Mac that unpacked the bag put them there,
    /// not the sender, so no input's content rule should read a `._x.dzi`
    /// as a descriptor or a `._0_0.jpeg` as a tile.
    let files: [String: BagFile]

    init(contents: BagContents) {
        self.contents = contents
        files = contents.files.contains { BagNames.isFinderMetadata($0.key) }
            ? contents.files.filter { !BagNames.isFinderMetadata($0.key) } : contents.files
        facts = Inputs.facts(fromBundleJSON: contents.files[BundleJSON.path]?.data)
    }

    /// A fact an input's record gives, gathered as a check would.
    func fact<F: InputFact>(_ type: F.Type) -> F? { F.gather(from: facts) }

    /// Where reading stopped before the end, when it did.
    var stoppedAt: String? { contents.stoppedAt }

    /// The record bundle.json holds for `input`, or nil when there is none
    /// or it is not in the shape that input writes.
    func record<I: BundleInput>(of input: I.Type) -> I.Record? {
        guard let data = files["data/bundle.json"]?.data else { return nil }
        return try? I.record(in: data)
    }

    /// A JSON file of the bag decoded as `type`; a file that is not JSON,
    /// or not in that shape, is reported under `rule` and gives nil.
    func decode<T: Decodable>(_ type: T.Type, _ path: String, rule: String, _ problems: inout [Problem]) -> T? {
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
