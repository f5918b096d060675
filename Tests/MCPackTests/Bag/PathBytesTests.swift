import Foundation
import MCPackBag
import MCPackInputs
import MCPackSchema
import Testing

/// The byte-level answers about a path agree with Foundation's, which they
/// stand in for on every path of a bag.
@Suite struct PathBytesTests {
    static let paths = ["data/bundle.json", "data/A.JSON", "x.Json", ".json", "json", "data/a.jsonl", "data/ajson", "data/a.j5on", "",
                        "data/document/p/full/max/0/default.jpg", "data/document/p/fullness/x.jpg", "full/", "/full/", "a/ful/l/",
                        "__MACOSX/._a.png", "data/__MACOSX/x", "data/x__MACOSX/y", "__MACOSX", "a/__MACOSX", "café/ünï.GIF",
                        "document/p_files/12/3_4.JPG", "folder.png/notes", "dir/.gif", "e.", "a.tar.gz", "f.webp.txt", "/", "a/"]

    @Test func containsAsFoundation() {
        for path in Self.paths {
            #expect(PathBytes.contains(path, "/full/") == path.contains("/full/"), "\(path)")
            #expect(PathBytes.contains(path, "__MACOSX/") == path.contains("__MACOSX/"), "\(path)")
            // Starting a component: found after a "/" put before the path.
            #expect(PathBytes.contains(path, "__MACOSX/", atComponentStart: true) == ("/" + path).contains("/__MACOSX/"), "\(path)")
            #expect(PathBytes.contains(path, "") && PathBytes.contains(path, "\u{0}") == path.contains("\u{0}"))
        }
    }

    @Test func suffixInAnyCase() {
        for path in Self.paths {
            #expect(PathBytes.hasSuffix(path, ignoringCase: ".json") == path.lowercased().hasSuffix(".json"), "\(path)")
        }
        #expect(PathBytes.hasSuffix("data/A.JSON", ignoringCase: ".json") && !PathBytes.hasSuffix("json", ignoringCase: ".json"))
    }

    @Test func endingAsFoundationsPathExtension() {
        for path in Self.paths {
            #expect((PathBytes.ending(path) ?? "") == (path as NSString).pathExtension.lowercased(), "\(path)")
        }
        #expect(PathBytes.ending("a/b/c.JPEG") == "jpeg" && PathBytes.ending(".png") == nil && PathBytes.ending("notes") == nil)
    }

    /// The name a case-insensitive disk compares is the lowercased one,
    /// whether it is left as it is (ASCII without capitals) or lowercased.
    @Test func foldedIsLowercased() {
        for path in Self.paths + ["DATA/A.TXT", "data/Ä.txt", "data/ä.txt", "data/ẞ", "data/\u{212A}elvin", "@[`{"] {
            #expect(BagNames.folded(path) == path.lowercased(), "\(path)")
            #expect(BagNames.folded(path.dropFirst()) == path.dropFirst().lowercased(), "\(path)")
        }
    }

    /// Finder's own files: .DS_Store and ._ files anywhere, and anything
    /// in a __MACOSX folder; nothing that only holds those names.
    @Test func finderMetadata() {
        for path in ["data/.DS_Store", ".DS_Store", "data/._a", "._", "__MACOSX/a", "data/__MACOSX/x", "a/b/._c.png"] {
            #expect(BagNames.isFinderMetadata(path), "\(path)")
        }
        for path in ["data/x.DS_Store", "data/.DS_Store/", "data/a._b", "data/x__MACOSX/y", "data/__MACOSX", "_._", "data/.DS_Store2", ""] {
            #expect(!BagNames.isFinderMetadata(path), "\(path)")
        }
    }

    /// Byte for byte, as String's own hasPrefix for these paths; unlike it
    /// where a combining mark follows the prefix (one Character to Swift,
    /// a file in data/ to a file system).
    @Test func prefixAsString() {
        for path in Self.paths {
            for prefix in ["data/", "data/document/", "", "full/", "café/", "data/A", "x.Json"] {
                #expect(PathBytes.hasPrefix(path, prefix) == path.hasPrefix(prefix), "\(path) \(prefix)")
            }
        }
        #expect(PathBytes.hasPrefix("data/\u{301}x", "data/") && !"data/\u{301}x".hasPrefix("data/"))
        #expect(!PathBytes.hasPrefix("dat", "data/") && !PathBytes.hasPrefix("Data/x", "data/"))
    }

    /// A manifest's name read in its bytes: what lies between the prefix and
    /// `.txt`, as the String slicing it stands in for gave it.
    @Test func manifestNamesAsStringSlicing() {
        for name in ["manifest-sha256.txt", "manifest-md5.txt", "manifest-.txt", "manifest-sha256.TXT", "manifest-sha256",
                     "tagmanifest-sha512.txt", "xmanifest-sha256.txt", "manifest-", ".txt", "manifest-a.b.txt", "data/manifest-sha256.txt"] {
            for prefix in ["manifest-", "tagmanifest-"] {
                let sliced = name.hasPrefix(prefix) && name.hasSuffix(".txt") && name.count >= prefix.count + 4
                    ? String(name.dropFirst(prefix.count).dropLast(4)) : nil
                #expect(BagNames.manifestName(name, prefix: prefix) == sliced, "\(name) \(prefix)")
            }
        }
        #expect(BagNames.manifestAlgorithm("manifest-sha256.txt", prefix: "manifest-") == .sha256)
        #expect(BagNames.manifestAlgorithm("manifest-crc32.txt", prefix: "manifest-") == nil)
    }

    /// A pyramid's first tile of a level, told by counting components in
    /// place: the same answers as splitting the path into them.
    @Test func sampleTileAsSplitComponents() {
        func split(_ path: String) -> Bool {
            guard path.hasPrefix("data/document/") else { return false }
            let parts = path.split(separator: "/")
            if parts.count == 5 { return parts[2].hasSuffix("_files") && parts[4].hasPrefix("0_0.") }
            return parts.count == 7 && parts[3].hasPrefix("0,0,")
        }
        let samples = ["data/document/master_files/12/0_0.jpeg", "data/document/master/0,0,512,512/512,/0/default.jpg"]
        let others = ["data/document/master_files/12/1_0.jpeg", "data/document/master_files/12/0_0", "data/document/files/12/0_0.jpeg",
                      "data/document/_files/12/0_0.png", "data/document/master_files/12/0_0.jpeg/x", "data/document/a/b_files/0_0.jpg",
                      "data/document/master/0,1,512,512/512,/0/default.jpg", "data/document/master/0,0,512,512/512,/0/x/default.jpg",
                      "data/document//master_files//12/0_0.jpeg", "data/document/master_files/12//0_0.jpeg/", "data/document/0_0.",
                      "data/document/x/0,0/a/b/c", "data/document/x/0,0,/a/b/c", "data/icons/master_files/12/0_0.jpeg", "data/document/",
                      "data/document/master_file/s/0_0.jpeg", "data/document/m_files/1/0_0"] + Self.paths
        for path in samples { #expect(DocumentInput.isSampleTile(path), "\(path)") }
        for path in samples + others { #expect(DocumentInput.isSampleTile(path) == split(path), "\(path)") }
    }

    @Test func topLevelHasNoSlash() {
        for path in Self.paths {
            #expect(PathBytes.isTopLevel(path) == !path.contains("/"), "\(path)")
        }
    }
}
