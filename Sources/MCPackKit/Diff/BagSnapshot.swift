import Archiving
import Foundation

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
    private var wanted: Set<String>
    private var reader: ArchiveReader?
    /// A folder's files, read in path order.
    private var folderFiles: [String] = []

    init(_ wanted: Set<String>, of path: String) throws {
        self.path = path
        self.wanted = wanted
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FileError(path: path, message: "no such file or folder")
        }
        if isDirectory.boolValue {
            folderFiles = wanted.sorted().reversed()
            return
        }
        do { reader = try ArchiveReader(path: path) } catch {
            throw FileError(path: path, message: "not a zip or tar archive mcpack can read")
        }
    }

    /// The next wanted file, or nil when every one was found or the
    /// archive ends; a file over 64 MiB is skipped, never held.
    func next() throws -> (path: String, data: Data)? {
        guard let reader else {
            while let name = folderFiles.popLast() {
                if let data = FileManager.default.contents(atPath: (path as NSString).appendingPathComponent(name)) { return (name, data) }
            }
            return nil
        }
        // mcpack writes tag files first and the payload in byte order, so the
        // files a diff needs are found without walking 17,000 tiles, and the
        // walk stops at the last.
        while !wanted.isEmpty, let entry = try reader.next() {
            guard let name = entry.path, entry.isRegular else { continue }
            let relative = name.split(separator: "/").dropFirst().joined(separator: "/")
            guard wanted.remove(relative) != nil else { continue }
            guard (entry.size ?? 0) <= 64 << 20 else { continue }
            var data = Data(capacity: Int(entry.size ?? 0))
            do {
                try reader.readData { data.append(contentsOf: $0) }
            } catch let damage as ArchiveReader.EntryDamaged {
                throw FileError(path: path, message: "\(relative) is damaged (\(damage)); run `mcpack verify \(path)` for the whole story")
            }
            return (relative, data)
        }
        return nil
    }
}

/// Turns a diff argument into a path: an archive or folder as given, or a
/// version (`1.2.0`, `v1.2.0`) looked up in the project's output folder.
public enum DiffTarget {
    public static func resolve(_ argument: String, configPath: String) throws -> String {
        if FileManager.default.fileExists(atPath: argument) { return argument }
        let version = argument.hasPrefix("v") ? String(argument.dropFirst()) : argument
        guard SemanticVersion(version) != nil else {
            throw FileError(path: argument, message: "no such file or folder, and not a version such as 1.0.0")
        }
        let project = try Project.load(configPath: configPath)
        let folder = project.outputFolder
        for format in ArchiveFormat.allCases {
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
            for format in ArchiveFormat.allCases where file.hasSuffix("." + format.fileExtension) {
                let version = String(file.dropFirst(name.count + 1).dropLast(format.fileExtension.count + 1))
                if SemanticVersion(version) != nil { versions.insert(version) }
            }
        }
        return versions.sorted { $0.compare($1, options: .numeric) == .orderedAscending }
    }
}
