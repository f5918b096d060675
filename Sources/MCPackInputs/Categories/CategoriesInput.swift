import MCPackBag
import Foundation
import MCPackSchema
import Imaging

/// The side menu's icons: the project's 1.png ... N.png, one per declared
/// category, all PNG, square, one size, with an alpha channel, each an
/// image set of the bundle's catalog named as the generated ClauseData.swift
/// uses it (data/Assets.xcassets/Categories/CategoryN.imageset, in a folder
/// that gives no namespace, so the image is `CategoryN`). They are shipped
/// byte for byte, so a copy in the app folder can be compared.
package enum CategoriesInput: BundleInput {
    package static let table = "categories"
    /// A project without a side menu has none.
    package static let required = false
    package static let component = "categories"
    package static let payload = [AssetCatalog.categoriesFolder + "/", "categories.json"]
    package static let diffFiles = [CategoriesDocument.path]

    /// Larger icons are almost surely a mistake, and a PNG that claims a
    /// huge size must not be decoded.
    package static let maxSide = 2048

    package struct Settings: Sendable, Equatable {
        /// The folder holding 1.png ... N.png.
        package var icons: String
        /// Where bundle.toml names it, for a message about the table as a whole.
        package var iconsAt: Diagnostic?
    }

    package struct Plan: InputPlan {
        package var folder: String
        /// The bytes to ship: the file's own, or the PNG of it converted.
        package var icons: [(number: Int, data: Data, source: SourceFile)]
        package var converted: [ConvertedIcon]
        package var categories: [ClauseCategory]
        package var size: (width: Int, height: Int)
        package var sources: [SourceRef] { icons.map { .read($0.source) } }
    }

    package struct Record: Codable, Sendable, Equatable {
        package var folder: String
        package var count: Int
        package var width: Int
        package var height: Int
        /// The icons that were not 8-bit sRGB and upright, and what was done
        /// to them; the others ship byte for byte. Absent in bundles made
        /// before mcpack converted colour.
        package var converted: [ConvertedIcon]?
    }

    package struct ConvertedIcon: Codable, Sendable, Equatable {
        package var number: Int
        package var picture: PictureImport.Record
    }

    package static func settings(_ t: TableReader, paths: ProjectPaths) -> Settings? {
        let icons = paths.check(t, "icons", kind: .directory)
        t.rejectUnknownKeys(known: ["icons"])
        return icons.map { Settings(icons: $0, iconsAt: Diagnostic(file: t.source.displayPath, line: t.line("icons"), key: t.keyPath("icons"), message: "")) }
    }

    package static func check(_ settings: Settings, needs clauses: ClauseList?, in env: CheckEnvironment) -> Checked<Plan> {
        let folder = settings.icons
        // No clause list and nothing reported: the project has no clauses
        // file, where the categories are declared.
        if clauses == nil, env.sink.errorCount == 0, var at = settings.iconsAt {
            at.message = "the categories the icons belong to are the [[category]] tables of the clauses file, and the project has none; add a [clauses] table naming it, or leave [categories] out"
            env.sink.add(at)
            return .failed
        }
        let url = env.project.url(folder)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
        } catch {
            env.problem(folder, "cannot list the folder")
            return .failed
        }
        var numbered: [Int: String] = [:]
        var ok = true
        for name in names where !name.hasPrefix(".") {
            guard name.wholeMatch(of: #/[1-9][0-9]{0,2}\.png/#) != nil, let number = Int(name.dropLast(4)) else {
                let control = firstControlCharacter(name).map { " (its name holds a control character, \($0))" } ?? ""
                env.problem("\(folder)/\(name)", "unexpected file\(control); category icons are named 1.png, 2.png, ... N.png")
                ok = false
                continue
            }
            numbered[number] = name
        }
        let count = numbered.keys.max() ?? 0
        let gaps = (1...max(count, 1)).filter { numbered[$0] == nil }
        if numbered.isEmpty {
            env.problem(folder, "holds no category icons; expected 1.png ... N.png")
            return .failed
        }
        if !gaps.isEmpty {
            env.problem(folder, "icons are not numbered 1...\(count) without gaps: missing \(gaps.map { "\($0).png" }.joined(separator: ", "))")
            ok = false
        }
        if let clauses {
            let declared = Set(clauses.file.categories.map(\.icon))
            for category in clauses.file.categories where numbered[category.icon] == nil {
                env.problem(folder, "category \"\(category.name)\" uses icon \(category.icon), but there is no \(category.icon).png")
                ok = false
            }
            for number in numbered.keys.sorted() where clauses.file.categoriesComplete && !declared.contains(number) {
                env.problem("\(folder)/\(number).png", "no [[category]] in \(clauses.path) uses icon \(number)")
                ok = false
            }
        }

        var icons: [(number: Int, data: Data, source: SourceFile)] = []
        var converted: [ConvertedIcon] = []
        var size: (Int, Int)?
        for number in numbered.keys.sorted() {
            let path = "\(folder)/\(number).png"
            guard let (data, source) = env.read(path) else { ok = false; continue }
            guard let (side, shipped, picture) = check(data, path: path, env: env) else { ok = false; continue }
            if let size, size != side {
                env.problem(path, "is \(side.0) x \(side.1) px; the other icons are \(size.0) x \(size.1) px; all category icons must be one size")
                ok = false
            }
            size = size ?? side
            icons.append((number, shipped, source))
            if let picture { converted.append(ConvertedIcon(number: number, picture: picture)) }
        }
        guard ok, let clauses, let size else { return .failed }
        let paths = Dictionary(uniqueKeysWithValues: icons.map { ($0.number, AssetCatalog.categoryImagePath($0.number)) })
        return Checked(plan: Plan(folder: folder, icons: icons, converted: converted, categories: clauses.file.categories, size: size),
                       facts: [CategoryIcons(paths: paths)])
    }

    package static func make(_ plan: Plan, in env: MakeEnvironment) throws -> Made<Record> {
        var payload = [PayloadFile(path: AssetCatalog.categoriesFolder + "/Contents.json", bytes: JSON.encode(AssetCatalogContents.folder))]
        for icon in plan.icons {
            let name = AssetCatalog.categoryImageName(icon.number)
            payload.append(PayloadFile(path: AssetCatalog.categoryImagePath(icon.number), bytes: icon.data))
            payload.append(PayloadFile(path: "\(AssetCatalog.categoriesFolder)/\(name).imageset/Contents.json",
                                       bytes: JSON.encode(imageSet(name))))
        }
        payload.append(PayloadFile(path: "categories.json", bytes: JSON.encode(CategoriesDocument(plan.categories))))
        return Made(payload: payload, record: Record(folder: plan.folder, count: plan.icons.count, width: plan.size.width,
                                                     height: plan.size.height, converted: plan.converted))
    }

    /// A category icon's image set: its one PNG for every scale, as the
    /// icons are drawn at whatever size the menu gives them.
    package static func imageSet(_ name: String) -> AssetCatalogContents {
        AssetCatalogContents(images: [AssetCatalogContents.Image(filename: "\(name).png", idiom: "universal")])
    }

    /// Decodes one icon fully; returns its size as displayed and the bytes
    /// to ship (its own, or a PNG of it in sRGB with what was done), or nil
    /// after saying why not.
    private static func check(_ data: Data, path: String, env: CheckEnvironment) -> ((Int, Int), Data, PictureImport.Record?)? {
        guard let (image, picture) = PictureImport.png(data, path: path, env: env, expected: "save it as PNG with transparency",
                                                        unreadable: "expected a PNG with transparency") else { return nil }
        guard picture.width == picture.height else {
            env.problem(path, "is \(picture.width) x \(picture.height) px\(picture.sizeNote); category icons must be square")
            return nil
        }
        guard picture.width <= maxSide else {
            env.problem(path, "is \(picture.width) x \(picture.height) px; category icons must be at most \(maxSide) px")
            return nil
        }
        guard image.hasAlpha else {
            env.problem(path, "has no alpha channel; category icons need a transparent background")
            return nil
        }
        do {
            try image.decodeAll()
        } catch {
            env.problem(path, "damaged PNG: \(error)")
            return nil
        }
        if picture.unchanged { return ((picture.width, picture.height), data, nil) }
        do {
            let (converted, record) = try PictureImport.converted(image, picture)
            return ((picture.width, picture.height), try converted.pngData(), record)
        } catch {
            env.problem(path, "cannot be converted to sRGB: \(error)")
            return nil
        }
    }
}
