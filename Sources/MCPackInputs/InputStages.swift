import MCPackBag
import Foundation
import MCPackSchema

/// The stages of `Inputs.all` run without knowing which input is which:
/// each function opens one input's type, so its settings, plan and record
/// keep their own types inside while the loops in Builder, Verifier and
/// Differ handle them alike.
extension BundleInput {
    /// Reads this input's table of bundle.toml into `settings`; false when
    /// a required table is missing or the settings are wrong. A table with
    /// any error (an unknown key too) leaves the input out of `settings`:
    /// checked with settings its author did not mean, it would only add
    /// wrong messages to the right one.
    package static func readSettings(_ root: TableReader, paths: ProjectPaths, into settings: inout InputSettings) -> Bool {
        guard root.has(self.table) || required else {
            if let value = defaultSettings { settings[Self.self] = value }
            return true
        }
        guard let table = root.table(self.table, required: required) else { return !required }
        let errors = root.source.sink.errorCount
        guard let value = self.settings(table, paths: paths), root.source.sink.errorCount == errors else { return false }
        settings[Self.self] = value
        return true
    }

    /// Checks this input with the facts the inputs before it published.
    package static func runCheck(_ settings: InputSettings, facts: [any InputFact], in env: CheckEnvironment)
        -> (plan: CheckedInput?, facts: [any InputFact]) {
        guard let mine = settings[Self.self] else { return (nil, []) }
        let needs = Needs.gather(from: facts)
        let checked = check(mine, needs: needs, in: env)
        return (checked.plan.map { CheckedInput(input: Self.self, plan: $0) }, checked.facts)
    }

    package static func runMake(_ plan: any InputPlan, in env: MakeEnvironment) throws -> MadeInput {
        let made = try make(plan as! Plan, in: env)
        return MadeInput(component: component, payload: made.payload, stream: made.stream, record: made.record,
                         transient: made.transient,
                         handover: handoverParts(made.record, files: made.payload.map(\.path) + (made.stream?.paths ?? [])))
    }

    /// This input's record in `bundleJSON` and the facts it gives; nil when
    /// there is none or it is not in the shape this input writes.
    package static func recordAndFacts(_ bundleJSON: Data) -> (record: Record, facts: [any InputFact])? {
        guard let record = try? record(in: bundleJSON) else { return nil }
        return (record, facts(from: record))
    }

    package static func runVerify(_ bag: BagView) -> [Problem] {
        verify(bag.record(of: Self.self), in: bag)
    }

    /// `old` and `new` are each version's small files by path (bundle.json
    /// and the data files inputs diff), as the diff loop read them.
    package static func runDiff(_ old: [String: Data], _ new: [String: Data], _ delta: ManifestDelta) -> [Change] {
        diff(diffSide(old), diffSide(new), delta)
    }

    /// Its closer look, with each version's small files as `runDiff` has them.
    package static func runCompareClosely(_ old: [String: Data], _ new: [String: Data], locations: (old: String, new: String),
                                          delta: ManifestDelta) throws -> (any CloseComparison)? {
        try compareClosely(diffSide(old), diffSide(new), locations: locations, delta: delta)
    }

    private static func diffSide(_ files: [String: Data]) -> DiffSide<Record> {
        let record = files[BundleJSON.path].flatMap { try? Self.record(in: $0) }
        return DiffSide(record: record, files: files.filter { diffFiles.contains($0.key) })
    }
}

/// An input whose check passed, with its plan.
package struct CheckedInput {
    package let input: any BundleInput.Type
    package let plan: any InputPlan
}

/// What one input made, its record ready for bundle.json.
package struct MadeInput {
    package var component: String
    package var payload: [PayloadFile]
    package var stream: (any PayloadStream)?
    package var record: any Encodable & Sendable
    package var transient: [URL]
    /// Its parts of HANDOVER.md, counted once the payload is written.
    package var handover: [HandoverPart] = []
}

/// Each input's settings from bundle.toml, under its own type.
package struct InputSettings: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    package subscript<I: BundleInput>(input: I.Type) -> I.Settings? {
        get { values[ObjectIdentifier(input)] as? I.Settings }
        set { values[ObjectIdentifier(input)] = newValue }
    }
}

/// One input's record in a bundle.json, decoded as that input's type.
extension BundleInput {
    package static func record(in bundleJSON: Data) throws -> Record? {
        try BundleJSON.component(Record.self, named: component, from: bundleJSON)
    }
}
