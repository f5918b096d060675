import MCPackBag
import Foundation
import MCPackSchema
import Imaging

/// The two-layer launch screen: a background that fills the screen and a
/// text layer kept at its natural size, centred. Makes, under data/launch/:
/// the background cropped to cover each iPad screen (portrait and
/// landscape), a LaunchScreen.storyboard from Templates/launch, and a
/// composited preview per screen so a person can see the result; and the
/// two layers' image sets in the bundle's catalog (data/Assets.xcassets:
/// LaunchBackground, and LaunchText at @1x/@2x/@3x, the file given being
/// the @3x), under the names the storyboard uses.
package enum LaunchInput: BundleInput {
    package static let table = "launch"
    package static let required = false
    package static let component = "launch"
    package static let payload = ["launch/", AssetCatalog.launchSet(AssetCatalog.launchBackground) + "/",
                                AssetCatalog.launchSet(AssetCatalog.launchText) + "/"]

    package struct Settings: Sendable, Equatable {
        package var background: String
        /// The text layer at @3x.
        package var text: String
    }

    package struct Layer: Sendable {
        /// Upright, in sRGB.
        package var image: Image
        package var picture: PictureImport.Record
        package var source: SourceFile
    }

    /// The text layer's size at a scale, from its @3x size (the file given).
    package static func textSize(_ scale: Int, at3x size: (width: Int, height: Int)) -> (width: Int, height: Int) {
        (max(1, (size.width * scale + 1) / 3), max(1, (size.height * scale + 1) / 3))
    }

    package struct Plan: InputPlan {
        package var background: Layer
        package var text: Layer
        package var sources: [SourceRef] { [.read(background.source), .read(text.source)] }

        /// The text layer's size at a scale: the file given is the @3x.
        package func textSize(_ scale: Int) -> (width: Int, height: Int) {
            LaunchInput.textSize(scale, at3x: (text.image.width, text.image.height))
        }
    }

    package struct Record: Codable, Sendable, Equatable {
        package var background: String
        package var backgroundSHA256: String
        package var text: String
        package var textSHA256: String
        /// The text layer's size in points, as the storyboard places it.
        package var textPoints: [Int]
        package var screens: [String]
        /// What each layer's file was and what was done to it; absent in
        /// bundles made before mcpack converted colour.
        package var backgroundPicture: PictureImport.Record?
        package var textPicture: PictureImport.Record?

        package enum CodingKeys: String, CodingKey {
            case background, backgroundSHA256 = "background_sha256", text, textSHA256 = "text_sha256"
            case textPoints = "text_points", screens
            case backgroundPicture = "background_picture", textPicture = "text_picture"
        }
    }

    /// The values LaunchScreen.storyboard.mustache places.
    package struct StoryboardContext {
        package var textWidth: Int
        package var textHeight: Int
        package var textX: Int
        package var textY: Int
        package var backgroundWidth: Int
        package var backgroundHeight: Int
    }

    /// iPad screens in pixels, portrait, with their scale: every one since
    /// the first iPad. 1488 x 2266 is the 8.3" iPad mini (6th generation,
    /// A17 Pro); 1640 x 2360 the 10.9" and 11" iPad and iPad Air; 1668 x
    /// 2420 and 2064 x 2752 the 11" and 13" iPad Pro (M4 and later); 2048
    /// x 2732 the 12.9" iPad Pro and the 13" iPad Air.
    package static let screens: [(width: Int, height: Int, scale: Int)] = [
        (768, 1024, 1), (1488, 2266, 2), (1536, 2048, 2), (1620, 2160, 2), (1640, 2360, 2),
        (1668, 2224, 2), (1668, 2388, 2), (1668, 2420, 2), (2048, 2732, 2), (2064, 2752, 2),
    ]

    /// Portrait then landscape, each named `<w>x<h>`.
    package static var allScreens: [(width: Int, height: Int, scale: Int)] {
        screens + screens.map { ($0.height, $0.width, $0.scale) }
    }

    package static func settings(_ t: TableReader, paths: ProjectPaths) -> Settings? {
        let background = paths.check(t, "background", kind: .file)
        let text = paths.check(t, "text", kind: .file)
        t.rejectUnknownKeys(known: ["background", "text"])
        guard let background, let text else { return nil }
        return Settings(background: background, text: text)
    }

    package static func check(_ settings: Settings, needs: NoNeeds?, in env: CheckEnvironment) -> Checked<Plan> {
        let background = layer(settings.background, env: env, needsAlpha: false)
        let text = layer(settings.text, env: env, needsAlpha: true)
        guard let background, let text else { return .failed }
        return Checked(plan: Plan(background: background, text: text), facts: [LaunchScreens(screens: allScreens)])
    }

    package static func make(_ plan: Plan, in env: MakeEnvironment) throws -> Made<Record> {
        let background = plan.background
        // launch-2: an entry made before the list of screens grew lacks the new ones.
        let key = WorkCache.key([background.source.sha256, plan.text.source.sha256, "launch-2", "colour-1", "catalog-1"])
        let entry: WorkCache.Entry
        do {
            entry = try env.cache("launch").entry(key, damage: { env.report(.note($0)) }) { folder in
                try make(in: folder, background: background.image, text: plan.text.image, textSize: plan.textSize, workers: env.workers)
            }
        } catch {
            throw env.failure(background.source.path, "cannot make the launch layers: \(error)")
        }
        // The cache entry holds the image sets under catalog/, which go
        // into the bundle's one catalog; the rest is data/launch/.
        var payload = entry.payload(under: "launch/").map { file in
            var file = file
            if file.path.hasPrefix("launch/catalog/") { file.path = AssetCatalog.folder + "/" + file.path.dropFirst("launch/catalog/".count) }
            return file
        }
        let points = plan.textSize(1)
        do {
            let storyboard = try TemplateSet.load("launch").render(StoryboardContext(
                textWidth: points.width, textHeight: points.height,
                textX: (1024 - points.width) / 2, textY: (1366 - points.height) / 2,
                backgroundWidth: background.image.width, backgroundHeight: background.image.height))
            payload += storyboard.map { PayloadFile(path: "launch/\($0.path)", bytes: $0.data) }
        } catch {
            throw env.failure(background.source.path, "cannot render the launch storyboard: \(error)")
        }
        let record = Record(
            background: background.source.path, backgroundSHA256: background.source.sha256,
            text: plan.text.source.path, textSHA256: plan.text.source.sha256,
            textPoints: [points.width, points.height],
            screens: allScreens.map { "\($0.width)x\($0.height)" },
            backgroundPicture: background.picture, textPicture: plan.text.picture)
        return Made(payload: payload, record: record)
    }

    private static func layer(_ path: String, env: CheckEnvironment, needsAlpha: Bool) -> Layer? {
        guard let (data, source) = env.read(path),
              var image = PictureImport.open(data, path: path, env: env, unreadable: "launch layers are PNG or JPEG", decodeAll: true)
        else { return nil }
        let format = image.format
        guard let picture = PictureImport.check(image, path: path, env: env) else { return nil }
        let record: PictureImport.Record
        do {
            (image, record) = try PictureImport.converted(image, picture)
        } catch {
            env.problem(path, "cannot be converted to sRGB: \(error)")
            return nil
        }
        if needsAlpha && !image.hasAlpha {
            env.problem(path, "has no alpha channel; the text layer is drawn over the background and needs a transparent background")
            return nil
        }
        if needsAlpha && format != "png" {
            env.problem(path, "is \(format ?? "unknown") data; the text layer must be a PNG with transparency")
            return nil
        }
        return Layer(image: image, picture: record, source: source)
    }

    /// The text layer's image set: the file given at @3x, and the @2x and
    /// @1x made from it.
    package static let textSetContents = AssetCatalogContents(images: (1...3).map { scale in
        AssetCatalogContents.Image(filename: scale == 1 ? "LaunchText.png" : "LaunchText@\(scale)x.png", idiom: "universal", scale: "\(scale)x")
    })

    private static func make(in folder: URL, background: Image, text: Image, textSize: (Int) -> (width: Int, height: Int), workers: Int) throws {
        let catalog = folder.appendingPathComponent("catalog")
        let textSet = catalog.appendingPathComponent("\(AssetCatalog.launchText).imageset")
        let backgroundSet = catalog.appendingPathComponent("\(AssetCatalog.launchBackground).imageset")
        for sub in [textSet, backgroundSet, folder.appendingPathComponent("screens"), folder.appendingPathComponent("preview")] {
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        }
        let srgbText = try text.srgb()
        let srgbBackground = try background.srgb()
        var scaledText: [Int: Image] = [:]
        for scale in 1...3 {
            let (width, height) = textSize(scale)
            let sized = scale == 3 ? srgbText : try srgbText.resized(width: width, height: height)
            scaledText[scale] = sized
            try sized.pngData().write(to: textSet.appendingPathComponent(scale == 1 ? "LaunchText.png" : "LaunchText@\(scale)x.png"))
        }
        try JSON.encode(textSetContents).write(to: textSet.appendingPathComponent("Contents.json"))
        try srgbBackground.pngData().write(to: backgroundSet.appendingPathComponent("LaunchBackground.png"))
        try JSON.encode(AssetCatalogContents(images: [AssetCatalogContents.Image(filename: "LaunchBackground.png", idiom: "universal")]))
            .write(to: backgroundSet.appendingPathComponent("Contents.json"))

        // `workers` screen sizes at a time (the builder gives the second core
        // once the tiling is done): each PNG's deflate runs on one core, and
        // more at once would cost some 25 MB each of the memory budget. A
        // square background (the usual kind, as it must fill both
        // orientations) covers a screen and its rotation at one scale, so it
        // is resized once, to the longer side, and both are centre crops of
        // that: the same pixels as resizing for each screen alone, with half
        // the resizes (bench/results.md has what that saves). The resized
        // image is computed once into memory for both crops, their PNGs and
        // their previews; the background is opaque, so flattening only drops
        // the alpha band.
        let sizes = screens
        let texts = scaledText
        let failures = LockedArray<Error?>(repeating: nil, count: sizes.count)
        let square = srgbBackground.width == srgbBackground.height
        // Largest first, each to the worker with the least work so far, so
        // the workers end together (every other size left one worker 20% longer).
        var workPlan = Array(repeating: [Int](), count: workers)
        var load = Array(repeating: 0, count: workers)
        for index in sizes.indices.sorted(by: { sizes[$0].width * sizes[$0].height > sizes[$1].width * sizes[$1].height }) {
            let worker = load.indices.min { load[$0] < load[$1] }!
            workPlan[worker].append(index)
            load[worker] += sizes[index].width * sizes[index].height
        }
        let plan = workPlan
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in plan[worker] {
                let size = sizes[index]
                do {
                    let side = max(size.width, size.height)
                    let shared = square ? try srgbBackground.resized(width: side, height: side).inMemory() : nil
                    for (width, height) in [(size.width, size.height), (size.height, size.width)] {
                        let cover = try shared.map {
                            try $0.cropped(left: (side - width) / 2, top: (side - height) / 2, width: width, height: height)
                        } ?? srgbBackground.resized(width: width, height: height, crop: true).inMemory()
                        let name = "\(width)x\(height).png"
                        try cover.pngData(compression: 3).write(to: folder.appendingPathComponent("screens/\(name)"))
                        let preview = try cover.composited(centred: texts[size.scale]!).flattened(red: 0, green: 0, blue: 0)
                        try preview.pngData(compression: 3).write(to: folder.appendingPathComponent("preview/\(name)"))
                    }
                } catch {
                    failures[index] = error
                }
            }
        }
        if let failure = failures.values.compactMap({ $0 }).first { throw failure }
    }
}
