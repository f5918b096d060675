import Foundation
@testable import MCPackInputs
@testable import MCPackKit
import MCPackSchema

extension FuzzTarget {
    /// A BagIt profile (`verify --profile FILE`), read, then held against
    /// the small real bag as a zip and as a folder, which every rule of it
    /// reads.
    static let bagitProfile = FuzzTarget(name: "bagit-profile", setUp: loadBaseBag) { data in
        guard let profile = try? ProfileRules.read(data, path: "profile.json") else { return }
        _ = ProfileRules.check(baseBag, profile: profile, path: "fuzz.zip", serialized: true)
        _ = ProfileRules.check(baseBag, profile: profile, path: "fuzz", serialized: false)
    }

    /// An Icon Composer document's icon.json, in a bag beside a picture
    /// and an SVG it may name, through verify's rule for it (the build's
    /// check decodes it the same way, then reads the pictures it names).
    static let iconJSON = FuzzTarget(name: "icon-json") { data in
        let folder = "data/\(IconComposer.bundleFolder)"
        var contents = BagContents()
        for (path, bytes) in [("\(folder)/icon.json", data), ("\(folder)/Assets/seal.png", Data([0x89, 0x50, 0x4e, 0x47])),
                              ("\(folder)/Assets/mark.svg", Data("<svg/>".utf8))] {
            contents.put(BagFile(path: path, size: Int64(bytes.count), digests: [:], data: bytes))
        }
        _ = IconsInput.verifyComposer(nil, in: BagView(contents: contents))
        if let document = try? JSONDecoder().decode(IconComposerDocument.self, from: data) {
            _ = document.notForIOS
            _ = document.layers.map(\.1.imageName)
            // Codable both ways (the schema's types are): what it writes
            // must read back as the document it was.
            let again = try? JSONDecoder().decode(IconComposerDocument.self, from: JSONEncoder().encode(document))
            if again != document { fatalError("icon.json does not read back as it was written") }
        }
    }
}
