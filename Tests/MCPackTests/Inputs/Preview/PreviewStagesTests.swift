import Foundation
import MCPackSchema
@testable import MCPackInputs
@testable import MCPackKit
import Testing

/// The preview input's page, and its verify stage, in process: a page
/// rendered from the built-in templates into a bag made in code.
@Suite struct PreviewStagesTests {
    static let file = ClauseFile(
        categories: [ClauseCategory(name: "Justice", icon: 1, filter: nil), ClauseCategory(name: "All", icon: 2, filter: "all")],
        clauses: [
            Clause(id: "39", title: "No free man", categories: ["Justice"], colour: "#8B1E1EB3", translation: "No free man shall be seized.",
                   context: "Still law.", overlays: [PixelRect(x: 10, y: 20, width: 300, height: 24)]),
            Clause(id: "40", title: "To no one will we sell right", categories: ["Justice"], colour: "#1E3A8B", translation: "To no one.",
                   context: "Also still law.", overlays: [PixelRect(x: 130, y: 44, width: 400, height: 24), PixelRect(x: 10, y: 70, width: 50, height: 20)]),
        ])
    static let pyramid = PyramidLayout(name: "master", kind: .deepZoom, width: 600, height: 400, tileSize: 254, overlap: 1, tileFormat: "jpeg")

    static func data(_ file: ClauseFile = file) -> PreviewData {
        PreviewData(bundle: .init(info: .init(name: "test-bundle", version: "1.0.0", title: "Test <Bundle>", sourceDate: "2015-06-15T00:00:00Z"),
                                  archive: "test-bundle-1.0.0.zip"),
                    pyramid: pyramid, clauses: file,
                    icons: Dictionary(uniqueKeysWithValues: file.categories.map { ($0.icon, AssetCatalog.categoryImagePath($0.icon)) }))
    }

    static func render(_ data: PreviewData, icons: AppIconSet? = nil) throws -> [String: Data] {
        let files = try TemplateSet.load("preview").render(PreviewContext(data: data, icons: icons, launch: nil))
        return Dictionary(uniqueKeysWithValues: files.map { ("data/preview/\($0.path)", $0.data) })
    }

    /// A bag holding what the page refers to, with `page` as its preview.
    static func bag(_ page: [String: Data], leaving: Set<String> = []) -> BagView {
        let record = DocumentInput.Record(image: "assets/document/master.png", sha256: "aa", format: "png", width: 600, height: 400,
                                          name: "master", levels: 11, tiles: 18,
                                          settings: .init(tileSize: 254, overlap: 1, tileFormat: "jpeg", quality: 85, layout: "dz"))
        var files = page
        files["data/clauses.json"] = JSON.encode(ClausesDocument(master: PixelSize(width: 600, height: 400), categories: file.categories, clauses: file.clauses))
        files["data/categories.json"] = JSON.encode(CategoriesDocument(file.categories))
        files["data/bundle.json"] = JSON.encode(["components": ["document": record]])
        for path in ["data/" + AssetCatalog.categoryImagePath(1), "data/" + AssetCatalog.categoryImagePath(2), "data/document/master.dzi", "data/HANDOVER.md"] {
            files[path] = Data("x".utf8)
        }
        var contents = BagContents()
        for (path, data) in files where !leaving.contains(path) {
            contents.put(BagFile(path: path, size: Int64(data.count), digests: [:], data: data))
        }
        return BagView(contents: contents)
    }

    static func page(_ files: [String: Data]) -> String { String(decoding: files["data/preview/index.html"] ?? Data(), as: UTF8.self) }

    /// An icon entry whose size or scale makes no pixels shows as 0 px
    /// instead of trapping; a good one shows its pixels.
    @Test func anIconOfNoSensibleSizeShowsAsNoPixels() {
        let icons = AppIconSet(contents: AssetCatalogContents(images: [
            .init(filename: "a.png", idiom: "ipad", scale: "2x", size: "nanxnan"),
            .init(filename: "b.png", idiom: "ipad", scale: "9223372036854775807x", size: "76x76"),
            .init(filename: "c.png", idiom: "ipad", scale: "2x", size: "1e308x1e308"),
            .init(filename: "d.png", idiom: "ipad", scale: "2x", size: "83.5x83.5"),
        ]))
        let context = PreviewContext(data: Self.data(), icons: icons, launch: nil)
        #expect(context.icons.map(\.pixels) == [0, 0, 0, 167])
    }

