import Foundation
import Imaging

/// The app icon in every size its idioms need, made from the 1024 px master
/// with lanczos3, as data/icons/AppIcon.appiconset with a Contents.json
/// Xcode reads.
enum IconsInput: BundleInput {
    static let masterSide = 1024

    static func gather(_ context: GatherContext) -> Component? {
        guard let settings = context.project.config.icon else { return nil }
        guard let (data, source) = context.read(settings.master) else { return nil }
        if let problem = ImageFileCheck.problem(in: data) {
            context.problem(settings.master, problem)
            return nil
        }
        var image: Image
        do {
            image = try Image(data: data)
        } catch {
            context.problem(settings.master, "not a readable image (\(error)); the icon master must be a 1024 x 1024 PNG")
            return nil
        }
        guard image.format == "png" else {
            context.problem(settings.master, "is \(image.format ?? "not an image") data, not PNG; the icon master must be a 1024 x 1024 PNG")
            return nil
        }
        guard image.width == image.height else {
            context.problem(settings.master, "is \(image.width) x \(image.height) px, not square; the icon master must be 1024 x 1024 (icons are never stretched)")
            return nil
        }
        guard image.width == masterSide else {
            context.problem(settings.master, "is \(image.width) x \(image.height) px; the icon master must be exactly 1024 x 1024")
            return nil
        }
        if image.hasAlpha {
            guard let background = settings.background else {
                context.problem(settings.master, "has an alpha channel; the App Store rejects an icon with transparency (ITMS-90717). Remove it, or set [icon] background = \"#RRGGBB\" in \(context.project.configDisplayPath) to flatten it onto that colour")
                return nil
            }
            let (r, g, b) = rgb(background)
            guard let flat = try? image.flattened(red: r, green: g, blue: b) else {
                context.problem(settings.master, "cannot flatten onto \(background)")
                return nil
            }
            image = flat
        }
        guard context.making else { return Component(name: "icons", sources: [source]) }

        let slots = IconSlot.slots(for: settings.idioms)
        let contents: JSON = [
            "images": .array(slots.map { slot in
                ["filename": .string(slot.filename), "idiom": .string(slot.idiom),
                 "scale": .string("\(slot.scale)x"), "size": .string("\(slot.points)x\(slot.points)")]
            }),
            "info": ["author": "mcpack", "version": 1],
        ]
        let key = WorkCache.key([source.sha256, settings.idioms.joined(separator: ","), settings.background ?? "-"])
        let entry: WorkCache.Entry
        do {
            entry = try WorkCache(project: context.project, kind: "icons").entry(key, damage: { context.report(.note($0)) }) { folder in
                let set = folder.appendingPathComponent("AppIcon.appiconset")
                try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
                let srgb = try image.srgb()
                var written = Set<String>()
                for slot in slots where written.insert(slot.filename).inserted {
                    let sized = slot.pixels == masterSide ? srgb : try srgb.resized(width: slot.pixels, height: slot.pixels)
                    try sized.pngData(compression: 9).write(to: set.appendingPathComponent(slot.filename))
                }
                try JSON.encode(contents).write(to: set.appendingPathComponent("Contents.json"))
            }
        } catch {
            context.problem(settings.master, "cannot make the icon sizes: \(error)")
            return nil
        }
        let payload = entry.payload(under: "icons/")
        return Component(
            name: "icons",
            payload: payload,
            sources: [source],
            record: [
                "master": .string(settings.master),
                "sha256": .string(source.sha256),
                "idioms": .array(settings.idioms.map(JSON.string)),
                "flattened_onto": settings.background.map(JSON.string) ?? .null,
                "icons": .array(slots.map { ["idiom": .string($0.idiom), "file": .string($0.filename), "pixels": .int($0.pixels)] }),
            ])
    }

    static func rgb(_ hex: String) -> (Double, Double, Double) {
        let value = Int(hex.dropFirst(), radix: 16) ?? 0
        return (Double((value >> 16) & 0xFF), Double((value >> 8) & 0xFF), Double(value & 0xFF))
    }
}
