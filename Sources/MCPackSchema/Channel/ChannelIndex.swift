import Foundation

/// An update channel's `index.json` (docs/channel.md): the one signed file
/// of a channel. Everything else in it is named from here by SHA-256 and
/// size, so a reader that has checked this file's signature can check
/// every byte it fetches afterwards before it uses it.
public struct ChannelIndex: Codable, Sendable, Equatable {
    /// The layout this mcpack writes and reads; a reader refuses another,
    /// which a later mcpack would write only for a change old apps must not
    /// misread.
    public static let currentFormat = 1

    public var format: Int
    /// The bundle's name (bag-info.txt's Bundle-Name): one channel, one bundle.
    public var name: String
    /// Up by one at every change of the index (publish, prune, renew): a
    /// reader refuses an index lower than one it has seen.
    public var sequence: Int
    /// When the versions last changed (a publish or a prune), UTC.
    public var published: String
    /// After this (UTC, give or take the grace an app allows a kiosk whose
    /// clock is off) the index is refused: a channel frozen by a mirror or
    /// a cache cannot keep a kiosk on an old version for longer.
    public var expires: String
    /// Oldest first, by semantic version precedence.
    public var versions: [Version]

    /// One version of the bundle in the channel.
    public struct Version: Codable, Sendable, Equatable {
        public var version: String
        /// The bag's top folder in its archive, `name-version`.
        public var top: String
        /// The version's file list, an object of the channel.
        public var list: ChannelObject
        /// Every file of the bag, payload and tag files.
        public var files: Int
        /// The bytes of those files: what the version takes on disk.
        public var bytes: Int64

        public init(version: String, top: String, list: ChannelObject, files: Int, bytes: Int64) {
            self.version = version
            self.top = top
            self.list = list
            self.files = files
            self.bytes = bytes
        }
    }

    public init(name: String, sequence: Int, published: String, expires: String, versions: [Version]) {
        format = Self.currentFormat
        self.name = name
        self.sequence = sequence
        self.published = published
        self.expires = expires
        self.versions = versions
    }

    /// The version named `text`, if the channel has it.
    public func version(_ text: String) -> Version? { versions.first { $0.version == text } }

    /// The newest version, the one an updater installs.
    public var newest: Version? { versions.last }

    /// The index's bytes as the channel stores them: the kit's one JSON
    /// writer (keys in UTF-8 byte order), so the bytes signed are the same
    /// on every platform.
    public func encoded() -> Data { JSON.encode(self) }

    /// Decodes and checks an index; `ChannelFormatError` says what is wrong.
    /// Call only after its signature checked: an unsigned index is not read.
    public static func decode(_ data: Data) throws(ChannelFormatError) -> ChannelIndex {
        guard data.count <= ChannelLimits.maxIndexBytes else {
            throw ChannelFormatError("index.json is \(data.count) bytes, over the \(ChannelLimits.maxIndexBytes) a reader accepts")
        }
        let index: ChannelIndex
        do { index = try JSONDecoder().decode(ChannelIndex.self, from: data) } catch {
            throw ChannelFormatError("index.json: \(JSON.describe(error))")
        }
        try index.validate()
        return index
    }

