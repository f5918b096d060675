import Foundation

/// The folders the kiosk looks in for its bundle, an unpacked bag (the
/// folder holding bagit.txt and data/), first to last.
enum BagLocation {
    /// Where a bundle installed after the app lives: an updater, or a
    /// developer copying one onto a device or simulator, puts it here, so it
    /// wins over the copy built into the app.
    static var installed: URL {
        URL.applicationSupportDirectory.appending(path: "Bundles", directoryHint: .isDirectory)
    }

    /// The copy built into the app: the project's Bundle folder, a folder
    /// reference, so the bag keeps its tree inside the app.
    static var builtIn: URL? {
        Bundle.main.resourceURL?.appending(path: "Bundle", directoryHint: .isDirectory)
    }

    static var standard: [URL] { [installed] + [builtIn].compactMap { $0 } }

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
