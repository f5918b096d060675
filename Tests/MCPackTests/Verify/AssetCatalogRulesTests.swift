import Foundation
import MCPackSchema
import Imaging
import ImagingTestSupport
@testable import MCPackInputs
@testable import MCPackKit
import Testing

/// The catalog's rules as Xcode reads it, on bags made in memory.
@Suite struct AssetCatalogRulesTests {
    static let root = "data/\(AssetCatalog.folder)"
    static let set = "data/\(AssetCatalog.appIconSet)"

    static func png(_ side: Int, _ ink: [Double]) throws -> Data {
        try Imaging.Image.solid(width: side, height: side, ink: ink).pngData()
    }

    /// A catalog that keeps every rule: the app icon in three appearances,
    /// a launch layer at three scales and a category icon.
    static func good() throws -> [String: Data] {
        let text = "data/\(AssetCatalog.launchSet("LaunchText"))"
        let category = "data/\(AssetCatalog.categoriesFolder)/Category1.imageset"
        return [
            "\(root)/Contents.json": JSON.encode(AssetCatalogContents.folder),
            "\(set)/Contents.json": JSON.encode(AssetCatalogContents(images: IconAppearance.allCases.map(\.entry))),
            "\(set)/AppIcon.png": try png(1024, [200, 30, 30]),
            "\(set)/AppIcon-dark.png": try png(1024, [20, 30, 30, 100]),
            "\(set)/AppIcon-tinted.png": try Imaging.Image.solid(width: 1024, height: 1024, ink: [90]).pngData(),
            "\(text)/Contents.json": JSON.encode(AssetCatalogContents(images: [
                .init(filename: "LaunchText.png", idiom: "universal", scale: "1x"),
                .init(filename: "LaunchText@2x.png", idiom: "universal", scale: "2x"),
                .init(filename: "LaunchText@3x.png", idiom: "universal", scale: "3x"),
            ])),
            "\(text)/LaunchText.png": try Imaging.Image.solid(width: 30, height: 10, ink: [1, 2, 3, 200]).pngData(),
            "\(text)/LaunchText@2x.png": try Imaging.Image.solid(width: 60, height: 20, ink: [1, 2, 3, 200]).pngData(),
            "\(text)/LaunchText@3x.png": try Imaging.Image.solid(width: 90, height: 30, ink: [1, 2, 3, 200]).pngData(),
            "data/\(AssetCatalog.categoriesFolder)/Contents.json": JSON.encode(AssetCatalogContents.folder),
            "\(category)/Contents.json": JSON.encode(CategoriesInput.imageSet("Category1")),
            "\(category)/Category1.png": try png(32, [1, 2, 3, 200]),
        ]
    }

    static func check(_ files: [String: Data]) -> [String] {
        AssetCatalogRules.check(DocumentStagesTests.bag(files)).map { "\($0.path): \($0.rule): \($0.message)" }
    }

    @Test func aWellMadeCatalogKeepsEveryRule() throws {
        #expect(Self.check(try Self.good()) == [])
    }

    @Test func aContentsJsonNamingAMissingFileIsCaught() throws {
        var files = try Self.good()
        files["\(Self.set)/AppIcon-dark.png"] = nil
        #expect(Self.check(files) == ["\(Self.set)/Contents.json: catalog-contents: images[1] names AppIcon-dark.png, which is not in the bag"])
    }

