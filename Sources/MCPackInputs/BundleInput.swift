import MCPackBag
import Foundation
import MCPackSchema
import Hashing

/// One input of a bundle (the document, the clauses, the category icons,
/// the app icon, the launch screen), in four stages it owns, in its own
/// folder under Inputs/:
///
/// - **settings**: its table of bundle.toml, decoded with located errors;
/// - **check**: reads what it needs and returns a plan, or reports what is
///   wrong; it writes nothing, so a mistake anywhere is reported before
///   minutes of tiling;
/// - **make**: turns the plan into payload files and a `Codable` record,
///   its part of bundle.json;
/// - **verify** and **diff**: that record against a bag, and two records
///   (with the files they describe) against each other.
///
/// What one input needs from another (the master's size for the clause
/// overlays, the clause list for the category icons) is its `Needs`: a fact
/// an earlier input's check published, handed over by type. Build, verify
/// and diff loop over `Inputs.all`; no input knows how the others are run.
package protocol BundleInput: SendableMetatype {
    associatedtype Settings: Sendable
    associatedtype Needs: InputFact = NoNeeds
    associatedtype Plan: InputPlan
    associatedtype Record: Codable & Sendable & Equatable

    /// Its table in bundle.toml (`[document]`).
    static var table: String { get }
    /// False when a project may leave the table out (no app icon, say).
    static var required: Bool { get }
    /// Its key in bundle.json's `components`, and its name in diff reports.
    static var component: String { get }
    /// The paths under data/ it makes: a prefix ending in `/` is a folder.
    static var payload: [String] { get }
    /// Files under data/ beside the record that its diff reads.
    static var diffFiles: [String] { get }
    /// The settings when bundle.toml has no table for it: nil leaves the
    /// input out; a value makes it by default (the preview page).
    static var defaultSettings: Settings? { get }

    /// The settings, or nil when the table is missing or wrong; every
    /// problem is reported through `table`.
    static func settings(_ table: TableReader, paths: ProjectPaths) -> Settings?

    /// Reads and checks the input; `needs` is nil when the input that
    /// provides it could not be read.
    static func check(_ settings: Settings, needs: Needs?, in env: CheckEnvironment) -> Checked<Plan>

    /// Makes the payload and the record. Throws a `Diagnostic` (naming the
    /// input file) when the work fails.
    static func make(_ plan: Plan, in env: MakeEnvironment) throws -> Made<Record>

    /// The rules its files in a bag must keep; `record` is nil when the bag
    /// has no bundle.json entry for it (a bag from elsewhere, or damaged).
    static func verify(_ record: Record?, in bag: BagView) -> [Problem]

    /// What changed between two versions, in the words of `Change`.
    static func diff(_ old: DiffSide<Record>, _ new: DiffSide<Record>, _ delta: ManifestDelta) -> [Change]

    /// A closer look at its changed files than their digests, reading them
    /// from the archives or folders at `locations` (`diff --pixels`); nil,
    /// the default, when it has none to take.
    static func compareClosely(_ old: DiffSide<Record>, _ new: DiffSide<Record>, locations: (old: String, new: String),
                               delta: ManifestDelta) throws -> (any CloseComparison)?

    /// What verify holds of one of its files (`path` inside the bag) for
    /// its rules, besides the digests every file gets: by default nothing.
    /// Bags hold tens of thousands of tiles, so only what a rule reads is
    /// held; JSON files are held whole for every input (up to 16 MB).
    static func verifyKeeps(_ path: String) -> BagReader.Keep.Bytes

    /// The facts its record in bundle.json gives, for verify and diff,
    /// which run no check to learn them: what the other inputs' rules need
    /// (the master's size, the pyramid), so no input decodes another's record.
    static func facts(from record: Record) -> [any InputFact]

    /// Its part of the diff summary line, given its changes (never empty);
    /// by default "<component>: N files". `regions` is the number of
    /// visibly changed areas when the tiles were decoded (`--pixels`).
    static func summary(_ changes: [Change], regions: Int?) -> String

    /// Whether its file at `path` (inside the bag) is a picture that
    /// `diff --pixels` decodes to say how it changed.
    static func comparesPixels(_ path: String) -> Bool

    /// Whether the diff page shows its changed file at `path` before and
    /// after (a picture small enough to show whole).
    static func showsOnDiffPage(_ path: String) -> Bool

    /// How the diff page lists its changes that are not pictures: as text
    /// diffs with words marked, or in the table of other changes.
    static var diffPageRows: DiffPageRows { get }

    /// A page of its payload that `mcpack preview` opens in a browser,
    /// relative to data/; nil (the default) when it makes none.
    static var browserPage: String? { get }

    /// Its part of HANDOVER.md's "What is inside": each folder or file it
    /// made (`files`: its payload, relative to data/) and what it is for.
    /// Counts and sizes are added from the payload; every file it made
    /// must fall under one part (a test holds the page against the bag).
    static func handover(_ record: Record, files: [String]) -> [HandoverPart]
}

