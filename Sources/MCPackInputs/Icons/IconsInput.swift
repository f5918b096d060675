import Foundation
import MCPackSchema
import Imaging

/// The app icon, as the catalog's AppIcon.appiconset
/// (data/Assets.xcassets/AppIcon.appiconset), in the form current Xcode
/// writes: by default the single-size iOS icon (Xcode 14 and later), one
/// universal 1024 px entry for the default appearance, and one each for
/// the dark and tinted home screens (iOS 18) when their masters are given.
/// `sizes = "all"` writes what current Xcode writes for "All Sizes" instead:
/// every size of one universal iOS set (IconSlot), made from the master
/// with lanczos3.
///
/// What each appearance may hold follows Apple's rules (docs/guide/images.md,
/// "The asset catalog"): the default icon is opaque (the App Store refuses an icon with
/// alpha, ITMS-90717); the dark icon may keep a transparent background,
/// which the system fills with its dark background; the tinted icon is an
/// opaque grey picture the system tints, so a coloured one is made grey.
package enum IconsInput: BundleInput {
    package static let table = "icon"
    package static let required = false
    package static let component = "icons"
    /// `icons/` is where a bag made before the catalog kept its icon set
    /// (icons/AppIcon.appiconset): claimed so verify still reads and checks
    /// it, and diff still names its files as the icons'.
    package static let payload = [AssetCatalog.appIconSet + "/", IconComposer.bundleFolder + "/", legacyFolder + "/"]
    package static let legacyFolder = "icons"
    package static let masterSide = 1024

    package enum Sizes: String, Sendable, Codable {
        /// The universal 1024 px entry per appearance.
        case single
        /// Xcode's "All Sizes" universal iOS set (default appearance only).
        case all
    }

    package struct Settings: Sendable, Equatable {
        package var master: String
        package var dark: String?
        package var tinted: String?
        package var sizes: Sizes
        /// `[icon] idioms`, which no set uses any more (both are universal);
        /// read to warn of it, and kept in the single-size set's work-cache
        /// key so that key stays what it was.
        package var idioms: [String]
        /// `#RRGGBB` to flatten a master with alpha onto.
        package var background: String?
        /// An Icon Composer document (`AppIcon.icon`), for iOS 26.
        package var composer: String?

        /// The master file of each appearance given, default first.
        package var masters: [(IconAppearance, String)] {
            [(.default, master)] + [(.dark, dark), (.tinted, tinted)].compactMap { appearance, path in path.map { (appearance, $0) } }
        }
    }

    /// One appearance's master, upright in sRGB (grey for the tinted one),
    /// flattened when it had alpha and a background was set.
    package struct Master: Sendable {
        package var appearance: IconAppearance
        package var image: Image
        package var picture: PictureImport.Record
        package var source: SourceFile
    }

    package struct Plan: InputPlan {
        package var settings: Settings
        /// Default first, then dark and tinted when given.
        package var masters: [Master]
        package var composer: IconComposer.Plan?
        package var sources: [SourceRef] { masters.map { .read($0.source) } + (composer?.files ?? []).map { .read($0.source) } }
    }

    package struct Record: Codable, Sendable, Equatable {
        package struct Icon: Codable, Sendable, Equatable {
            package var idiom: String
            /// "dark" or "tinted"; absent for the default appearance.
            package var appearance: String?
            package var file: String
            package var pixels: Int
        }

        /// A dark or tinted master: its file and what was done to it.
        package struct Variant: Codable, Sendable, Equatable {
            package var master: String
            package var sha256: String
            package var picture: PictureImport.Record
        }

        package var master: String
        package var sha256: String
        /// "single" or "all"; absent in bundles made before the single-size
        /// icon, which wrote every size.
        package var sizes: Sizes?
        package var idioms: [String]
        package var flattenedOnto: String?
        package var dark: Variant?
        package var tinted: Variant?
        package var icons: [Icon]
        /// What the master file was and what was done to it; absent in
        /// bundles made before mcpack converted colour.
        package var picture: PictureImport.Record?
        /// The Icon Composer document, when given.
        package var composer: IconComposer.Record?

        package enum CodingKeys: String, CodingKey { case master, sha256, sizes, idioms, flattenedOnto = "flattened_onto", dark, tinted, icons, picture, composer }

        package func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(master, forKey: .master)
            try container.encode(sha256, forKey: .sha256)
            try container.encodeIfPresent(sizes, forKey: .sizes)
            try container.encode(idioms, forKey: .idioms)
            // null, not left out: a reader sees that no flattening was done.
            try container.encode(flattenedOnto, forKey: .flattenedOnto)
            try container.encodeIfPresent(dark, forKey: .dark)
            try container.encodeIfPresent(tinted, forKey: .tinted)
            try container.encode(icons, forKey: .icons)
            try container.encodeIfPresent(picture, forKey: .picture)
            try container.encodeIfPresent(composer, forKey: .composer)
        }

        /// The record of one appearance's master.
        package func variant(_ appearance: IconAppearance) -> Variant? {
            switch appearance {
            case .default: return picture.map { Variant(master: master, sha256: sha256, picture: $0) }
            case .dark: return dark
            case .tinted: return tinted
            }
        }
    }

    /// What a master's record says when its opaque alpha band was dropped.
    package static let droppedOpaqueAlpha = "alpha channel dropped: every pixel was opaque, so no pixel changed (App Store Connect refuses an app icon with an alpha channel, ITMS-90717)"

    /// What the tinted master's record says was done to it.
    package static let madeGrey = "made greyscale: the tinted icon is a grey picture the system tints (Apple, tinted app icons)"

    package static func settings(_ t: TableReader, paths: ProjectPaths) -> Settings? {
        let master = paths.check(t, "master", kind: .file)
        let dark = t.has("dark") ? paths.check(t, "dark", kind: .file) : nil
        let tinted = t.has("tinted") ? paths.check(t, "tinted", kind: .file) : nil
        let sizes = t.choice("sizes", of: ["single", "all"], required: false).flatMap(Sizes.init(rawValue:)) ?? .single
        let idioms = t.strings("idioms", required: false)
        var ok = true
        if idioms != nil {
            // Kept readable, not refused, so that a bundle.toml written for
            // the per-idiom sets still builds.
            t.warning("idioms", "is no longer used: the single-size icon (the default) serves every device, and sizes = \"all\" writes "
                + "Xcode's universal iOS set, which serves iPhone and iPad alike. Remove idioms")
        }
        if sizes == .all {
            for key in ["dark", "tinted"] where t.has(key) {
                t.error(key, "needs the single-size icon: Xcode takes dark and tinted icons as 1024 px entries. Remove sizes = \"all\", or remove \(key)")
                ok = false
            }
        }
        let composer = t.has("composer") ? paths.check(t, "composer", kind: .directory) : nil
        if t.has("composer") && composer == nil { ok = false }
        let background = t.string("background", required: false)
        if let background, background.wholeMatch(of: #/#[0-9A-Fa-f]{6}/#) == nil {
            t.error("background", "\"\(background)\" is not a colour; expected #RRGGBB, e.g. \"#FFFFFF\"")
        }
        t.rejectUnknownKeys(known: ["master", "dark", "tinted", "sizes", "idioms", "background", "composer"])
        if t.has("dark") && dark == nil || t.has("tinted") && tinted == nil { ok = false }
        guard ok, let master else { return nil }
        return Settings(master: master, dark: dark, tinted: tinted, sizes: sizes, idioms: idioms ?? ["ipad", "ios-marketing"],
                        background: background, composer: composer)
    }

    package static func check(_ settings: Settings, needs: NoNeeds?, in env: CheckEnvironment) -> Checked<Plan> {
        let masters = settings.masters.map { appearance, path in master(path, appearance, settings: settings, env: env) }
        let found = masters.compactMap { $0 }
        let composer = settings.composer.map { IconComposer.check($0, env: env) }
        guard found.count == masters.count, composer.map({ $0 != nil }) ?? true else { return .failed }
        let contents = contents(settings, appearances: found.map(\.appearance))
        return Checked(plan: Plan(settings: settings, masters: found, composer: composer ?? nil),
                       facts: [AppIconSet(contents: contents)])
    }

    /// One appearance's master read and checked as strictly as the default
    /// one: a 1024 x 1024 PNG, converted to sRGB, with alpha only where
    /// Apple allows it; nil after saying why not.
    package static func master(_ path: String, _ appearance: IconAppearance, settings: Settings, env: CheckEnvironment) -> Master? {
        let what = appearance == .default ? "the icon master" : "the \(appearance.rawValue) icon master"
        guard let (data, source) = env.read(path) else { return nil }
        guard let (opened, picture) = PictureImport.png(data, path: path, env: env, expected: "\(what) must be a 1024 x 1024 PNG") else { return nil }
        var image = opened
        guard picture.width == picture.height else {
            env.problem(path, "is \(picture.width) x \(picture.height) px\(picture.sizeNote), not square; \(what) must be 1024 x 1024 (icons are never stretched)")
            return nil
        }
        guard picture.width == masterSide else {
            env.problem(path, "is \(picture.width) x \(picture.height) px\(picture.sizeNote); \(what) must be exactly 1024 x 1024")
            return nil
        }
        var record: PictureImport.Record
        do {
            (image, record) = try PictureImport.converted(image, picture)
            image = try image.srgb()
        } catch {
            env.problem(path, "cannot be converted to sRGB: \(error)")
            return nil
        }
        // An alpha band every pixel of which is opaque hides nothing: it is
        // dropped, no pixel changing, so that the icon ships without the
        // channel App Store Connect refuses (ITMS-90717: "can't be
        // transparent nor contain an alpha channel") and no background
        // need be named for a flattening that would change nothing. A
        // default master with a background named is flattened as before;
        // the dark icon may keep its alpha.
        let dropsAlpha = appearance == .tinted || appearance == .default && settings.background == nil
        let opaqueAlpha = dropsAlpha && image.hasAlpha && (try? image.alphaIsOpaque()) == true
        if opaqueAlpha {
            do {
                image = try image.droppingAlpha()
            } catch {
                env.problem(path, "cannot drop its alpha channel: \(error)")
                return nil
            }
            record.conversions.append(droppedOpaqueAlpha)
        }
        switch appearance {
        case .default where image.hasAlpha:
            guard let background = settings.background else {
                env.problem(path, "has transparency (alpha below fully opaque); the App Store refuses an app icon that is transparent or has an alpha channel at all (ITMS-90717). Make it opaque, or set [icon] background = \"#RRGGBB\" in \(env.project.configDisplayPath) to flatten it onto that colour")
                return nil
            }
            let (r, g, b) = HexColour.rgb(background)
            guard let flat = try? image.flattened(red: r, green: g, blue: b) else {
                env.problem(path, "cannot flatten onto \(background)")
                return nil
            }
            image = flat
        case .tinted:
            if image.hasAlpha {
                env.problem(path, "has transparency (alpha below fully opaque); the tinted icon must be opaque (a grey picture on black that the system tints). Flatten it onto black")
                return nil
            }
            do {
                image = try image.grey()
            } catch {
                env.problem(path, "cannot be made greyscale: \(error)")
                return nil
            }
            record.conversions.append(madeGrey)
        default:
            break
        }
        return Master(appearance: appearance, image: image, picture: record, source: source)
    }

    /// The Contents.json of the icon set.
    package static func contents(_ settings: Settings, appearances: [IconAppearance]) -> AssetCatalogContents {
        switch settings.sizes {
        case .single:
            return AssetCatalogContents(images: appearances.map(\.entry))
        case .all:
            return AssetCatalogContents(images: IconSlot.allSizes.map(\.entry))
        }
    }

    package static func make(_ plan: Plan, in env: MakeEnvironment) throws -> Made<Record> {
        let settings = plan.settings
        let contents = contents(settings, appearances: plan.masters.map(\.appearance))
        let slots = IconSlot.allSizes
        let set = settings.sizes == .all ? "ios-universal" : settings.idioms.joined(separator: ",")
        let key = WorkCache.key(plan.masters.map { "\($0.appearance.rawValue)=\($0.source.sha256)" }
            + [settings.sizes.rawValue, set, settings.background ?? "-", "colour-1", "catalog-1"])
        let masters = plan.masters
        let entry: WorkCache.Entry
        do {
            entry = try env.cache("icons").entry(key, damage: { env.report(.note($0)) }) { folder in
                let set = folder.appendingPathComponent("AppIcon.appiconset")
                try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
                switch settings.sizes {
                case .single:
                    for master in masters {
                        try master.image.pngData(compression: 9).write(to: set.appendingPathComponent(master.appearance.filename))
                    }
                case .all:
                    var written = Set<String>()
                    let srgb = masters[0].image
                    for slot in slots where written.insert(slot.filename).inserted {
                        let sized = slot.pixels == masterSide ? srgb : try srgb.resized(width: slot.pixels, height: slot.pixels)
                        try sized.pngData(compression: 9).write(to: set.appendingPathComponent(slot.filename))
                    }
                }
                try JSON.encode(contents).write(to: set.appendingPathComponent("Contents.json"))
            }
        } catch {
            throw env.failure(settings.master, "cannot make the app icon: \(error)")
        }
        let icons: [Record.Icon] = switch settings.sizes {
        case .single: masters.map { Record.Icon(idiom: "universal", appearance: $0.appearance == .default ? nil : $0.appearance.rawValue,
                                                file: $0.appearance.filename, pixels: masterSide) }
        case .all: slots.map { Record.Icon(idiom: "universal", file: $0.filename, pixels: $0.pixels) }
        }
        func variant(_ appearance: IconAppearance) -> Record.Variant? {
            masters.first { $0.appearance == appearance }.map { Record.Variant(master: $0.source.path, sha256: $0.source.sha256, picture: $0.picture) }
        }
        let record = Record(
            master: settings.master, sha256: masters[0].source.sha256, sizes: settings.sizes,
            idioms: ["universal"], flattenedOnto: settings.background,
            dark: variant(.dark), tinted: variant(.tinted), icons: icons, picture: masters[0].picture)
        var made = record
        if let composer = plan.composer, let json = composer.files.first {
            made.composer = IconComposer.Record(document: composer.folder, sha256: json.source.sha256, layers: composer.layers)
        }
        return Made(payload: entry.payload(under: AssetCatalog.folder + "/") + (plan.composer.map(IconComposer.payload) ?? []),
                    record: made)
    }
}