    @Test func thePageAndItsFilesAreThoseOfTheTemplates() throws {
        let files = try Self.render(Self.data())
        #expect(files.keys.sorted() == ["data/preview/index.html", "data/preview/style.css", "data/preview/viewer.js"])
        // The same data gives the same bytes, and nothing of the machine.
        #expect(try Self.render(Self.data()) == files)
        let html = Self.page(files)
        #expect(html.contains("<title>Test &lt;Bundle&gt; 1.0.0: preview</title>"))
        #expect(html.contains("sha256sum -c test-bundle-1.0.0.zip.sha256"))
        #expect(html.contains("mcpack verify test-bundle-1.0.0.zip"))
    }

    /// Any input may publish pictures for the page; they get a section of
    /// their own, and verify finds each one in the bag.
    @Test func publishedPicturesAreShownAndResolve() throws {
        let section = PreviewSection(id: "exhibits", title: "Exhibits", description: "The exhibition's photographs.",
                                     pictures: [.init(label: "hall.png", path: "exhibits/hall.png", width: 64, height: 48)])
        let context = PreviewContext(data: Self.data(), icons: nil, launch: nil, gallery: [section])
        let files = Dictionary(uniqueKeysWithValues: try TemplateSet.load("preview").render(context).map { ("data/preview/\($0.path)", $0.data) })
        let html = Self.page(files)
        #expect(html.contains(#"<h2 id="exhibits-heading">Exhibits</h2>"#), "\(html)")
        #expect(html.contains(#"<img src="../exhibits/hall.png" width="64" height="48" loading="lazy" alt="hall.png">"#))
        #expect(PreviewInput.verify(nil, in: Self.bag(files.merging(["data/exhibits/hall.png": Data("x".utf8)]) { $1 })).isEmpty)
        let missing = PreviewInput.verify(nil, in: Self.bag(files))
        #expect(missing.contains { $0.rule == "preview-files" && $0.message.contains("exhibits/hall.png") }, "\(missing)")
        // No section, no trace: a page without published pictures is as before.
        #expect(!Self.page(try Self.render(Self.data())).contains("exhibits"))
    }

    /// Sounds too: each with the browser's player, and verify finds each in the bag.
    @Test func publishedSoundsArePlayableAndResolve() throws {
        let section = PreviewSection(id: "guides", title: "Audio guides", description: "One a clause.",
                                     sounds: [.init(label: "Clause 39", path: "audio/39.m4a", type: "audio/mp4")])
        let context = PreviewContext(data: Self.data(), icons: nil, launch: nil, gallery: [section])
        let files = Dictionary(uniqueKeysWithValues: try TemplateSet.load("preview").render(context).map { ("data/preview/\($0.path)", $0.data) })
        let html = Self.page(files)
        #expect(html.contains(#"<audio controls preload="none" aria-label="Clause 39"><source src="../audio/39.m4a" type="audio/mp4"></audio>"#), "\(html)")
        // No list of pictures for a section of sounds alone.
        let plain = Self.page(try Self.render(Self.data()))
        #expect(html.components(separatedBy: #"<ul class="icons">"#).count == plain.components(separatedBy: #"<ul class="icons">"#).count)
        #expect(PreviewInput.verify(nil, in: Self.bag(files.merging(["data/audio/39.m4a": Data("x".utf8)]) { $1 })).isEmpty)
        let missing = PreviewInput.verify(nil, in: Self.bag(files))
        #expect(missing.contains { $0.rule == "preview-files" && $0.message.contains("audio/39.m4a") }, "\(missing)")
    }

    @Test func theDataReadsBackFromThePageAndNoTextClosesItsScript() throws {
        var file = Self.file
        file.clauses[0].translation = "ends here </script><script>alert(1)</script>"
        let html = Self.page(try Self.render(Self.data(file)))
        let json = try #require(PreviewData.read(fromPage: html))
        #expect(!String(decoding: json, as: UTF8.self).contains("<"))
        #expect(try JSONDecoder().decode(PreviewData.self, from: json) == Self.data(file))
        #expect(html.components(separatedBy: "</script>").count == 3, "only the data's and the viewer's script elements close")
    }

    @Test func aBagWithItsPageVerifiesClean() throws {
        let problems = PreviewInput.verify(nil, in: Self.bag(try Self.render(Self.data())))
        #expect(problems == [])
    }

