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

    /// What verify and diff read of any bundle.json, leniently: a field
    /// missing from an older or damaged file is nil, not a failure.
    public struct Head: Decodable, Sendable {
        public var mcpack: String?
        public var bundle: Info?
        public var inputs: [SourceFile]?
        /// Present when `components` is an object.
        public var components: ObjectPresence?
    }

    /// Decodes only when the value is a JSON object.
    public struct ObjectPresence: Decodable, Sendable {
        public init(from decoder: Decoder) throws { _ = try decoder.container(keyedBy: AnyKey.self) }
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
