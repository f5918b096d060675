import Foundation

/// data/bundle.json, as read back: what was built, from what. Each input's
/// record sits under `components.<name>` in the input's own type (written
/// by mcpack's builder, which knows every input); a reader decodes the head
/// and the records it knows with `BundleJSON.component(_:named:from:)`.
public enum BundleJSON {
    public static let path = "data/bundle.json"
    /// The schema number bundle.json carries at its top.
    public static let schema = 1

    /// The bundle's name, version, title and date.
    public struct Info: Codable, Equatable, Sendable {
        public var name: String
        public var version: String
        public var title: String
        public var sourceDate: String

        public init(name: String, version: String, title: String, sourceDate: String) {
            self.name = name
            self.version = version
            self.title = title
            self.sourceDate = sourceDate
        }

        enum CodingKeys: String, CodingKey { case name, version, title, sourceDate = "source_date" }
    }

    /// bundle.json's head, as the builder writes it and verify, diff and
    /// the app read it. Read leniently: a field missing from an older or
    /// damaged file is nil, not a failure, and the two fields no rule
    /// reads (`schema`, `libraries`) are nil when malformed too.
    public struct Head: Codable, Sendable {
        public var schema: Int?
        public var mcpack: String?
        public var bundle: Info?
        /// The libraries whose versions the archive's bytes depend on, as
        /// each reports itself at run time: the same inputs give the same
        /// bytes only with the same versions, so a receiver comparing two
        /// builds can tell a changed library from a changed input.
        public var libraries: [String: String]?
        public var components: Components?
        /// bundle.toml and every input file read, in byte order of their paths.
        public var inputs: [SourceFile]?

        public init(mcpack: String, bundle: Info, libraries: [String: String], components: Components, inputs: [SourceFile]) {
            schema = BundleJSON.schema
            self.mcpack = mcpack
            self.bundle = bundle
            self.libraries = libraries
            self.components = components
            self.inputs = inputs
        }

        enum CodingKeys: String, CodingKey { case schema, mcpack, bundle, libraries, components, inputs }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            schema = try? container.decodeIfPresent(Int.self, forKey: .schema)
            mcpack = try container.decodeIfPresent(String.self, forKey: .mcpack)
            bundle = try container.decodeIfPresent(Info.self, forKey: .bundle)
            libraries = try? container.decodeIfPresent([String: String].self, forKey: .libraries)
            components = try container.decodeIfPresent(Components.self, forKey: .components)
            inputs = try container.decodeIfPresent([SourceFile].self, forKey: .inputs)
        }
    }

    /// Each input's record by its component name, in the input's own
    /// `Codable` type, which only the builder knows all of: written whole,
    /// read back only as there (an object), each record then decoded by
    /// whoever knows its type, with `component(_:named:from:)`.
    public struct Components: Codable, Sendable {
        public var records: [String: any Encodable & Sendable]

        public init(_ records: [String: any Encodable & Sendable]) { self.records = records }

        public init(from decoder: Decoder) throws {
            _ = try decoder.container(keyedBy: AnyKey.self)
            records = [:]
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: AnyKey.self)
            for (name, record) in records { try container.encode(record, forKey: AnyKey(name)) }
        }
    }

    /// One component's record, decoded as `type`; nil when the file has no
    /// such component. Throws when the file or the record is malformed.
    public static func component<Record: Decodable>(_ type: Record.Type, named name: String, from data: Data) throws -> Record? {
        let decoder = JSONDecoder()
        decoder.userInfo[componentName] = name
        return try decoder.decode(Component<Record>.self, from: data).record
    }

    private static let componentName = CodingUserInfoKey(rawValue: "mcpack.component")!

    private struct Component<Record: Decodable>: Decodable {
        var record: Record?

        init(from decoder: Decoder) throws {
            let name = decoder.userInfo[BundleJSON.componentName] as? String ?? ""
            let root = try decoder.container(keyedBy: AnyKey.self)
            let components = try root.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("components"))
            record = try components.decodeIfPresent(Record.self, forKey: AnyKey(name))
        }
    }
}

/// An input file, as bundle.json records it.
public struct SourceFile: Codable, Equatable, Sendable {
    public var path: String
    public var sha256: String
    public var bytes: Int

    public init(path: String, sha256: String, bytes: Int) {
        self.path = path
        self.sha256 = sha256
        self.bytes = bytes
    }
}