    @Test func aContentsJsonNamingAWrongSizedFileIsCaught() throws {
        var files = try Self.good()
        files["\(Self.set)/AppIcon.png"] = try Self.png(512, [200, 30, 30])
        let text = "data/\(AssetCatalog.launchSet("LaunchText"))"
        files["\(text)/LaunchText@2x.png"] = try Imaging.Image.solid(width: 50, height: 20, ink: [1, 2, 3, 200]).pngData()
        #expect(Self.check(files) == [
            "\(Self.set)/AppIcon.png: catalog-sizes: is 512 x 512 px; Contents.json says 1024x1024 @1x = 1024 x 1024 px",
            "\(text)/LaunchText@2x.png: catalog-sizes: is 50 x 20 px at 2x; the 1x file is 30 x 10 px, so it should be about 60 x 20",
        ])
    }

    @Test func anUnnamedFileAndAMissingContentsJsonAreCaught() throws {
        var files = try Self.good()
        files["\(Self.set)/AppIcon-76@1x.png"] = try Self.png(76, [1, 2, 3])
        files["\(Self.root)/Contents.json"] = nil
        files["data/\(AssetCatalog.categoriesFolder)/Category1.imageset/Contents.json"] = nil
        #expect(Self.check(files) == [
            "\(Self.root)/Contents.json: catalog-contents: missing; Xcode reads a catalog by its Contents.json",
            "\(Self.set)/AppIcon-76@1x.png: catalog-contents: not named in AppIcon.appiconset/Contents.json; Xcode warns of unassigned files",
            "data/\(AssetCatalog.categoriesFolder)/Category1.imageset/Contents.json: catalog-contents: missing; Xcode needs one in every folder and set of a catalog",
        ])
    }

    @Test func appearancesMustBeWellFormed() throws {
        var files = try Self.good()
        var images = IconAppearance.allCases.map(\.entry)
        images[1].appearances = [.init(appearance: "contrast", value: "high")]
        images.append(IconAppearance.tinted.entry)
        images[3].filename = "AppIcon-tinted.png"
        images.append(.init(appearances: [.dark], filename: "AppIcon-dark.png", idiom: "ipad", scale: "2x", size: "76x76"))
        files["\(Self.set)/Contents.json"] = JSON.encode(AssetCatalogContents(images: images))
        let found = Self.check(files)
        #expect(found.contains("\(Self.set)/Contents.json: catalog-appearances: images[1] has the appearance contrast = high; expected luminosity light, dark or tinted"))
        #expect(found.contains { $0.contains("images[3] repeats the slot of an earlier entry") })
        #expect(found.contains { $0.contains("images[4] is a dark icon of ipad 76x76 2x; Xcode takes dark and tinted icons as universal 1024x1024 entries") })
    }

    /// Sizes and scales that read as numbers but make no pixels (NaN, an
    /// overflowing product, a huge scale) are named, not trapped on.
    @Test func aHostileSizeOrScaleIsNamedNotTrappedOn() throws {
        var files = try Self.good()
        var images = IconAppearance.allCases.map(\.entry)
        images[0].size = "nanxnan"
        images[2].scale = "9223372036854775807x"
        images.append(.init(filename: "AppIcon.png", idiom: "ipad", scale: "2x", size: "1e308x1"))
        images.append(.init(filename: "AppIcon.png", idiom: "iphone", scale: "1x", size: "infx0"))
        files["\(Self.set)/Contents.json"] = JSON.encode(AssetCatalogContents(images: images))
        let text = "data/\(AssetCatalog.launchSet("LaunchText"))"
        files["\(text)/Contents.json"] = JSON.encode(AssetCatalogContents(images: [
            .init(filename: "LaunchText.png", idiom: "universal", scale: "1x"),
            .init(filename: "LaunchText@2x.png", idiom: "universal", scale: "9223372036854775807x"),
            .init(filename: "LaunchText@3x.png", idiom: "universal", scale: "3x"),
        ]))
        let expected = [
            "\(Self.set)/Contents.json: catalog-contents: images[0] has the size \"nanxnan\"; expected WIDTHxHEIGHT in points, each above 0 and at most 10000",
            "\(Self.set)/Contents.json: catalog-contents: images[2] has the scale \"9223372036854775807x\"; expected 1x, 2x or 3x",
            "\(Self.set)/Contents.json: catalog-contents: images[3] has the size \"1e308x1\"; expected WIDTHxHEIGHT in points, each above 0 and at most 10000",
            "\(Self.set)/Contents.json: catalog-contents: images[4] has the size \"infx0\"; expected WIDTHxHEIGHT in points, each above 0 and at most 10000",
            "\(text)/Contents.json: catalog-contents: images[1] has the scale \"9223372036854775807x\"; expected 1x, 2x or 3x",
        ]
        #expect(Self.check(files).sorted() == expected.sorted())
    }

    @Test func aColouredTintedIconAndAnAlphaDefaultIconAreCaught() throws {
        var files = try Self.good()
        files["\(Self.set)/AppIcon-tinted.png"] = try Self.png(1024, [90, 10, 10])
        files["\(Self.set)/AppIcon.png"] = try Self.png(1024, [200, 30, 30, 250])
        #expect(Self.check(files) == [
            "\(Self.set)/AppIcon.png: catalog-alpha: has transparency (alpha below fully opaque); App Store Connect refuses an app icon that is transparent or has an alpha channel at all (ITMS-90717)",
            "\(Self.set)/AppIcon-tinted.png: catalog-tinted: is in colour: in its most colourful pixel red, green and blue are 80 levels of 255 apart, and a tinted icon is grey (at most 2 apart). Save it in greyscale; [icon] tinted in bundle.toml makes a coloured master grey",
        ])
    }

    // MARK: - Image sets as Xcode writes them

    /// Image sets' Contents.json files written by Xcode in public projects,
    /// as they are there (reference data: their shape), each with a
    /// `properties` object mcpack never writes:
    /// - github.com/Ranchero-Software/NetNewsWire at 36b53766d6c10175bc268a79ab8efcb2d9845d75,
    ///   Mac/Resources/Assets.xcassets/filterActive.imageset (a template
    ///   PDF; Xcode's older key order);
    /// - the same at 3cb7bbb6e1b096f9fde9047d8a5a1db471b52e03,
    ///   iOS/Resources/Assets.xcassets/accountLocalPad.imageset (vector
    ///   data kept, rendered as original, a dark variant);
    /// - github.com/Dimillian/IceCubesApp at 36952d4888dbf490fe57d1f1878d68373e432874,
    ///   IceCubesApp/Assets.xcassets/HexagonPlus.imageset (an SVG with a
    ///   compression type);
    /// - github.com/mastodon/mastodon-ios at 56ce39cb46b8e0214ffb5e575a28df5b9a845b5a,
    ///   MastodonSDK/Sources/MastodonAsset/Assets.xcassets/Communication/share.imageset.
    static let xcodeSets: [(name: String, json: String)] = [
        ("filterActive", """
            {
              "images" : [
                {
                  "idiom" : "universal",
                  "filename" : "filterActive.pdf"
                }
              ],
              "info" : {
                "version" : 1,
                "author" : "xcode"
              },
              "properties" : {
                "template-rendering-intent" : "template"
              }
            }
            """),
        ("accountLocalPad", """
            {
              "images" : [
                {
                  "filename" : "ipad-any-slice.pdf",
                  "idiom" : "universal"
                },
                {
                  "appearances" : [
                    {
                      "appearance" : "luminosity",
                      "value" : "dark"
                    }
                  ],
                  "filename" : "ipad-dark-slice.pdf",
                  "idiom" : "universal"
                }
              ],
              "info" : {
                "author" : "xcode",
                "version" : 1
              },
              "properties" : {
                "preserves-vector-representation" : true,
                "template-rendering-intent" : "original"
              }
            }
            """),
        ("HexagonPlus", """
            {
              "images" : [
                {
                  "filename" : "HexagonPlus.svg",
                  "idiom" : "universal"
                }
              ],
              "info" : {
                "author" : "xcode",
                "version" : 1
              },
              "properties" : {
                "compression-type" : "automatic",
                "template-rendering-intent" : "original"
              }
            }
            """),
        ("share", """
            {
              "images" : [
                {
                  "filename" : "share.pdf",
                  "idiom" : "universal"
                }
              ],
              "info" : {
                "author" : "xcode",
                "version" : 1
              },
              "properties" : {
                "preserves-vector-representation" : true
              }
            }
            """),
    ]

    /// A localized image set: Xcode marks the set `"localizable" : true`
    /// and gives each language's entries a `locale`, so two entries share
    /// idiom and scale. (No Xcode-written localized image set was found in
    /// a public repository; the keys are those Xcode's localized color
    /// sets carry, `"properties" : { "localizable" : true }`, and Apple's
    /// "Localizing assets in a catalog".)
    static let localizedSet = """
        {
          "images" : [
            {
              "filename" : "Seal-en.png",
              "idiom" : "universal",
              "locale" : "en",
              "scale" : "1x"
            },
            {
              "filename" : "Seal-fr.png",
              "idiom" : "universal",
              "locale" : "fr",
              "scale" : "1x"
            },
            {
              "filename" : "Seal-fr@2x.png",
              "idiom" : "universal",
              "locale" : "fr",
              "scale" : "2x"
            }
          ],
          "info" : {
            "author" : "xcode",
            "version" : 1
          },
          "properties" : {
            "localizable" : true
          }
        }
        """

    /// The smallest PDF poppler reads: one `side` x `side` pt page, its
    /// cross-reference offsets counted.
    static func pdf(side: Int) -> Data {
        let objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                       "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(side) \(side)] >>"]
        var text = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(text.utf8.count)
            text += "\(index + 1) 0 obj\n\(object)\nendobj\n"
        }
        let xref = text.utf8.count
        text += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n" + offsets.map { String(repeating: "0", count: 10 - "\($0)".count) + "\($0) 00000 n \n" }.joined()
        text += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(text.utf8)
    }

    static let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><path d="M12 2 L22 12 L12 22 L2 12 Z"/></svg>"#.utf8)

    /// Properties Xcode writes on image sets (template rendering, vector
    /// data, compression, localization) are read, not refused; a
    /// localized set's entries are told apart by their locale.
    @Test func imageSetsAsXcodeWritesThemVerify() throws {
        var files = try Self.good()
        for (name, json) in Self.xcodeSets {
            let folder = "\(Self.root)/Icons/\(name).imageset"
            files["\(folder)/Contents.json"] = Data(json.utf8)
            let decoded = try JSONDecoder().decode(AssetCatalogContents.self, from: Data(json.utf8))
            for filename in decoded.images?.compactMap(\.filename) ?? [] {
                files["\(folder)/\(filename)"] = filename.hasSuffix(".svg") ? Self.svg : Self.pdf(side: 24)
            }
        }
        files["\(Self.root)/Icons/Contents.json"] = JSON.encode(AssetCatalogContents.folder)
        let seal = "\(Self.root)/Seal.imageset"
        files["\(seal)/Contents.json"] = Data(Self.localizedSet.utf8)
        files["\(seal)/Seal-en.png"] = try Self.png(20, [10, 20, 30])
        files["\(seal)/Seal-fr.png"] = try Self.png(30, [10, 20, 30])
        files["\(seal)/Seal-fr@2x.png"] = try Self.png(60, [10, 20, 30])
        #expect(Self.check(files) == [])

        let template = try JSONDecoder().decode(AssetCatalogContents.self, from: Data(Self.xcodeSets[0].json.utf8))
        #expect(template.properties == .init(templateRenderingIntent: "template"))
        #expect(template.info.author == "xcode")
        let localized = try JSONDecoder().decode(AssetCatalogContents.self, from: Data(Self.localizedSet.utf8))
        #expect(localized.properties?.localizable == true && localized.images?.map(\.locale) == ["en", "fr", "fr"])
    }

    /// Unknown keys, and known ones of an unexpected type, in `properties`
    /// are not the catalog's to refuse; what mcpack writes is unchanged.
    @Test func propertiesAreReadLenientlyAndWrittenAsBefore() throws {
        let odd = #"{ "info" : { "author" : "xcode", "version" : 1 }, "properties" : { "provides-namespace" : "yes", "future-key" : [1, 2] } }"#
        let decoded = try JSONDecoder().decode(AssetCatalogContents.self, from: Data(odd.utf8))
        #expect(decoded.properties == .init())
        #expect(String(decoding: JSON.encode(AssetCatalogContents(images: nil, properties: .init(providesNamespace: true))), as: UTF8.self) == """
            {
              "info" : {
                "author" : "mcpack",
                "version" : 1
              },
              "properties" : {
                "provides-namespace" : true
              }
            }

            """)
    }

    // MARK: - Grey and opaque, read from the pixels

    /// A tinted icon saved as RGB whose pixels are grey, as shipping apps'
    /// are, is grey; so is one a level or two off neutral, as a colour-
    /// managed export leaves it. One 3 levels off is in colour.
    @Test func anRGBTintedIconWithGreyPixelsIsTakenAsGrey() throws {
        for ink in [[90.0, 90, 90], [90, 91, 92], [200, 198, 199]] {
            var files = try Self.good()
            files["\(Self.set)/AppIcon-tinted.png"] = try Self.png(1024, ink)
            #expect(Self.check(files) == [], "\(ink)")
        }
        var files = try Self.good()
        // Grey but for one pixel: the check is of every pixel, not a mean.
        let speck = try Imaging.Image.solid(width: 1, height: 1, ink: [90, 93, 90])
        files["\(Self.set)/AppIcon-tinted.png"] = try Imaging.Image.assembled(width: 1024, height: 1024, pieces: [
            (try Imaging.Image.solid(width: 1024, height: 1024, ink: [90, 90, 90]), 0, 0), (speck, 700, 300),
        ]).pngData()
        #expect(Self.check(files) == [
            "\(Self.set)/AppIcon-tinted.png: catalog-tinted: is in colour: in its most colourful pixel red, green and blue are 3 levels of 255 apart, and a tinted icon is grey (at most 2 apart). Save it in greyscale; [icon] tinted in bundle.toml makes a coloured master grey",
        ])
        // 16-bit: measured in 8-bit levels all the same.
        files["\(Self.set)/AppIcon-tinted.png"] = try Imaging.Image.solid(width: 1024, height: 1024, ink: [90, 91, 90]).sixteenBit().pngData()
        #expect(Self.check(files) == [])
    }

    /// App Store Connect refuses the alpha channel itself (ITMS-90717:
    /// "can't be transparent nor contain an alpha channel"), so an opaque
    /// one is still refused, but named as such: dropping it changes no
    /// pixel. Real transparency is named as transparency.
    @Test func anOpaqueAlphaChannelIsToldApartFromTransparency() throws {
        var files = try Self.good()
        files["\(Self.set)/AppIcon.png"] = try Self.png(1024, [200, 30, 30, 255])
        files["\(Self.set)/AppIcon-tinted.png"] = try Imaging.Image.solid(width: 1024, height: 1024, ink: [90, 255]).pngData()
        #expect(Self.check(files) == [
            "\(Self.set)/AppIcon.png: catalog-alpha: has an alpha channel, though every pixel is opaque; App Store Connect refuses an app icon that is transparent or has an alpha channel at all (ITMS-90717). Save it without the alpha channel: no pixel changes",
            "\(Self.set)/AppIcon-tinted.png: catalog-alpha: has an alpha channel, though every pixel is opaque; the tinted icon is an opaque grey picture. Save it without the alpha channel: no pixel changes",
        ])
        let opaque = try Imaging.Image.solid(width: 64, height: 64, ink: [1, 2, 3, 255])
        #expect(try opaque.alphaIsOpaque() && opaque.bandMinimum(3) == 255)
        let dropped = try opaque.droppingAlpha()
        let difference = try dropped.pixelDifference(to: opaque)
        #expect(dropped.bands == 3 && !dropped.hasAlpha && difference.largestDifference == 0)
        #expect(try !Imaging.Image.solid(width: 64, height: 64, ink: [1, 2, 3, 254]).alphaIsOpaque())
        #expect(try Imaging.Image.solid(width: 64, height: 64, ink: [1, 2, 3, 255]).sixteenBit().alphaIsOpaque())
    }
}
