import MCPackBag
import Foundation
import MCPackSchema
import Imaging

/// `[icon] composer`: an Icon Composer document (`AppIcon.icon`) taken as
/// it is, for Xcode 26 and iOS 26, beside the catalog (data/AppIcon.icon,
/// where an Xcode project keeps it next to Assets.xcassets). Its name must
/// be the app icon set's, `AppIcon`: Xcode 26 then uses the document on
/// iOS 26 and the set on earlier systems, and `CFBundleIconName` names
/// both. Its supported platforms must include iOS; every layer icon.json
/// names must be in its Assets/ folder; every picture layer goes through
/// the import every picture does.
package enum IconComposer {
    package struct Plan: Sendable {
        /// The document's folder in the project.
        package var folder: String
        /// Its files, relative to the folder, with the bytes to ship:
        /// icon.json as it is, pictures as they are or converted to sRGB.
        package var files: [(path: String, data: Data, source: SourceFile)]
        package var layers: [Record.Layer]
    }

    package struct Record: Codable, Sendable, Equatable {
        package struct Layer: Codable, Sendable, Equatable {
            /// Under the document's Assets/.
            package var image: String
            package var sha256: String
            /// What was done to a picture layer; absent for a vector (SVG)
            /// layer, which is shipped as it is.
            package var picture: PictureImport.Record?
        }

        package var document: String
        package var sha256: String
        package var layers: [Layer]
    }

    /// Its name in the bundle, as Xcode and CFBundleIconName read it.
    package static let bundleFolder = "\(AssetCatalog.appIconName).icon"

    package static func check(_ folder: String, env: CheckEnvironment) -> Plan? {
        let name = (folder as NSString).lastPathComponent
        guard name.hasSuffix(".icon") else {
            env.problem(folder, "is not an Icon Composer document: its name must end in .icon (Xcode 26 saves AppIcon.icon)")
            return nil
        }
        let base = String(name.dropLast(5))
        var ok = true
        if base != AssetCatalog.appIconName {
            env.problem(folder, "is named \(base); it must be \(AssetCatalog.appIconName).icon, the name of the app icon set it stands beside, so that CFBundleIconName = \(AssetCatalog.appIconName) names both (rename the document)")
            ok = false
        }
        let jsonPath = "\(folder)/icon.json"
        guard let (json, jsonSource) = env.read(jsonPath) else { return nil }
        let document: IconComposerDocument
        do {
            document = try JSONDecoder().decode(IconComposerDocument.self, from: json)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            env.problem(jsonPath, "not well-formed JSON; save the document again in Icon Composer")
            return nil
        } catch {
            env.problem(jsonPath, "not an Icon Composer document's icon.json: \(JSON.describe(error))")
            return nil
        }
        if let problem = document.notForIOS {
            env.problem(jsonPath, problem)
            ok = false
        }
        var files: [(path: String, data: Data, source: SourceFile)] = [("icon.json", json, jsonSource)]
        var layers: [Record.Layer] = []
        var seen = Set<String>()
        for (location, layer) in document.layers {
            guard let image = layer.imageName else { continue }
            let relative = "\(IconComposerDocument.assetsFolder)/\(image)"
            let path = "\(folder)/\(relative)"
            guard !image.contains("/"), !image.hasPrefix("."), FileManager.default.fileExists(atPath: env.project.url(path).path) else {
                env.problem(jsonPath, "\(location) (layer \"\(layer.name ?? "")\") names the picture \"\(image)\", which is not in \(folder)/\(IconComposerDocument.assetsFolder)/")
                ok = false
                continue
            }
            guard seen.insert(image).inserted else { continue }
            guard let (data, source) = env.read(path) else { ok = false; continue }
            if image.lowercased().hasSuffix(".svg") {
                guard String(decoding: data.prefix(512), as: UTF8.self).contains("<svg") else {
                    env.problem(path, "is not an SVG picture (no <svg element at its start)")
                    ok = false
                    continue
                }
                files.append((relative, data, source))
                layers.append(Record.Layer(image: image, sha256: source.sha256))
                continue
            }
            guard let (shipped, picture) = picture(data, path: path, env: env) else { ok = false; continue }
            files.append((relative, shipped, source))
            layers.append(Record.Layer(image: image, sha256: source.sha256, picture: picture))
        }
        if layers.isEmpty && ok {
            env.problem(jsonPath, "names no layer picture; an Icon Composer document needs at least one")
            ok = false
        }
        return ok ? Plan(folder: folder, files: files, layers: layers) : nil
    }

    /// A picture layer read and imported as every picture is: shipped as it
    /// is when already 8-bit sRGB and upright, else as a PNG converted.
    private static func picture(_ data: Data, path: String, env: CheckEnvironment) -> (Data, PictureImport.Record)? {
        guard let (image, checked) = PictureImport.png(data, path: path, env: env, expected: "Icon Composer layers are PNG or SVG") else { return nil }
        do {
            try image.decodeAll()
        } catch {
            env.problem(path, "damaged PNG: \(error)")
            return nil
        }
        do {
            let (converted, record) = try PictureImport.converted(image, checked)
            return (checked.unchanged ? data : try converted.pngData(), record)
        } catch {
            env.problem(path, "cannot be converted to sRGB: \(error)")
            return nil
        }
    }

    /// The document's files as payload, beside the catalog.
    package static func payload(_ plan: Plan) -> [PayloadFile] {
        plan.files.map { PayloadFile(path: "\(bundleFolder)/\($0.path)", bytes: $0.data) }
    }
}