/// How the diff page lists an input's changes.
package enum DiffPageRows {
    /// Each a text diff with its words marked (clause texts), in a section
    /// of its own headed `title`, whose first column, `subject`, names
    /// what each change is of (a clause's id, or the file's path).
    case texts(title: String, subject: String)
    /// A row of the table of other changes.
    case others
}

extension BundleInput {
    package static var required: Bool { true }
    package static var diffFiles: [String] { [] }
    package static var defaultSettings: Settings? { nil }
    package static func verifyKeeps(_ path: String) -> BagReader.Keep.Bytes { .digestsOnly }
    package static func facts(from record: Record) -> [any InputFact] { [] }
    package static func summary(_ changes: [Change], regions: Int?) -> String { "\(component): \(DiffWords.plural(changes.count, "file"))" }
    package static func comparesPixels(_ path: String) -> Bool { false }
    package static func compareClosely(_ old: DiffSide<Record>, _ new: DiffSide<Record>, locations: (old: String, new: String),
                                       delta: ManifestDelta) throws -> (any CloseComparison)? { nil }
    package static func showsOnDiffPage(_ path: String) -> Bool { false }
    package static var diffPageRows: DiffPageRows { .others }
    package static var browserPage: String? { nil }

    /// Whether this input makes the file at `path`, a path inside the bag
    /// (`data/icons/...`). One input owns each file: where two payload
    /// entries hold it (the manifest's `document/manifest.json` inside the
    /// document's `document/`), the longer one wins.
    package static func owns(_ path: String) -> Bool {
        guard let owner = Inputs.owner(of: path) else { return false }
        return ObjectIdentifier(owner) == ObjectIdentifier(Self.self)
    }
}

/// The inputs of a bundle, in the order their checks run: an input comes
/// after those whose facts it needs. Adding an input means adding it here.
package enum Inputs {
    package static let all: [any BundleInput.Type] = [
        DocumentInput.self, ClausesInput.self, CategoriesInput.self, IconsInput.self, LaunchInput.self, ManifestInput.self,
        PreviewInput.self,
    ]

    /// The page `mcpack preview` opens, relative to data/: the first input's
    /// that makes one.
    package static var browserPage: String? {
        for input in all { if let page = input.browserPage { return page } }
        return nil
    }

    /// The input whose bundle.json component is `component`.
    package static func named(_ component: String) -> (any BundleInput.Type)? {
        all.first { $0.component == component }
    }

    /// The input that makes the file at `path` (inside the bag), if any.
    package static func owner(of path: String) -> (any BundleInput.Type)? {
        guard PathBytes.hasPrefix(path, "data/") else { return nil }
        var path = path
        // Asked of every file of a bag: compared as bytes, against a table
        // made once, rather than through each input's type.
        return path.withUTF8 { bytes in
            let relative = UnsafeBufferPointer(rebasing: bytes[5...])
            var owner: (any BundleInput.Type)?
            var longest = 0
            for claim in claims where claim.entry.count > longest
                && (claim.folder ? relative.starts(with: claim.entry) : relative.elementsEqual(claim.entry)) {
                (owner, longest) = (claim.input, claim.entry.count)
            }
            return owner
        }
    }

    /// Each input's payload entries as bytes (a folder's ending in `/`).
    private static let claims: [(entry: [UInt8], folder: Bool, input: any BundleInput.Type)] = all.flatMap { input in
        input.payload.map { (Array($0.utf8), $0.hasSuffix("/"), input) }
    }
}

