import MCPackInputs
import MCPackBag
import FileIO
import Foundation

/// Where `mcpack preview` found the page it opens.
package struct PreviewResult: Sendable, Encodable {
    /// index.html, an absolute path.
    package var page: String
    /// The bag's folder: unpacked or built into a temporary folder, or the
    /// bag folder given.
    package var bag: String
    /// What was asked for: an archive, a bag folder or a project.
    package var source: String
    /// True when the project was built for it.
    package var built: Bool
}

/// `mcpack preview [ARCHIVE | BAG | PROJECT]`: the bundle's preview page,
/// ready to open. An archive is unpacked into a new temporary folder; a
/// project is built there first (its work cache makes that quick after a
/// build); an unpacked bag is used where it is.
package enum Previewer {
    package static func prepare(_ argument: String?, configPath: String,
                               events: (@Sendable (BuildEvent) -> Void)? = nil) async throws -> PreviewResult {
        var isFolder: ObjCBool = false
        if let argument, FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) {
            let url = URL(fileURLWithPath: argument).standardizedFileURL
            if isFolder.boolValue {
                if FileManager.default.fileExists(atPath: url.appendingPathComponent("bagit.txt").path) {
                    return try result(bag: url, source: argument, built: false)
                }
                let config = url.appendingPathComponent("bundle.toml")
                guard FileManager.default.fileExists(atPath: config.path) else {
                    throw FileError(path: argument, message: "is neither a bag (no bagit.txt) nor a project (no bundle.toml)")
                }
                return try await build(config.path, source: argument, events: events)
            }
            if url.pathExtension == "toml" { return try await build(url.path, source: argument, events: events) }
            return try unpack(argument, source: argument)
        }
        guard let argument else { return try await build(configPath, source: configPath, events: events) }
        // A version of this project (1.0.0, v1.0.0), as diff takes it.
        return try unpack(DiffTarget.resolve(argument, configPath: configPath), source: argument)
    }

    private static func unpack(_ archive: String, source: String) throws -> PreviewResult {
        let folder = try temporaryFolder()
        do {
            let bag = try BagUnpacker.unpack(archive, into: folder)
            return try result(bag: bag, source: source, built: false)
        } catch {
            // Nothing half unpacked, or without a page, is left behind.
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    private static func build(_ configPath: String, source: String, events: (@Sendable (BuildEvent) -> Void)?) async throws -> PreviewResult {
        let folder = try temporaryFolder()
        do {
            let built = try await Builder.build(BuildOptions(configPath: configPath, output: folder.path, events: events))
            let archive = built.archive.hasPrefix("/") ? built.archive : FileManager.default.currentDirectoryPath + "/" + built.archive
            let bag = try BagUnpacker.unpack(archive, into: folder)
            return try result(bag: bag, source: source, built: true)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    private static func result(bag: URL, source: String, built: Bool) throws -> PreviewResult {
        guard let relative = Inputs.browserPage else {
            throw FileError(path: source, message: "this mcpack makes no page to preview")
        }
        let page = bag.appendingPathComponent("data/\(relative)")
        guard FileManager.default.fileExists(atPath: page.path) else {
            throw FileError(path: source, message: "holds no preview page (data/\(relative)): it was built with [preview] include = false, from a project without a document, or by an mcpack older than the preview")
        }
        return PreviewResult(page: page.path, bag: bag.path, source: source, built: built)
    }

    /// A new folder of its own under the system's temporary folder, left in
    /// place: the browser reads the page from it after mcpack has exited.
    private static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-preview-\(UUID().uuidString.prefix(8).lowercased())")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        } catch {
            throw FileError(path: folder.path, message: "cannot create a temporary folder for the preview")
        }
        return folder
    }
}
