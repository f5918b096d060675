import MCPackInputs
import MCPackBag
import FileIO
import Foundation
import MCPackSchema

/// What `mcpack diff` needs of one version: the payload manifest, the
/// bag-info labels and the small data files (bundle.json, and those the
/// inputs' diffs read). Tiles and images are compared by their manifest hashes,
/// so nothing is decoded and large files are never read.
struct BagSnapshot {
    var label: String
    /// The payload manifest; `ManifestDelta` compares two of them.
    var manifest = Manifest()
    var info: [(String, String)] = []
    var files: [String: Data] = [:]

    /// The tag files, bundle.json and the files the inputs' diffs read.
    static let wanted = Set(["bag-info.txt", "manifest-sha256.txt", "data/bundle.json"] + Inputs.all.flatMap { $0.diffFiles })

    /// Reads an archive (one streaming pass, skipping what it does not need)
    /// or an unpacked bag folder.
    static func load(_ path: String, label: String) throws -> BagSnapshot {
        var snapshot = BagSnapshot(label: label)
        snapshot.files = try BagFiles.read(wanted, of: path)
        guard let manifest = snapshot.files["manifest-sha256.txt"] else {
            throw FileError(path: path, message: "has no manifest-sha256.txt; not a bag mcpack can compare")
        }
        snapshot.manifest = Manifest(manifest)
        snapshot.info = BagInfo.labels(String(decoding: snapshot.files["bag-info.txt"] ?? Data(), as: UTF8.self))
        return snapshot
    }
}

/// Turns a diff argument into a path: an archive or folder as given, or a
/// version (`1.2.0`, `v1.2.0`) looked up in the project's output folder.
package enum DiffTarget {
    package static func resolve(_ argument: String, configPath: String) throws -> String {
        if FileManager.default.fileExists(atPath: argument) { return argument }
        let version = argument.hasPrefix("v") ? String(argument.dropFirst()) : argument
        guard SemanticVersion(version) != nil else {
            throw FileError(path: argument, message: "no such file or folder, and not a version such as 1.0.0")
        }
        let project = try Project.load(configPath: configPath)
        let folder = project.outputFolder
        for format in ArchiveFormat.built {
            let candidate = folder.appendingPathComponent("\(project.config.name)-\(version).\(format.fileExtension)")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate.path }
        }
        let found = versions(in: folder, name: project.config.name)
        throw FileError(path: argument, message: "no archive of version \(version) in \(Builder.display(folder)); "
            + (found.isEmpty ? "it holds no versions of \(project.config.name)" : "versions found: \(found.joined(separator: ", "))"))
    }

    static func versions(in folder: URL, name: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var versions = Set<String>()
        for file in names where file.hasPrefix(name + "-") {
            if let (_, stem) = ArchiveFormat.written(file) {
                let version = String(stem.dropFirst(name.count + 1))
                if SemanticVersion(version) != nil { versions.insert(version) }
            }
        }
        return versions.sorted { $0.compare($1, options: .numeric) == .orderedAscending }
    }
}