/// A fact one input's check establishes for the checks after it.
package protocol InputFact: Sendable {
    /// This fact among those the earlier checks published. An input that
    /// needs several facts declares a `Needs` that gathers them.
    static func gather(from facts: [any InputFact]) -> Self?
}

extension InputFact {
    package static func gather(from facts: [any InputFact]) -> Self? { facts.lazy.compactMap { $0 as? Self }.first }

    /// Every fact of this type, from every input that published one.
    package static func gatherAll(from facts: [any InputFact]) -> [Self] { facts.compactMap { $0 as? Self } }
}

/// The `Needs` of an input that needs nothing from the others.
package struct NoNeeds: InputFact {}

/// The master image's size as a person sees it: what overlays are placed on.
package struct MasterSize: InputFact, Codable, Equatable {
    /// The schema's one pixel size; encoded as it is.
    package var pixels: PixelSize
    /// How a message names the size when the file stores the picture
    /// turned (" as displayed; its file stores it ..."), else "".
    package var note = ""

    package init(width: Int, height: Int, note: String = "") {
        pixels = PixelSize(width: width, height: height)
        self.note = note
    }

    package var width: Int { pixels.width }
    package var height: Int { pixels.height }

    package init(from decoder: Decoder) throws { pixels = try PixelSize(from: decoder) }
    package func encode(to encoder: Encoder) throws { try pixels.encode(to: encoder) }
}

/// The tile pyramid the document will be made into: what a viewer needs
/// to find its tiles.
extension PyramidLayout: InputFact {}

/// The app icon's asset catalog as it will be written.
package struct AppIconSet: InputFact {
    package var contents: AssetCatalogContents
    /// What `CFBundleIconName` must say.
    package var name = AssetCatalog.appIconName
}

/// Pictures and sounds an input shows on the preview page, in a section of
/// their own: any input may publish one, and the page shows them in the
/// order of `Inputs.all`, each picture at its size, each sound with the
/// browser's player.
package struct PreviewSection: InputFact {
    package struct Picture {
        package var label: String
        /// Relative to data/.
        package var path: String
        package var width: Int
        package var height: Int
    }

    package struct Sound {
        package var label: String
        /// Relative to data/.
        package var path: String
        /// Its MIME type, for the page's `<source type>` (`audio/mp4`).
        package var type: String
    }

    /// A word for the section's HTML id, unique among inputs (its component).
    package var id: String
    package var title: String
    package var description: String
    package var pictures: [Picture] = []
    package var sounds: [Sound] = []
}

/// The category icons as the catalog will hold them: each icon's number
/// and its path relative to data/.
package struct CategoryIcons: InputFact {
    package var paths: [Int: String]
}

/// The launch screens made, each `<w>x<h>` with its scale.
package struct LaunchScreens: InputFact {
    package var screens: [(width: Int, height: Int, scale: Int)]
}

/// The document as a IIIF image service (layout = "iiif3"): what a IIIF
/// Presentation manifest needs to paint it on a canvas.
package struct IIIFService: InputFact, Equatable {
    /// `[document] iiif_base_url`, without a trailing slash.
    package var base: String
    package var pyramid: PyramidLayout
    /// The tiles' format: jpeg, png or webp.
    package var format: String

    /// The image service's id, as info.json gives it.
    package var id: String { base + "/" + pyramid.name }
}

/// The clause file as read, also when it has mistakes, so that the category
/// icons can still be checked against its categories.
package struct ClauseList: InputFact {
    package var file: ClauseFile
    /// Its path in the project, for messages.
    package var path: String
    /// `[clauses] measured_width`: the file's rectangles are in pixels of a
    /// copy this wide (the file's own are already scaled to the master).
    package var measuredWidth: Int?
}

