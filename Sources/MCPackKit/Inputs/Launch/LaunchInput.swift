import Foundation
import Imaging

/// The two-layer launch screen: a background that fills the screen and a
/// text layer kept at its natural size, centred. Makes, under data/launch/:
/// the background cropped to cover each iPad screen (portrait and
/// landscape), the text layer at @1x/@2x/@3x (the file given is the @3x),
/// both in Launch.xcassets, a LaunchScreen.storyboard from Templates/launch,
/// and a composited preview per screen so a person can see the result.
enum LaunchInput: BundleInput {
    /// iPad screens in pixels, portrait, with their scale.
    static let screens: [(width: Int, height: Int, scale: Int)] = [
        (768, 1024, 1), (1536, 2048, 2), (1620, 2160, 2), (1640, 2360, 2),
        (1668, 2224, 2), (1668, 2388, 2), (2048, 2732, 2),
    ]

    /// Portrait then landscape, each named `<w>x<h>`.
    static var allScreens: [(width: Int, height: Int, scale: Int)] {
        screens + screens.map { ($0.height, $0.width, $0.scale) }
    }

    static func gather(_ context: GatherContext) -> Component? {
        guard let settings = context.project.config.launch else { return nil }
        let background = layer(settings.background, context: context, needsAlpha: false)
        let text = layer(settings.text, context: context, needsAlpha: true)
        guard let background, let text else { return nil }
        let sources = [background.source, text.source]
        guard context.making else { return Component(name: "launch", sources: sources) }

        let textSize = { (scale: Int) in
            (max(1, (text.image.width * scale + 1) / 3), max(1, (text.image.height * scale + 1) / 3))
        }
        let key = WorkCache.key([background.source.sha256, text.source.sha256, "launch-1"])
        let entry: WorkCache.Entry
        do {
            entry = try WorkCache(project: context.project, kind: "launch").entry(key, damage: { context.report(.note($0)) }) { folder in
                try make(in: folder, background: background.image, text: text.image, textSize: textSize)
            }
        } catch {
            context.problem(settings.background, "cannot make the launch layers: \(error)")
            return nil
        }
        var payload = entry.payload(under: "launch/")
        do {
            let (width, height) = textSize(1)
            let storyboard = try TemplateSet.load("launch").render([
                "title": context.project.config.title,
                "textWidth": width, "textHeight": height,
                "textX": (1024 - width) / 2, "textY": (1366 - height) / 2,
                "backgroundWidth": background.image.width, "backgroundHeight": background.image.height,
            ])
            payload += storyboard.map { PayloadFile(path: "launch/\($0.path)", bytes: $0.data) }
        } catch {
            context.problem(settings.background, "cannot render the launch storyboard: \(error)")
            return nil
        }
        return Component(
            name: "launch",
            payload: payload,
            sources: sources,
            record: [
                "background": .string(settings.background),
                "background_sha256": .string(background.source.sha256),
                "text": .string(settings.text),
                "text_sha256": .string(text.source.sha256),
                "text_points": [.int(textSize(1).0), .int(textSize(1).1)],
                "screens": .array(allScreens.map { .string("\($0.width)x\($0.height)") }),
            ],
            cached: entry.reused)
    }

    private static func layer(_ path: String, context: GatherContext, needsAlpha: Bool) -> (image: Image, source: SourceFile)? {
        guard let (data, source) = context.read(path) else { return nil }
        if let problem = ImageFileCheck.problem(in: data) {
            context.problem(path, problem)
            return nil
        }
        let image: Image
        do {
            image = try Image(data: data)
            try image.decodeAll()
        } catch {
            context.problem(path, "not a readable image (\(error)); launch layers are PNG or JPEG")
            return nil
        }
        if needsAlpha && !image.hasAlpha {
            context.problem(path, "has no alpha channel; the text layer is drawn over the background and needs a transparent background")
            return nil
        }
        if needsAlpha && image.format != "png" {
            context.problem(path, "is \(image.format ?? "unknown") data; the text layer must be a PNG with transparency")
            return nil
        }
        return (image, source)
    }

    private static func make(in folder: URL, background: Image, text: Image, textSize: (Int) -> (Int, Int)) throws {
        let catalog = folder.appendingPathComponent("Launch.xcassets")
        let textSet = catalog.appendingPathComponent("LaunchText.imageset")
        let backgroundSet = catalog.appendingPathComponent("LaunchBackground.imageset")
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
        try JSON.encode(JSON.object([
            "images": .array((1...3).map { scale in
                ["filename": .string(scale == 1 ? "LaunchText.png" : "LaunchText@\(scale)x.png"), "idiom": "universal", "scale": .string("\(scale)x")]
            }),
            "info": ["author": "mcpack", "version": 1],
        ])).write(to: textSet.appendingPathComponent("Contents.json"))
        try srgbBackground.pngData().write(to: backgroundSet.appendingPathComponent("LaunchBackground.png"))
        try JSON.encode(JSON.object([
            "images": [["filename": "LaunchBackground.png", "idiom": "universal"]],
            "info": ["author": "mcpack", "version": 1],
        ])).write(to: backgroundSet.appendingPathComponent("Contents.json"))

        // Two screen sizes at a time: each PNG's deflate runs on one core,
        // and the tiling is done by now, so a second core is free; more at
        // once would cost some 25 MB each of the memory budget. A square
        // background (the usual kind, as it must fill both orientations)
        // covers a screen and its rotation at one scale, so it is resized
        // once, to the longer side, and both are centre crops of that: the
        // same pixels as resizing for each screen alone, with 7 resizes, not
        // 14 (2026-11-22: a rebuild making only the launch layers took
        // 3.4-4.1 s of CPU, not 4.8-5.8 s, and peaked 25 MB lower). The
        // resized image is computed once into memory for both crops, their
        // PNGs and their previews; the background is opaque, so flattening
        // only drops the alpha band.
        let sizes = screens
        let texts = scaledText
        let lanes = min(2, ProcessInfo.processInfo.activeProcessorCount)
        let failures = LockedArray<Error?>(repeating: nil, count: sizes.count)
        let square = srgbBackground.width == srgbBackground.height
        // Largest first, each to the lane with the least work so far, so
        // the lanes end together (every other size left one lane 20% longer).
        var lanePlan = Array(repeating: [Int](), count: lanes)
        var load = Array(repeating: 0, count: lanes)
        for index in sizes.indices.sorted(by: { sizes[$0].width * sizes[$0].height > sizes[$1].width * sizes[$1].height }) {
            let lane = load.indices.min { load[$0] < load[$1] }!
            lanePlan[lane].append(index)
            load[lane] += sizes[index].width * sizes[index].height
        }
        let plan = lanePlan
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            for index in plan[lane] {
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
