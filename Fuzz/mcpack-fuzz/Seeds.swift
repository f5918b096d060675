import Archiving
import Foundation
import MCPackSchema
@testable import MCPackKit

/// The seed corpora, made from the example project and its built archive,
/// so every target starts from inputs mcpack really reads.
enum Seeds {
    /// A payload file kept in the slim bag: the small ones (descriptors,
    /// JSON, the low pyramid levels) keep each seed quick to mutate.
    static func keeps(_ path: String, size: Int) -> Bool {
        size <= 4096 || [".json", ".dzi", ".storyboard", ".txt"].contains { path.hasSuffix($0) }
    }

    static func write(root: URL, exampleArchive: String, project: URL) throws {
        let fm = FileManager.default
        func put(_ target: String, _ name: String, _ data: Data) throws {
            let folder = root.appendingPathComponent(target)
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
            try data.write(to: folder.appendingPathComponent(name))
        }

        try put("bundle-toml", "bundle.toml", Data(contentsOf: project.appendingPathComponent("bundle.toml")))
        try put("clauses-toml", "clauses.toml", Data(contentsOf: project.appendingPathComponent("assets/clauses.toml")))

        for name in try fm.contentsOfDirectory(atPath: project.appendingPathComponent("assets/categories").path).sorted().prefix(3) {
            try put("png-check", name, Data(contentsOf: project.appendingPathComponent("assets/categories/\(name)")))
        }

        // The example archive, slimmed to its small files and bagged again so
        // its manifests are right for what it holds.
        let reader = try ArchiveReader(path: exampleArchive)
        var top = "bag"
        var tags: [String: Data] = [:]
        var payload: [PayloadFile] = []
        while let entry = try reader.next() {
            guard entry.isRegular, let path = entry.path, let slash = path.firstIndex(of: "/") else { continue }
            top = String(path[..<slash])
            let inner = String(path[path.index(after: slash)...])
            var data = Data()
            try reader.readData { data.append(contentsOf: $0) }
            if inner.hasPrefix("data/") {
                if keeps(inner, size: data.count) { payload.append(PayloadFile(path: String(inner.dropFirst(5)), bytes: data)) }
            } else {
                tags[inner] = data
            }
        }
        let info = BagInfo.labels(String(decoding: tags["bag-info.txt"] ?? Data(), as: UTF8.self))
            .filter { $0.0 != "Payload-Oxum" }
        let bag = try Bag.assemble(top: top, payload: payload, info: info)
        for (path, data) in bag.tagFiles {
            switch path {
            case "bag-info.txt": try put("bag-info", path, data)
            case "bagit.txt": try put("bag-info", path, data) // its neighbour format, a useful seed
            default: try put("manifest", path, data)
            }
        }
        try fm.createDirectory(at: root.appendingPathComponent("archive"), withIntermediateDirectories: true)
        let mtime = 1_434_326_400 // 2015-06-15, mcpack's default source date
        for format in ArchiveFormat.allCases {
            let name = "\(top).\(format.fileExtension)"
            try bag.write(to: root.appendingPathComponent("archive/\(name)").path, format: format, mtime: mtime)
        }
        try bag.write(to: root.appendingPathComponent("base.zip").path, format: .zip, mtime: mtime)
        print("seeded \(root.path): \(payload.count) payload files of the example kept in the slim bag")
    }
}
