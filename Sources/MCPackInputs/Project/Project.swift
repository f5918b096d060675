import FileIO
import Foundation
import MCPackSchema

/// A project folder: bundle.toml and the files it names.
package struct Project: Sendable {
    /// The folder holding bundle.toml; every path in it is relative to this.
    package let root: URL
    /// bundle.toml as the user named it, for messages.
    package let configDisplayPath: String
    package let config: BundleConfig
    /// bundle.toml itself, hashed from the read that parsed it.
    package let configSource: SourceFile

    /// Reads and checks bundle.toml. Throws `InputError` with every problem.
    package static func load(configPath: String) throws -> Project {
        let sink = DiagnosticSink()
        guard let project = load(configPath: configPath, sink: sink) else { throw InputError(sink.all) }
        try sink.throwIfErrors()
        return project
    }

    package static func load(configPath: String, sink: DiagnosticSink) -> Project? {
        read(configPath: configPath, sink: sink)?.project
    }

    /// bundle.toml read as far as it goes: the project when it has no
    /// mistakes, and in any case the folder and the settings of each input
    /// whose own table is sound, so that a mistake in one table does not
    /// hide those of the inputs it does not concern. Nil when bundle.toml
    /// itself cannot be read or parsed.
    package struct Reading {
        package var folder: ProjectFolder
        package var inputs: InputSettings
        package var project: Project?
    }

    package static func read(configPath: String, sink: DiagnosticSink) -> Reading? {
        let file = URL(fileURLWithPath: configPath).standardizedFileURL
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), isDirectory.boolValue {
            sink.add(Diagnostic(file: configPath, message: "is a folder; give the path of its bundle.toml"))
            return nil
        }
        if !FileManager.default.fileExists(atPath: file.path) {
            sink.add(Diagnostic(file: configPath, message: "no such file; run `mcpack init` to make a project, or pass --config"))
            return nil
        }
        let paths = ProjectPaths(root: file.deletingLastPathComponent())
        guard let toml = TOMLSource.load(file, displayPath: configPath, sink: sink) else { return nil }
        let (config, inputs) = BundleConfig.read(toml, paths: paths)
        let folder = ProjectFolder(root: paths.root, configDisplayPath: configPath)
        let project = config.map { config in
            Project(root: paths.root, configDisplayPath: configPath, config: config,
                    configSource: SourceFile(path: file.lastPathComponent, sha256: toml.sha256, bytes: toml.byteCount))
        }
        return Reading(folder: folder, inputs: inputs, project: project)
    }

    /// The folder alone, as an input's check sees it.
    package var folder: ProjectFolder { ProjectFolder(root: root, configDisplayPath: configDisplayPath) }

    package func url(_ relative: String) -> URL { folder.url(relative) }

    /// A project-relative path as a person at the shell would type it.
    package func display(_ relative: String) -> String { folder.display(relative) }

    package var outputFolder: URL { url(config.output) }

    /// Work kept between builds (tiles); ignored by git, safe to delete.
    package var cacheFolder: URL { root.appendingPathComponent(".mcpack-cache") }
}

/// The project folder and the name its bundle.toml was given by: all an
/// input's check uses of the project, so that it can run when bundle.toml
/// has mistakes in other tables.
package struct ProjectFolder: Sendable {
    package let root: URL
    package let configDisplayPath: String

    package func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    package func display(_ relative: String) -> String {
        let here = FileSystem.canonical(URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).path
        let full = url(relative).path
        return full.hasPrefix(here + "/") ? String(full.dropFirst(here.count + 1)) : full
    }
}

/// Checks that a path named in bundle.toml exists and stays inside the
/// project folder, so a build can never read or write elsewhere.
package struct ProjectPaths {
    package enum Kind { case file, directory, any, outputFolder }

    package let root: URL

    package init(root: URL) {
        self.root = FileSystem.canonical(root)
    }

    /// Returns the path relative to the project folder, or nil after
    /// recording what is wrong with it.
    package func check(_ table: TableReader, _ key: String, kind: Kind) -> String? {
        guard let raw = table.string(key) else { return nil }
        if raw.isEmpty {
            table.error(key, "empty path; give a path relative to the project folder")
            return nil
        }
        if let control = firstControlCharacter(raw) {
            table.error(key, "\"\(raw)\" contains a control character (\(control)); file and folder names must be printable")
            return nil
        }
        if raw.hasPrefix("/") || raw.hasPrefix("~") || raw.prefixMatch(of: #/[A-Za-z]:[\\\/]/#) != nil {
            table.error(key, "\"\(raw)\" is an absolute path; give a path relative to the project folder (\(root.path))")
            return nil
        }
        let url = root.appendingPathComponent(raw).standardizedFileURL
        let resolved = FileSystem.canonical(url)
        guard inside(url), inside(resolved) else {
            table.error(key, "\"\(raw)\" leads outside the project folder (\(root.path)); keep every input inside it")
            return nil
        }
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: resolved.path, isDirectory: &isDirectory)
        switch kind {
        case .file where !exists, .directory where !exists, .any where !exists:
            table.error(key, "\"\(raw)\" does not exist in the project folder")
            return nil
        case .file where isDirectory.boolValue:
            table.error(key, "\"\(raw)\" is a folder; expected a file")
            return nil
        case .directory where !isDirectory.boolValue:
            table.error(key, "\"\(raw)\" is a file; expected a folder")
            return nil
        case .outputFolder where exists && !isDirectory.boolValue:
            table.error(key, "\"\(raw)\" is a file; expected a folder")
            return nil
        default:
            break
        }
        let relative = String(url.path.dropFirst(root.path.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        if relative.isEmpty && kind != .any && kind != .directory {
            table.error(key, "\"\(raw)\" is the project folder itself; name a folder inside it")
            return nil
        }
        return relative.isEmpty ? "." : relative
    }

    private func inside(_ url: URL) -> Bool {
        url.path == root.path || url.path.hasPrefix(root.path + "/")
    }
}
