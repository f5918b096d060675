import Foundation
import MCPackReader

/// Where the kiosk's bundles live: the versions the updater installs, and
/// the bag built into the app, shown until a newer one is installed.
enum BagLocation {
    /// The updater's bundles: `Application Support/Bundle` is the link to
    /// the current version, and `Bundle.mcpack/` holds the versions, the
    /// downloads and what the updater remembers. The layout `mcpack pull
    /// --into .../Bundle` makes, so a developer can pull into a simulator's
    /// container and the app takes that version as its own.
    static var store: BundleStore {
        let support = URL.applicationSupportDirectory
        return BundleStore(folder: support.appending(path: "Bundle.mcpack", directoryHint: .isDirectory),
                           link: support.appending(path: "Bundle", directoryHint: .notDirectory))
    }

    /// The copy built into the app: the project's Bundle folder, a folder
    /// reference, so the bag keeps its tree inside the app.
    static var builtIn: URL? {
        Bundle.main.resourceURL?.appending(path: "Bundle", directoryHint: .isDirectory)
    }

    /// Keeps the installed versions out of iCloud and computer backups: the
    /// channel serves them again, and a restored state.json without its
    /// versions would hold the updater to a version the device no longer
    /// has.
    static func excludeFromBackup(_ store: BundleStore) {
        var folder = store.folder
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        try? folder.setResourceValues(values)
    }

    /// The bag in the first of `places` that holds one: the place itself
    /// when it is a bag, else the bag among its folders whose name sorts
    /// last, so magna-carta-1.0.10 wins over magna-carta-1.0.9.
    static func find(in places: [URL]) -> URL? {
        for place in places {
            if isBag(place) { return place }
            let folders = (try? FileManager.default.contentsOfDirectory(at: place, includingPropertiesForKeys: nil, options: .skipsHiddenFiles)) ?? []
            let bags = folders.filter(isBag)
            if let newest = bags.max(by: { $0.lastPathComponent.compare($1.lastPathComponent, options: .numeric) == .orderedAscending }) {
                return newest
            }
        }
        return nil
    }

    static func isBag(_ folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appending(path: "bagit.txt").path(percentEncoded: false))
    }
}