/// What a check hands on: the plan when the input is good, and the facts it
/// learnt either way.
package struct Checked<Plan> {
    package var plan: Plan?
    package var facts: [any InputFact] = []

    package static var failed: Checked { Checked(plan: nil) }
}

/// A checked input, ready to make: it names the files it was made from.
package protocol InputPlan: Sendable {
    var sources: [SourceRef] { get }
}

/// An input file a plan was made from: hashed already when the check read
/// it whole, or left for the builder to hash (a master of gigabytes, which
/// the check reads only the header of).
package enum SourceRef: Sendable {
    case read(SourceFile)
    case large(path: String)

    package var path: String {
        switch self {
        case .read(let file): return file.path
        case .large(let path): return path
        }
    }
}

/// What make returns: the files under data/ and the record for bundle.json.
package struct Made<Record> {
    package var payload: [PayloadFile]
    /// Files made only as the archive is written (tiles with no earlier
    /// archive to copy them from), after `payload`.
    package var stream: (any PayloadStream)?
    package var record: Record
    /// Work-cache entries the payload's files stream from that the new
    /// archive makes redundant: removed once it is in place, so a tile is
    /// kept on disk once, in the archive (which a later build copies from).
    package var transient: [URL] = []
}

/// What a check may use: the project folder, a place for its problems, and
/// reads of whole input files (each hashed as it is read, for bundle.json).
package struct CheckEnvironment {
    package let project: ProjectFolder
    package let sink: DiagnosticSink

    package init(project: ProjectFolder, sink: DiagnosticSink) {
        self.project = project
        self.sink = sink
    }

    /// A problem with a whole file (not a key in it).
    package func problem(_ relativePath: String, _ message: String) {
        sink.add(Diagnostic(file: project.display(relativePath), message: message))
    }

    /// Reads a whole input file: its bytes serve hashing, checking and the payload alike.
    package func read(_ relativePath: String) -> (data: Data, source: SourceFile)? {
        guard let data = FileManager.default.contents(atPath: project.url(relativePath).path) else {
            problem(relativePath, "cannot read the file")
            return nil
        }
        return (data, SourceFile(path: relativePath, sha256: Digest.hex(data), bytes: data.count))
    }
}

/// What make may use: the project (for its work cache and templates), the
/// hashes of the plan's sources, progress, and how many cores it may keep
/// busy at once. The builder decides that number: an input running beside
/// another gets fewer.
package struct MakeEnvironment {
    package let project: Project
    package let sources: [String: SourceFile]
    /// The time stamped on every entry, ISO 8601 in UTC.
    package let sourceDate: String
    /// How many of its own tasks may run at once, one core each.
    package let workers: Int
    package let events: (@Sendable (BuildEvent) -> Void)?
    /// Archives built before, for entries that would be made again with
    /// the same bytes.
    package var previous = PreviousArchives(candidates: [])

    package init(project: Project, sources: [String: SourceFile], sourceDate: String, workers: Int,
                 events: (@Sendable (BuildEvent) -> Void)?, previous: PreviousArchives = PreviousArchives(candidates: [])) {
        self.project = project
        self.sources = sources
        self.sourceDate = sourceDate
        self.workers = workers
        self.events = events
        self.previous = previous
    }

    package func report(_ event: BuildEvent) { events?(event) }

    /// The hash of an input file of the plan.
    package func source(_ path: String) -> SourceFile {
        // The builder hashes every source of a plan before making it.
        sources[path]!
    }

    /// The work cache for one kind of output (`tiles`, `icons`, ...).
    package func cache(_ kind: String) -> WorkCache { WorkCache(project: project, kind: kind) }

    /// A make failure, naming the input file.
    package func failure(_ relativePath: String, _ message: String) -> Diagnostic {
        Diagnostic(file: project.display(relativePath), message: message)
    }
}

/// One version's side of a diff, for one input: its record and the files it
/// asked for (`diffFiles`), by path inside the bag.
package struct DiffSide<Record> {
    package var record: Record?
    package var files: [String: Data]

    package func decode<T: Decodable>(_ type: T.Type, _ path: String) -> T? {
        files[path].flatMap { try? JSONDecoder().decode(T.self, from: $0) }
    }
}
