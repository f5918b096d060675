import Foundation
import MCPackInputs
import MCPackSchema
import Testing

/// The folder index answers what a walk over every path with
/// `PathBytes.hasPrefix` answered, which it stands in for in the rules.
@Suite struct BagFoldersTests {
    static let paths = ["bagit.txt", "manifest-sha256.txt", "data/bundle.json", "data/launch/screens/1024x768.png",
                        "data/launch/preview/1024x768.png", "data/launch/Launch.xcassets/Contents.json",
                        "data/document/master.dzi", "data/document/master_files/0/0_0.jpeg", "data/document/master_files/12/3_4.jpeg",
                        "data/document/master/info.json", "data/document/master/0,0,512,512/512,/0/default.jpg",
                        "data/preview/style.css", "data/caf\u{E9}/a.png", "data/cafe\u{301}/b.png", "data/\u{301}x.png",
                        "data//double.png", "metadata/notes.txt", "data/Assets.xcassets/AppIcon.appiconset/Icon.png"]

    /// Every folder a path of the bag is in, and a few it is not.
    static var folders: [String] {
        var all: Set<String> = ["", "data/", "nothing/", "data/launch/screens", "data/laun", "data/document/master_files/12/"]
        for path in paths {
            var bytes = Array(path.utf8)
            while let slash = bytes.lastIndex(of: UInt8(ascii: "/")) {
                bytes = Array(bytes[...slash])
                all.insert(String(decoding: bytes, as: UTF8.self))
                bytes.removeLast()
            }
        }
        return all.sorted()
    }

    @Test(arguments: [false, true]) func filesUnderAFolderAreThoseItsPrefixPicks(shuffled: Bool) {
        // In a reader's order and in a table's: the index made either way.
        let index = BagFolders(shuffled ? Self.paths.shuffled() : Self.paths)
        #expect(index.count == Self.paths.count)
        for folder in Self.folders {
            let picked = Self.paths.filter { PathBytes.hasPrefix($0, folder) }
            #expect(index.files(under: folder).sorted() == picked.sorted(), "\(folder)")
            #expect(index.holds(folder) == (folder.isEmpty || !picked.isEmpty), "\(folder)")
            let direct = picked.filter { !$0.utf8.dropFirst(folder.utf8.count).contains(UInt8(ascii: "/")) }
            #expect(index.files(in: folder).sorted() == direct.sorted(), "\(folder)")
        }
    }

    @Test func foldersInAFolderAreItsDirectSubfolders() {
        let index = BagFolders(Self.paths)
        #expect(index.folders(in: "").sorted() == ["data/", "metadata/"])
        #expect(index.folders(in: "data/launch/").sorted() == ["data/launch/Launch.xcassets/", "data/launch/preview/", "data/launch/screens/"])
        #expect(index.folders(in: "data/document/").sorted() == ["data/document/master/", "data/document/master_files/"])
        #expect(index.folders(in: "data/").contains("data//"))
        #expect(index.folders(in: "nothing/").isEmpty && index.files(in: "nothing/").isEmpty)
    }

    /// Two folders Swift calls equal strings, one composed and one not,
    /// are two folders on disk, as hasPrefix has them.
    @Test func foldersAreToldApartByTheirBytes() {
        let index = BagFolders(Self.paths)
        #expect(index.files(in: "data/caf\u{E9}/") == ["data/caf\u{E9}/a.png"])
        #expect(index.files(in: "data/cafe\u{301}/") == ["data/cafe\u{301}/b.png"])
        #expect(index.files(in: "data/").contains("data/\u{301}x.png"))
    }

    @Test func suffixByteForByte() {
        for path in Self.paths + ["", ".dzi", "a.DZI", "dzi"] {
            #expect(PathBytes.hasSuffix(path, ".dzi") == path.utf8.reversed().starts(with: ".dzi".utf8.reversed()), "\(path)")
        }
    }
}
