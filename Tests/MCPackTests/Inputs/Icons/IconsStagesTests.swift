import Foundation
import MCPackSchema
import Imaging
import ImagingTestSupport
@testable import MCPackInputs
@testable import MCPackKit
import Testing

/// The app icon set's Contents.json against the shape Xcode 26 writes, and
/// the icon input's own verify stage.
@Suite struct IconsStagesTests {
    static let folder = "data/\(AssetCatalog.appIconSet)"

    /// Contents.json files written by Xcode 26 in a public project, as
    /// they are there (reference data: their shape, not their code):
    /// github.com/0x-noot/FitQuest at e215287308d96a59a9a5766e9f0fe8c2e0296163,
    /// a project made with Xcode 26.2 (its project.pbxproj says
    /// CreatedOnToolsVersion = 26.2, LastUpgradeCheck = 2620):
    /// Assets.xcassets/AppIcon.appiconset/Contents.json (the single-size
    /// icon with its dark and tinted slots; Xcode leaves out `filename` of
    /// a slot with no picture yet) and Assets.xcassets/Contents.json.
    static let xcode26AppIconSet = """
        {
          "images" : [
            {
              "filename" : "Fitogatchi_logo.png",
              "idiom" : "universal",
              "platform" : "ios",
              "size" : "1024x1024"
            },
            {
              "appearances" : [
                {
                  "appearance" : "luminosity",
                  "value" : "dark"
                }
              ],
              "idiom" : "universal",
              "platform" : "ios",
              "size" : "1024x1024"
            },
            {
              "appearances" : [
                {
                  "appearance" : "luminosity",
                  "value" : "tinted"
                }
              ],
              "idiom" : "universal",
              "platform" : "ios",
              "size" : "1024x1024"
            }
          ],
          "info" : {
            "author" : "xcode",
            "version" : 1
          }
        }
        """
    static let xcode26Catalog = """
        {
          "info" : {
            "author" : "xcode",
            "version" : 1
          }
        }
        """

    /// The keys of a JSON value, all the way down, with each leaf's type:
    /// "images[].appearances[].value: string". Arrays' members merge.
    static func shape(_ json: Any, _ path: String = "") -> Set<String> {
        switch json {
        case let object as [String: Any]:
            return object.reduce(into: Set<String>()) { $0.formUnion(shape($1.value, path.isEmpty ? $1.key : "\(path).\($1.key)")) }
        case let array as [Any]:
            return array.reduce(into: Set<String>()) { $0.formUnion(shape($1, path + "[]")) }
        case is String: return ["\(path): string"]
        case is NSNumber: return ["\(path): number"]
        default: return ["\(path): other"]
        }
    }

    static func object(_ data: Data) throws -> Any { try JSONSerialization.jsonObject(with: data) }