    /// Every rule a reader relies on: a known format, a name, times it can
    /// read, and versions that are semantic, in order, each once, each
    /// naming a well-formed object.
    public func validate() throws(ChannelFormatError) {
        guard format == Self.currentFormat else {
            throw ChannelFormatError("index.json is format \(format); this reader knows format \(Self.currentFormat) (a newer mcpack made the channel)")
        }
        guard ChannelNames.isBundleName(name) else { throw ChannelFormatError("index.json: name \"\(name)\" is not a bundle name") }
        guard sequence >= 1 else { throw ChannelFormatError("index.json: sequence \(sequence) is not a positive number") }
        guard let publishedAt = ChannelTime.parse(published) else {
            throw ChannelFormatError("index.json: published \"\(published)\" is not a UTC time such as 2025-06-01T12:00:00Z")
        }
        guard let expiresAt = ChannelTime.parse(expires) else {
            throw ChannelFormatError("index.json: expires \"\(expires)\" is not a UTC time such as 2025-06-01T12:00:00Z")
        }
        guard expiresAt > publishedAt else { throw ChannelFormatError("index.json: expires \(expires) is not after published \(published)") }
        for (position, entry) in versions.enumerated() {
            let at = "index.json: versions[\(position)]"
            guard SemanticOrder.isVersion(entry.version) else { throw ChannelFormatError("\(at): \"\(entry.version)\" is not a semantic version") }
            guard ChannelNames.isFolderName(entry.top) else { throw ChannelFormatError("\(at): top \"\(entry.top)\" is not a folder name") }
            guard entry.files >= 1, entry.bytes >= 0 else { throw ChannelFormatError("\(at): \(entry.files) files of \(entry.bytes) bytes") }
            do { try entry.list.validate() } catch { throw ChannelFormatError("\(at).list: \(error.message)") }
            if position > 0, SemanticOrder.compare(versions[position - 1].version, entry.version) != .orderedAscending {
                throw ChannelFormatError("\(at): \(entry.version) does not come after \(versions[position - 1].version) (versions are listed once each, oldest first)")
            }
        }
    }
}

/// A file of the channel, named by its content: stored at
/// `objects/<first two hex digits>/<sha256>`.
public struct ChannelObject: Codable, Sendable, Hashable {
    /// Lower-case hex.
    public var sha256: String
    /// Exactly this many bytes: a reader reads no further (endless data).
    public var size: Int64

    public init(sha256: String, size: Int64) {
        self.sha256 = sha256
        self.size = size
    }

    /// Where the object lies, relative to the channel's folder or URL.
    public var path: String { ChannelObject.path(sha256) }

    public static func path(_ sha256: String) -> String { "objects/\(sha256.prefix(2))/\(sha256)" }

    public func validate() throws(ChannelFormatError) {
        guard ChannelNames.isSHA256(sha256) else { throw ChannelFormatError("sha256 \"\(sha256)\" is not 64 lower-case hex digits") }
        guard size >= 0 else { throw ChannelFormatError("size \(size) is negative") }
    }
}

/// What is wrong with a channel file, as one sentence naming the field.
public struct ChannelFormatError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The sizes a reader holds a channel's unsized files to, before it has
/// anything signed that says how large they are.
public enum ChannelLimits {
    /// index.json: some four thousand versions; prune long before.
    public static let maxIndexBytes = 1 << 20
    /// index.json.minisig: four lines, the untrusted comment free text.
    public static let maxSignatureBytes = 4096
}

/// The names a channel's records hold.
public enum ChannelNames {
    public static let index = "index.json"
    public static let signature = "index.json.minisig"
    public static let objects = "objects"

    /// Lower-case letters, digits and single hyphens, as bundle.toml's
    /// [bundle] name.
    public static func isBundleName(_ text: String) -> Bool {
        text.range(of: "^[a-z0-9]+(-[a-z0-9]+)*$", options: .regularExpression) != nil
    }

    /// One path component that is safe to create: the bag's top folder.
    public static func isFolderName(_ text: String) -> Bool {
        BagPath.isPlain(text) && !text.contains("/") && text.utf8.count <= 255
    }

    public static func isSHA256(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

/// The channel's times: UTC to the second, `2025-06-01T12:00:00Z`, the one
/// form written and the only one read, so two readers never disagree on
/// whether an index has expired.
public enum ChannelTime {
    public static func string(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        return formatter.string(from: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    }

    public static func parse(_ text: String) -> Date? {
        guard text.range(of: #"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$"#, options: .regularExpression) != nil else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: text), string(date) == text else { return nil }
        return date
    }
}
