import Foundation
import MCPackSchema
import Imaging

/// The app icon in every size its idioms need, made from the 1024 px master
/// with lanczos3, as data/icons/AppIcon.appiconset with a Contents.json
/// Xcode reads.
enum IconsInput: BundleInput {
    static let table = "icon"
    static let required = false
    static let component = "icons"
    static let payload = ["icons/"]
    static let masterSide = 1024
    static let idioms = ["iphone", "ipad", "ios-marketing"]

    struct Settings: Sendable, Equatable {
        var master: String
        var idioms: [String]
        /// `#RRGGBB` to flatten a master with alpha onto.
        var background: String?
    }

    struct Plan: InputPlan {
        var settings: Settings
        /// The master upright in sRGB, flattened when it had alpha and a
        /// background was set.
        var image: Image
        var picture: PictureImport.Record
        var source: SourceFile
        var sources: [SourceRef] { [.read(source)] }
    }

    struct Record: Codable, Sendable, Equatable {
        struct Icon: Codable, Sendable, Equatable {
            var idiom: String
            var file: String
            var pixels: Int
        }

        var master: String
        var sha256: String
        var idioms: [String]
        var flattenedOnto: String?
        var icons: [Icon]
        /// What the master file was and what was done to it; absent in
        /// bundles made before mcpack converted colour.
        var picture: PictureImport.Record?

        enum CodingKeys: String, CodingKey { case master, sha256, idioms, flattenedOnto = "flattened_onto", icons, picture }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(master, forKey: .master)
            try container.encode(sha256, forKey: .sha256)
            try container.encode(idioms, forKey: .idioms)
            // null, not left out: a reader sees that no flattening was done.
            try container.encode(flattenedOnto, forKey: .flattenedOnto)
            try container.encode(icons, forKey: .icons)
            try container.encodeIfPresent(picture, forKey: .picture)
        }
    }

    static func settings(_ t: TableReader, paths: ProjectPaths) -> Settings? {
        let master = paths.check(t, "master", kind: .file)
        let idioms = t.strings("idioms", required: false) ?? ["ipad", "ios-marketing"]
        for idiom in idioms where !Self.idioms.contains(idiom) {
            var message = "unknown idiom \"\(idiom)\"; expected one of \(Self.idioms.joined(separator: ", "))"
            if let near = closestMatch(to: idiom, in: Self.idioms) { message += " (did you mean \"\(near)\"?)" }
            t.error("idioms", message)
        }
        let background = t.string("background", required: false)
        if let background, background.range(of: "^#[0-9A-Fa-f]{6}$", options: .regularExpression) == nil {
            t.error("background", "\"\(background)\" is not a colour; expected #RRGGBB, e.g. \"#FFFFFF\"")
        }
        t.rejectUnknownKeys(known: ["master", "idioms", "background"])
        return master.map { Settings(master: $0, idioms: idioms, background: background) }
    }

    static func check(_ settings: Settings, needs: NoNeeds?, in env: CheckEnvironment) -> Checked<Plan> {
        guard let (data, source) = env.read(settings.master) else { return .failed }
        if let problem = ImageFileCheck.problem(in: data) {
            env.problem(settings.master, problem)
            return .failed
        }
        var image: Image
        do {
            image = try Image(data: data)
        } catch {
            env.problem(settings.master, "not a readable image (\(error)); the icon master must be a 1024 x 1024 PNG")
            return .failed
        }
        guard image.format == "png" else {
            env.problem(settings.master, "is \(image.format ?? "not an image") data, not PNG; the icon master must be a 1024 x 1024 PNG")
            return .failed
        }
        guard let picture = PictureImport.check(image, path: settings.master, env: env) else { return .failed }
        guard picture.width == picture.height else {
            env.problem(settings.master, "is \(picture.width) x \(picture.height) px\(picture.sizeNote), not square; the icon master must be 1024 x 1024 (icons are never stretched)")
            return .failed
        }
        guard picture.width == masterSide else {
            env.problem(settings.master, "is \(picture.width) x \(picture.height) px\(picture.sizeNote); the icon master must be exactly 1024 x 1024")
            return .failed
        }
        var record: PictureImport.Record
        do {
            (image, record) = try PictureImport.converted(image, picture)
        } catch {
            env.problem(settings.master, "cannot be converted to sRGB: \(error)")
            return .failed
        }
        if image.hasAlpha {
            guard let background = settings.background else {
                env.problem(settings.master, "has an alpha channel; the App Store rejects an icon with transparency (ITMS-90717). Remove it, or set [icon] background = \"#RRGGBB\" in \(env.project.configDisplayPath) to flatten it onto that colour")
                return .failed
            }
            let (r, g, b) = rgb(background)
            guard let flat = try? image.flattened(red: r, green: g, blue: b) else {
                env.problem(settings.master, "cannot flatten onto \(background)")
                return .failed
            }
            image = flat
        }
        return Checked(plan: Plan(settings: settings, image: image, picture: record, source: source),
                       facts: [AppIconSet(contents: contents(settings.idioms))])
    }

    /// The Contents.json of the icon set, for these idioms.
    static func contents(_ idioms: [String]) -> AssetCatalogContents {
        AssetCatalogContents(images: IconSlot.slots(for: idioms).map {
            AssetCatalogContents.Image(filename: $0.filename, idiom: $0.idiom, scale: "\($0.scale)x", size: "\($0.points)x\($0.points)")
        })
    }

    static func make(_ plan: Plan, in env: MakeEnvironment) throws -> Made<Record> {
        let settings = plan.settings
        let slots = IconSlot.slots(for: settings.idioms)
        let contents = contents(settings.idioms)
        let key = WorkCache.key([plan.source.sha256, settings.idioms.joined(separator: ","), settings.background ?? "-", "colour-1"])
        let entry: WorkCache.Entry
        do {
            entry = try env.cache("icons").entry(key, damage: { env.report(.note($0)) }) { folder in
                let set = folder.appendingPathComponent("AppIcon.appiconset")
                try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
                let srgb = try plan.image.srgb()
                var written = Set<String>()
                for slot in slots where written.insert(slot.filename).inserted {
                    let sized = slot.pixels == masterSide ? srgb : try srgb.resized(width: slot.pixels, height: slot.pixels)
                    try sized.pngData(compression: 9).write(to: set.appendingPathComponent(slot.filename))
                }
                try JSON.encode(contents).write(to: set.appendingPathComponent("Contents.json"))
            }
        } catch {
            throw env.failure(settings.master, "cannot make the icon sizes: \(error)")
        }
        let record = Record(
            master: settings.master, sha256: plan.source.sha256, idioms: settings.idioms, flattenedOnto: settings.background,
            icons: slots.map { Record.Icon(idiom: $0.idiom, file: $0.filename, pixels: $0.pixels) }, picture: plan.picture)
        return Made(payload: entry.payload(under: "icons/"), record: record, cached: entry.reused)
    }

    static func rgb(_ hex: String) -> (Double, Double, Double) {
        let value = Int(hex.dropFirst(), radix: 16) ?? 0
        return (Double((value >> 16) & 0xFF), Double((value >> 8) & 0xFF), Double(value & 0xFF))
    }
}
