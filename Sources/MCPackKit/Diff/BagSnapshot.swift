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
        snapshot.files = try files(wanted, of: path)
        guard let manifest = snapshot.files["manifest-sha256.txt"] else {
            throw FileError(path: path, message: "has no manifest-sha256.txt; not a bag mcpack can compare")
        }
        snapshot.manifest = Manifest(manifest)
        snapshot.info = BagInfo.labels(String(decoding: snapshot.files["bag-info.txt"] ?? Data(), as: UTF8.self))
        return snapshot
    }

    /// The named files (paths inside the bag) of an archive or bag folder;
    /// everything else is skipped unread.
    static func files(_ wanted: Set<String>, of path: String) throws -> [String: Data] {
        // A zip's few wanted files are read where its directory puts them.
        if let read = BagReader.zipFiles(path, wanted) { return read.files }
        let stream = try BagEntryStream(wanted, of: path)
        var files: [String: Data] = [:]
        while let (name, data) = try stream.next() { files[name] = data }
        return files
    }
}

/// The named files of an archive or bag folder one at a time, in the order
/// the archive holds them, so that a reader of thousands of tiles keeps
/// only those it still needs.
final class BagEntryStream {
    private let path: String
    private let reader: BagReader

    init(_ wanted: Set<String>, of path: String) throws {
        self.path = path
        do {
            // mcpack writes the payload first and the tag files last: a zip's
            // entries are reached through its central directory, so the files
            // a diff needs are read without reading 17,000 tiles; a tar is
            // read through to its last wanted file. A file over 64 MiB is not one a
            // diff reads: it is passed by, never held. A bag that cannot be
            // read to its end is not compared at all, rather than in part.
            reader = try BagReader(path, only: wanted, refusing: { $0.stops || $0.kind == .noCentralDirectory }) { entry in
                (entry.size ?? 0) <= BagReader.Keep.wholeLimit ? BagReader.Keep(.whole) : .skip
            }
        } catch is BagReader.CannotOpen {
            throw FileError(path: path, message: "not a zip or tar archive mcpack can read")
        } catch let issue as BagReader.Issue {
            throw issue.cause ?? FileError(path: path, message: issue.description)
        }
    }

    /// The next wanted file, or nil when every one was found or the
    /// archive ends.
    func next() throws -> (path: String, data: Data)? {
        while true {
            let file: BagReader.File?
            do { file = try reader.next() } catch let issue as BagReader.Issue {
                throw issue.cause ?? FileError(path: path, message: issue.description)
            }
            guard let file else { return nil }
            if let damage = file.damage {
                throw FileError(path: path, message: "\(file.entry.path) is damaged (\(damage)); run `mcpack verify \(path)` for the whole story")
            }
            guard let data = file.data else { continue }
            return (file.entry.path, data)
        }
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
