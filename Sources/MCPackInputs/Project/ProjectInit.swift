import FileIO
import Foundation

/// `mcpack init`: a new project from Templates/init, ready to fill.
package enum ProjectInit {
    /// The folders a project keeps its assets in, made empty by init.
    package static let assetFolders = ["assets/document", "assets/icon", "assets/launch", "assets/categories"]

    /// Creates the project in `folder` (made if missing). Refuses to touch
    /// a folder that already holds any file init would write.
    package static func create(in folder: URL) throws -> [String] {
        let set = try TemplateSet.load("init")
        let name = bundleName(for: folder.standardizedFileURL.lastPathComponent)
        let rendered = set.render([
            "name": name,
            "title": name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " "),
            "output": "dist",
        ])
        let existing = rendered.map(\.path).filter { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
        if !existing.isEmpty {
            throw FileError(path: folder.appendingPathComponent(existing[0]).path,
                            message: "already exists; mcpack init never overwrites a file. Choose an empty folder.")
        }
        var created: [String] = []
        for sub in assetFolders {
            let url = folder.appendingPathComponent(sub)
            if !FileManager.default.fileExists(atPath: url.path) {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                created.append(sub + "/")
            }
        }
        for file in rendered {
            let url = folder.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try OutputFile.write(file.data, to: url)
            created.append(file.path)
        }
        return created
    }

    /// A folder name made into a valid bundle name: "My Charter" -> "my-charter".
    package static func bundleName(for folderName: String) -> String {
        let lowered = folderName.lowercased().map { ($0.isASCII && ($0.isLetter || $0.isNumber)) ? $0 : "-" }
        let name = String(lowered).split(separator: "-").joined(separator: "-")
        return name.isEmpty ? "bundle" : name
    }
}