    @Test func theIconSetHasTheShapeXcode26Writes() throws {
        let settings = IconsInput.Settings(master: "m.png", dark: "d.png", tinted: "t.png", sizes: .single, idioms: [], background: nil)
        let ours = JSON.encode(IconsInput.contents(settings, appearances: [.default, .dark, .tinted]))
        let theirs = Data(Self.xcode26AppIconSet.utf8)
        // Field for field: the same keys at every level, of the same types.
        #expect(Self.shape(try Self.object(ours)) == Self.shape(try Self.object(theirs)))
        let decoded = try JSONDecoder().decode(AssetCatalogContents.self, from: ours)
        let reference = try JSONDecoder().decode(AssetCatalogContents.self, from: theirs)
        // Entry by entry the same but for the file names (Xcode's dark and
        // tinted slots are still empty; ours name a file each).
        #expect(decoded.images?.map { var image = $0; image.filename = nil; return image }
                == reference.images?.map { var image = $0; image.filename = nil; return image })
        #expect(decoded.info.version == reference.info.version)
        // Xcode writes keys sorted, as JSON.encode does, so a catalog Xcode
        // has opened and saved again diffs quietly.
        let text = String(decoding: ours, as: UTF8.self)
        let dark = text[text.range(of: "\"appearances\"")!.lowerBound...]
        let order = ["\"appearances\"", "\"filename\"", "\"idiom\"", "\"platform\"", "\"size\""].map { dark.range(of: $0)!.lowerBound }
        #expect(order == order.sorted())
    }

    @Test func theCatalogAndItsFoldersHaveTheShapeXcode26Writes() throws {
        let ours = JSON.encode(AssetCatalogContents.folder)
        #expect(Self.shape(try Self.object(ours)) == Self.shape(try Self.object(Data(Self.xcode26Catalog.utf8))))
    }

    /// An image set at three scales as Xcode writes it, from
    /// github.com/211this/Bridget-AI at 2b8b6f1bf45e165c0b10421963ad02e96d477838,
    /// Assets.xcassets/Hearts.imageset/Contents.json (a project whose app
    /// icon set has the dark and tinted entries of Xcode 16 and later; it
    /// has no project.pbxproj to show the Xcode version).
    static let xcodeImageSet = """
        {
          "images" : [
            {
              "filename" : "Hearts.png",
              "idiom" : "universal",
              "scale" : "1x"
            },
            {
              "filename" : "Hearts 1.png",
              "idiom" : "universal",
              "scale" : "2x"
            },
            {
              "filename" : "Hearts 2.png",
              "idiom" : "universal",
              "scale" : "3x"
            }
          ],
          "info" : {
            "author" : "xcode",
            "version" : 1
          }
        }
        """

    @Test func theLaunchTextSetHasTheShapeXcodeWrites() throws {
        let ours = JSON.encode(LaunchInput.textSetContents)
        #expect(Self.shape(try Self.object(ours)) == Self.shape(try Self.object(Data(Self.xcodeImageSet.utf8))))
        let decoded = try JSONDecoder().decode(AssetCatalogContents.self, from: ours)
        #expect(decoded.images?.map(\.scale) == ["1x", "2x", "3x"] && decoded.images?.allSatisfy { $0.idiom == "universal" } == true)
    }

    @Test func theDefaultSetIsOneUniversalEntry() {
        let settings = IconsInput.Settings(master: "m.png", dark: nil, tinted: nil, sizes: .single, idioms: [], background: nil)
        #expect(IconsInput.contents(settings, appearances: [.default]).images
                == [AssetCatalogContents.Image(filename: "AppIcon.png", idiom: "universal", platform: "ios", size: "1024x1024")])
    }

    /// A bag made before the catalog kept its set in data/icons/: its
    /// sizes, alpha, unnamed files and colour are still checked there.
    @Test func theIconSetOfABagMadeBeforeTheCatalogIsStillChecked() throws {
        let folder = "data/icons/AppIcon.appiconset"
        let list = JSON.encode(AssetCatalogContents(images: [
            .init(filename: "AppIcon-76@2x.png", idiom: "ipad", scale: "2x", size: "76x76"),
            .init(filename: "AppIcon-1024.png", idiom: "ios-marketing", scale: "1x", size: "1024x1024"),
        ]))
        let good = [
            "\(folder)/Contents.json": list,
            "\(folder)/AppIcon-76@2x.png": try Imaging.Image.solid(width: 152, height: 152, ink: [10, 20, 30]).pngData(),
            "\(folder)/AppIcon-1024.png": try Imaging.Image.solid(width: 1024, height: 1024, ink: [10, 20, 30]).pngData(),
        ]
        #expect(IconsInput.verify(nil, in: DocumentStagesTests.bag(good)).isEmpty)
        var bad = good
        bad["\(folder)/AppIcon-76@2x.png"] = try Imaging.Image.solid(width: 150, height: 150, ink: [10, 20, 30]).sixteenBit().pngData()
        bad["\(folder)/AppIcon-1024.png"] = try Imaging.Image.solid(width: 1024, height: 1024, ink: [10, 20, 30, 200]).pngData()
        bad["\(folder)/stray.png"] = try Imaging.Image.solid(width: 8, height: 8, ink: [1, 2, 3]).pngData()
        let found = IconsInput.verify(nil, in: DocumentStagesTests.bag(bad)).map { "\($0.path): \($0.rule)" }
        #expect(found == [
            "\(folder)/AppIcon-76@2x.png: catalog-sizes",
            "\(folder)/AppIcon-1024.png: catalog-alpha",
            "\(folder)/stray.png: catalog-contents",
            "\(folder)/AppIcon-76@2x.png: picture-srgb",
        ])
        bad["\(folder)/Contents.json"] = Data("{".utf8)
        #expect(IconsInput.verify(nil, in: DocumentStagesTests.bag(bad)).map(\.rule) == ["icons-contents"])
    }

    @Test func bundleJsonListsWhatTheSetMustName() throws {
        let list = JSON.encode(AssetCatalogContents(images: [IconAppearance.default.entry]))
        let icon = try Imaging.Image.solid(width: 1024, height: 1024, ink: [10, 20, 30]).pngData()
        let files = ["\(Self.folder)/Contents.json": list, "\(Self.folder)/AppIcon.png": icon]
        let record = IconsInput.Record(master: "m.png", sha256: "", sizes: .single, idioms: ["universal"], flattenedOnto: nil,
                                       icons: [.init(idiom: "universal", file: "AppIcon.png", pixels: 1024),
                                               .init(idiom: "universal", appearance: "dark", file: "AppIcon-dark.png", pixels: 1024)])
        #expect(IconsInput.verify(record, in: DocumentStagesTests.bag(files)).map(\.message)
                == ["does not name AppIcon-dark.png, which bundle.json lists"])
    }

    // MARK: - sizes = "all": Xcode's "All Sizes" set for iOS

    /// The app icon set Xcode 14 and later write when "All Sizes" is
    /// chosen for iOS, as Xcode wrote it in a public project (reference
    /// data: its shape): github.com/Manraj21-goku/Kaio-Flex-iOS-App- at
    /// 5124c5b1fbaff8b32af1a149fb0f471b34b85122, AppIcon.appiconset/Contents.json
    /// (its file names, some a tool's, one a screenshot of 2023-07-29
    /// dragged into a slot, are the project's own). The same 16 entries, in
    /// this order, are quoted as Xcode wrote them in a 2025 blog post on
    /// github.com/Payson-Chen/PSCiOSMiddleWareProj's res/README.md.
    static let xcodeAllSizesEntries: [(size: String, scale: String?)] = [
        ("20x20", "2x"), ("20x20", "3x"), ("29x29", "2x"), ("29x29", "3x"), ("38x38", "2x"), ("38x38", "3x"),
        ("40x40", "2x"), ("40x40", "3x"), ("60x60", "2x"), ("60x60", "3x"), ("64x64", "2x"), ("64x64", "3x"),
        ("68x68", "2x"), ("76x76", "2x"), ("83.5x83.5", "2x"), ("1024x1024", nil),
    ]
    static let xcodeAllSizesSet: String = {
        let entries = xcodeAllSizesEntries.enumerated().map { index, entry in
            let scale = entry.scale.map { "\n      \"scale\" : \"\($0)\"," } ?? ""
            return "    {\n      \"filename\" : \"icon\(index).png\",\n      \"idiom\" : \"universal\",\n      \"platform\" : \"ios\",\(scale)\n      \"size\" : \"\(entry.size)\"\n    }"
        }
        return "{\n  \"images\" : [\n" + entries.joined(separator: ",\n") + "\n  ],\n  \"info\" : {\n    \"author\" : \"xcode\",\n    \"version\" : 1\n  }\n}\n"
    }()

    @Test func allSizesIsTheSetXcodeWritesForIOSAllSizes() throws {
        let settings = IconsInput.Settings(master: "m.png", dark: nil, tinted: nil, sizes: .all, idioms: ["ipad", "ios-marketing"], background: nil)
        let ours = JSON.encode(IconsInput.contents(settings, appearances: [.default]))
        let theirs = Data(Self.xcodeAllSizesSet.utf8)
        #expect(Self.shape(try Self.object(ours)) == Self.shape(try Self.object(theirs)))
        let decoded = try JSONDecoder().decode(AssetCatalogContents.self, from: ours)
        let reference = try JSONDecoder().decode(AssetCatalogContents.self, from: theirs)
        // Entry by entry, in Xcode's order, the same but for the file names.
        #expect(decoded.images?.map { var image = $0; image.filename = nil; return image }
                == reference.images?.map { var image = $0; image.filename = nil; return image })
        // Each file once, and the store icon the single-size set's file.
        let names = decoded.images?.compactMap(\.filename) ?? []
        #expect(Set(names).count == 16 && names.last == IconAppearance.default.filename)
        // The single-size set is as it was.
        let single = IconsInput.Settings(master: "m.png", dark: nil, tinted: nil, sizes: .single, idioms: ["ipad", "ios-marketing"], background: nil)
        #expect(IconsInput.contents(single, appearances: [.default]).images == [IconAppearance.default.entry])
    }

    /// verify reads a bag's "All Sizes" set as Xcode would: every size
    /// right, nothing unnamed.
    @Test func anAllSizesSetVerifies() throws {
        let contents = JSON.encode(AssetCatalogContents(images: IconSlot.allSizes.map(\.entry)))
        var files = ["\(Self.folder)/Contents.json": contents, "data/\(AssetCatalog.folder)/Contents.json": JSON.encode(AssetCatalogContents.folder)]
        for slot in IconSlot.allSizes {
            files["\(Self.folder)/\(slot.filename)"] = try Imaging.Image.solid(width: slot.pixels, height: slot.pixels, ink: [10, 20, 30]).pngData()
        }
        #expect(AssetCatalogRules.check(DocumentStagesTests.bag(files)).map(\.message) == [])
    }

    // MARK: - Icon Composer's supported platforms

    static func composerBag(platforms: String) -> [String: Data] {
        let folder = "data/\(IconComposer.bundleFolder)"
        let json = #"{ "groups" : [ { "layers" : [ { "image-name" : "seal.png", "name" : "seal" } ] } ], "supported-platforms" : "# + platforms + " }"
        return ["\(folder)/icon.json": Data(json.utf8), "\(folder)/Assets/seal.png": Data([1])]
    }

    /// An .icon whose supported-platforms leaves out iOS draws no icon for
    /// the iPad app: refused, naming the file and the platforms it lists.
    /// The shapes are Icon Composer's: `"squares" : "shared"` (LoopKit/Loop),
    /// `[ "iOS" ]` (HammerPot/Maple-iOS), `[ "macOS" ]` (Marginal/QLVideo),
    /// `"circles" : [ "watchOS" ]` (see IconComposerDocument).
    @Test func anIconComposerDocumentWithoutIOSIsRefusedNamingItsPlatforms() throws {
        let json = "data/\(IconComposer.bundleFolder)/icon.json"
        for fine in [#"{ "circles" : [ "watchOS" ], "squares" : "shared" }"#, #"{ "squares" : [ "iOS" ] }"#, #"{ "squares" : [ "iOS", "macOS" ] }"#] {
            #expect(IconsInput.verifyComposer(nil, in: DocumentStagesTests.bag(Self.composerBag(platforms: fine))).isEmpty, "\(fine)")
        }
        let problems = IconsInput.verifyComposer(nil, in: DocumentStagesTests.bag(Self.composerBag(platforms: #"{ "circles" : [ "watchOS" ], "squares" : [ "macOS" ] }"#)))
        #expect(problems.map { "\($0.path): \($0.rule): \($0.message)" } == [
            "\(json): icon-composer: supported-platforms lists macOS (square icon) and watchOS (round icon), not iOS; the bundle is for an iPad app, whose icon the document must draw for iOS. Add iOS to the document's platforms in Icon Composer and save it again",
        ])
        let watchOnly = IconsInput.verifyComposer(nil, in: DocumentStagesTests.bag(Self.composerBag(platforms: #"{ "circles" : [ "watchOS" ] }"#)))
        #expect(watchOnly.map(\.message).first?.hasPrefix("supported-platforms lists watchOS (round icon), not iOS") == true, "\(watchOnly)")
    }
}
