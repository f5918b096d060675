import Foundation
import Imaging

/// The master scan. Only its header is read here (a 34,000 px scan opens in
/// milliseconds); its size bounds the clause overlays.
enum DocumentInput: BundleInput {
    static let formats = ["tiff", "png", "jpeg"]

    static func gather(_ context: GatherContext) -> Component? {
        let settings = context.project.config.document
        let url = context.project.url(settings.image)
        let image: Image
        do {
            image = try Image(contentsOf: url.path, sequential: true)
        } catch {
            context.problem(settings.image, "not an image mcpack can read (\(error)); the master must be TIFF, PNG or JPEG")
            return nil
        }
        guard let format = image.format, formats.contains(format) else {
            context.problem(settings.image, "is \(image.format ?? "an unknown format"); the master must be TIFF, PNG or JPEG")
            return nil
        }
        context.master = (image.width, image.height)
        let source: SourceFile
        do {
            let (sha, bytes) = try SHA256.hexOfFile(url)
            source = SourceFile(path: settings.image, sha256: sha, bytes: bytes)
        } catch {
            context.problem(settings.image, "cannot read the file")
            return nil
        }
        return Component(
            name: "document",
            sources: [source],
            record: [
                "image": .string(settings.image),
                "sha256": .string(source.sha256),
                "format": .string(format),
                "width": .int(image.width),
                "height": .int(image.height),
            ])
    }
}
