import Archiving
import Foundation
import MCPackSchema
@testable import MCPackBag
@testable import MCPackKit

/// The seed corpora, made from the example project and its built archive,
/// so every target starts from inputs mcpack really reads.
enum Seeds {
    /// A payload file kept in the slim bag: the small ones (descriptors,
    /// JSON, the low pyramid levels) keep each seed quick to mutate.
    static func keeps(_ path: String, size: Int) -> Bool {
        size <= 4096 || [".json", ".dzi", ".storyboard", ".txt"].contains { path.hasSuffix($0) }
    }

    /// `keys`: the OpenSSH keys scripts/fuzz.sh made with ssh-keygen, for
    /// the signature targets' seeds (and its allowed_signers, written here).
    static func write(root: URL, exampleArchive: String, project: URL, keys: URL?) throws {
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
        for (path, data) in bag.knownTags ?? [] {
            switch path {
            case "bag-info.txt": try put("bag-info", path, data)
            case "bagit.txt": try put("bag-info", path, data) // its neighbour format, a useful seed
            default: try put("manifest", path, data)
            }
        }
        try fm.createDirectory(at: root.appendingPathComponent("archive"), withIntermediateDirectories: true)
        let mtime = 1_434_326_400 // 2015-06-15, mcpack's default source date
        for format in ArchiveFormat.built {
            let name = "\(top).\(format.fileExtension)"
            _ = try bag.write(to: root.appendingPathComponent("archive/\(name)").path, format: format, mtime: mtime)
        }
        _ = try bag.write(to: root.appendingPathComponent("base.zip").path, format: .zip, mtime: mtime)

        try put("bagit-profile", "mcpack.json", JSON.encode(BagItProfile.mcpackBundle))
        try put("bagit-profile", "every-field.json", Data(everyField.utf8))
        try put("icon-json", "icon.json", Data(iconJSON.utf8))
        try put("icon-json", "platforms-shared.json", Data(#"{ "groups" : [ { "layers" : [ { "image-name" : "seal.png", "name" : "seal" }, { "image-name" : "mark.svg", "hidden" : true } ] } ], "supported-platforms" : { "circles" : [ "watchOS" ], "squares" : "shared" } }"#.utf8))
        try SignatureSeeds.write(root: root, keys: keys)
        try ChannelKeySeeds.write(root: root)
        print("seeded \(root.path): \(payload.count) payload files of the example kept in the slim bag")
    }

    /// A profile using every field the specification has, as the Library
    /// of Congress and APTrust profiles do.
    static let everyField = #"""
        { "BagIt-Profile-Info" : { "BagIt-Profile-Identifier" : "https://example.org/profile.json", "BagIt-Profile-Version" : "1.4.0",
            "Source-Organization" : "Example", "External-Description" : "every field", "Version" : "2", "Contact-Name" : "A", "Contact-Email" : "a@example.org" },
          "Bag-Info" : { "Source-Organization" : { "required" : true, "values" : [ "Example", "Other" ] },
                         "Bundle-Version" : { "required" : false, "repeatable" : false }, "Payload-Oxum" : { "required" : true } },
          "Manifests-Required" : [ "sha256" ], "Manifests-Allowed" : [ "sha256", "sha512", "md5" ],
          "Tag-Manifests-Required" : [ "sha256" ], "Tag-Manifests-Allowed" : [ "sha256", "sha512" ],
          "Allow-Fetch.txt" : false, "Fetch.txt-Required" : false, "Data-Empty" : false, "Serialization" : "optional",
          "Accept-Serialization" : [ "application/zip", "application/x-tar" ], "Accept-BagIt-Version" : [ "0.97", "1.0" ],
          "Tag-Files-Required" : [ "bag-info.txt", "bagit-profile.json" ], "Tag-Files-Allowed" : [ "*" ],
          "Payload-Files-Required" : [ "data/bundle.json" ], "Payload-Files-Allowed" : [ "data/*", "data/**/*.json" ] }
        """#

    /// An Icon Composer document as Xcode 26 writes one (the shape of
    /// ImageTests' composerJSON).
    static let iconJSON = #"""
        { "fill" : { "automatic-gradient" : "display-p3:0.89106,0.42105,0.27834,1.00000" },
          "groups" : [ { "hidden" : false, "layers" : [ { "blend-mode" : "normal", "glass" : true, "image-name" : "seal.png", "name" : "layer0", "opacity" : 1 },
                                                        { "image-name" : "mark.svg", "name" : "layer1" } ], "name" : "Group", "specular" : true } ],
          "supported-platforms" : { "squares" : [ "iOS", "macOS" ] } }
        """#
}