    @Test func aClauseThePageShowsOtherwiseIsNamed() throws {
        var file = Self.file
        file.clauses[1].title = "To no one will we sell justice"
        file.clauses.remove(at: 0)
        let problems = PreviewInput.verify(nil, in: Self.bag(try Self.render(Self.data(file))))
        #expect(problems.map(\.rule) == ["preview-data", "preview-data"])
        #expect(problems.map(\.message) == [
            "does not show clause \"39\" of clauses.json",
            "shows clause \"40\" otherwise than clauses.json holds it",
        ])
    }

    @Test func aCategoryThePageLacksIsNamed() throws {
        var file = Self.file
        file.categories.removeLast()
        let problems = PreviewInput.verify(nil, in: Self.bag(try Self.render(Self.data(file))))
        #expect(problems.map(\.description) == ["data/preview/index.html: preview-data: does not show category 2 \"All\" of categories.json"])
    }

    @Test func aFileThePageRefersToMustBeInTheBag() throws {
        let problems = PreviewInput.verify(nil, in: Self.bag(try Self.render(Self.data()), leaving: ["data/" + AssetCatalog.categoryImagePath(2), "data/preview/style.css"]))
        #expect(problems.map(\.description) == [
            "data/preview/index.html: preview-files: refers to style.css (data/preview/style.css), which is not in the bag",
            "data/preview/index.html: preview-files: refers to ../\(AssetCatalog.categoryImagePath(2)) (data/\(AssetCatalog.categoryImagePath(2))), which is not in the bag",
        ])
    }

    @Test func aPageThatLoadsFromOutsideTheBagIsRefused() throws {
        var files = try Self.render(Self.data())
        let html = Self.page(files).replacingOccurrences(
            of: "</body>", with: "<img src=\"https://cdn.example.org/x.png\"><script src=\"../../../x.js\"></script></body>")
        files["data/preview/index.html"] = Data(html.utf8)
        let problems = PreviewInput.verify(nil, in: Self.bag(files))
        #expect(problems.map(\.rule) == ["preview-files", "preview-files"])
        #expect(problems.map(\.message) == [
            "refers to https://cdn.example.org/x.png, an address with a scheme (https:); the page must load nothing from outside the bag",
            "refers to ../../../x.js, a path that leaves the bag; the page must load nothing from outside the bag",
        ])
    }

    @Test func everyIconOfTheCatalogIsOnThePage() throws {
        let settings = IconsInput.Settings(master: "m.png", dark: "d.png", tinted: "t.png", sizes: .single, idioms: [], background: nil)
        let icons = AppIconSet(contents: IconsInput.contents(settings, appearances: IconAppearance.allCases))
        var files = try Self.render(Self.data(), icons: icons)
        for image in icons.contents.images ?? [] { files["data/\(AssetCatalog.appIconSet)/\(image.filename!)"] = Data("x".utf8) }
        #expect(PreviewInput.verify(nil, in: Self.bag(files)) == [])
        let page = String(decoding: try #require(files["data/preview/index.html"]), as: UTF8.self)
        for appearance in ["default", "dark", "tinted"] { #expect(page.contains("class=\"appearance-\(appearance)\""), "\(appearance)") }
        files["data/\(AssetCatalog.appIconSet)/AppIcon-extra@2x.png"] = Data("x".utf8)
        #expect(PreviewInput.verify(nil, in: Self.bag(files)).map(\.message) == ["does not show data/\(AssetCatalog.appIconSet)/AppIcon-extra@2x.png"])
    }

    @Test func aListedPageThatIsMissingIsAProblem() {
        let record = PreviewInput.Record(files: ["preview/index.html"], clauses: 2, categories: 2)
        #expect(PreviewInput.verify(record, in: Self.bag([:])).map(\.rule) == ["preview-page"])
        #expect(PreviewInput.verify(nil, in: Self.bag([:])) == [])
    }

    @Test(arguments: [
        ("style.css", PageReferences.Target.file("data/preview/style.css")),
        ("../categories/1.png?v=2#x", .file("data/categories/1.png")),
        ("./../document/a%20b.dzi", .file("data/document/a b.dzi")),
        ("../../bagit.txt", .file("bagit.txt")),
        ("../../../x", .outside("a path that leaves the bag")),
        ("#panel", .inPage), ("data:,", .inPage),
        ("//cdn.example.org/x.js", .outside("a network address")),
        ("file:///etc/passwd", .outside("an address with a scheme (file:)")),
        ("/etc/passwd", .outside("an absolute path")),
    ])
    func referencesResolveAgainstThePage(_ url: String, _ target: PageReferences.Target) {
        #expect(PageReferences.resolve(url, from: "data/preview/index.html") == target)
    }
}
