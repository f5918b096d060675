import Foundation
import MCPackSchema

/// An unpacked bundle, as the kiosk app holds it: the bag's top folder
/// (`<name>-<version>/`, with bagit.txt and data/). Opening it reads only
/// the small files (bundle.json, clauses.json, categories.json and the
/// pyramid's descriptor); the tiles are read when they come into view, and
/// every file only by `verify`.
public struct KioskBundle: Sendable {
    /// The bag's top folder, links resolved.
    public let folder: URL
    /// bundle.json's head: name, version, title and source date.
    public let info: BundleJSON.Info
    /// The clauses of clauses.json, in its order: a later clause's overlays
    /// are drawn over an earlier one's.
    public let clauses: [Clause]
    /// The side menu of categories.json, in icon order (the filters "all"
    /// and "none" among them).
    public let categories: [ClauseCategory]
    /// The scan and its tile pyramid.
    public let document: KioskDocument

    public var name: String { info.name }
    public var version: String { info.version }
    public var title: String { info.title }

    /// Which bundle this is: its folder and bundle.json's name and version.
    /// Two opens of the same bag are the same bundle; an update (a new
    /// version, or the same one unpacked into another folder) is not. What
    /// a view compares to know whether it was handed a new bundle.
    public struct Identity: Sendable, Hashable {
        /// The bag's top folder as an absolute path, standardized and with
        /// symbolic links resolved (so `/tmp/b`, `/tmp/b/` and, on macOS,
        /// `/private/tmp/b` are one folder).
        public var folder: String
        public var name: String
        public var version: String

        public init(folder: String, name: String, version: String) {
            self.folder = folder
            self.name = name
            self.version = version
        }
    }

    /// This bundle's identity, made when it was opened (comparing two
    /// touches no file).
    public let identity: Identity

    /// Opens the bag at `folder`; throws a `KioskBundleError` naming the
    /// file that is missing or malformed.
    public init(folder: URL) throws {
        // Links resolved once, here: a bundle opened through a link that an
        // update later switches (BundleStore.link) keeps reading the
        // version it opened, never the new one's tiles under its clauses.
        let folder = folder.standardizedFileURL.resolvingSymlinksInPath()
        self.folder = folder
        let bundleJSON = try Self.read(BundleJSON.path, in: folder)
        let head: BundleJSON.Head
        do { head = try JSONDecoder().decode(BundleJSON.Head.self, from: bundleJSON) } catch {
            throw KioskBundleError(path: BundleJSON.path, message: JSON.describe(error))
        }
        guard let info = head.bundle else { throw KioskBundleError(path: BundleJSON.path, message: "bundle is missing") }
        self.info = info
        identity = Identity(folder: folder.path, name: info.name, version: info.version)
        let record: DocumentRecord
        do {
            guard let decoded = try BundleJSON.component(DocumentRecord.self, named: DocumentRecord.component, from: bundleJSON) else {
                throw KioskBundleError(path: BundleJSON.path, message: "components.\(DocumentRecord.component) is missing: the bundle has no document")
            }
            record = decoded
        } catch let error as KioskBundleError { throw error } catch {
            throw KioskBundleError(path: BundleJSON.path, message: JSON.describe(error))
        }
        guard let layout = record.layout else {
            throw KioskBundleError(path: BundleJSON.path, message: "components.document.settings.layout is \"\(record.settings.layout)\"; this reader knows \"dz\" and \"iiif3\"")
        }
        document = try KioskDocument(layout: layout, dataFolder: folder.appendingPathComponent("data"))

        let clausesDocument: ClausesDocument = try Self.decode(ClausesDocument.path, in: folder)
        clauses = clausesDocument.clauses
        // categories.json is the menu; a bundle without it still has the
        // categories clauses.json declares.
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(CategoriesDocument.path).path) {
            let menu: CategoriesDocument = try Self.decode(CategoriesDocument.path, in: folder)
            categories = menu.categories
        } else {
            categories = CategoriesDocument(clausesDocument.categories).categories
        }
    }

    /// A category's icon: its image set's PNG in the bundle's catalog
    /// (data/Assets.xcassets/Categories/Category<icon>.imageset), or
    /// data/categories/<icon>.png in bundles made before the catalog.
    public func iconURL(for category: ClauseCategory) -> URL {
        let current = folder.appendingPathComponent("data/" + AssetCatalog.categoryImagePath(category.icon))
        let earlier = folder.appendingPathComponent("data/categories/\(category.icon).png")
        return FileManager.default.fileExists(atPath: current.path) || !FileManager.default.fileExists(atPath: earlier.path) ? current : earlier
    }

    static func read(_ path: String, in folder: URL) throws -> Data {
        let url = folder.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw KioskBundleError(path: path, message: "not found in \(folder.path): is this the bag's top folder (the one holding bagit.txt and data/)?")
        }
        do { return try Data(contentsOf: url) } catch {
            throw KioskBundleError(path: path, message: "cannot be read (\(error.localizedDescription))")
        }
    }

    static func decode<T: Decodable>(_ path: String, in folder: URL) throws -> T {
        let data = try read(path, in: folder)
        do { return try JSONDecoder().decode(T.self, from: data) } catch {
            throw KioskBundleError(path: path, message: JSON.describe(error))
        }
    }
}

/// A bundle that cannot be opened: which file (a path in the bag), and
/// what is wrong with it.
public struct KioskBundleError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file's path in the bag, e.g. `data/bundle.json`.
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

extension KioskBundleError: LocalizedError {
    public var errorDescription: String? { description }
}
