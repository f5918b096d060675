import MCPackBag
import MCPackInputs
import FileIO
import Foundation
import MCPackSchema
import Imaging
import Mustache

/// The pages a client opens: `drift --html` and `diff --html`, rendered
/// from Templates/html with the pictures inlined, so the page is one file.
package enum HTMLReports {
    /// Renders Templates/html/<name>.mustache with `content`; the page's
    /// values are looked up in `content`, the style beside it.
    static func render<Content>(_ name: String, _ content: Content) throws -> Data {
        let set = try TemplateSet.load("html")
        let style = String(decoding: set.render([String: String]()).first { $0.path == "style.css" }?.data ?? Data(), as: UTF8.self)
        guard let template = set.templates.first(where: { $0.path == name }) else {
            throw FileError(path: "Templates/html/\(name).mustache", message: "template not found")
        }
        // Every template of the folder is a partial the others may use
        // (`{{> pair}}`, the before-and-after both pages show alike).
        var library = MustacheLibrary()
        for other in set.templates {
            library.register(other.template, named: other.path.hasSuffix(".html") ? String(other.path.dropLast(5)) : other.path)
        }
        return Data(template.template.render(Flattened(style: style, content: content), library: library).utf8)
    }

    /// A page's values and the style, one context: a mustache name is
    /// looked up in the content first, then is the style.
    struct Flattened<Content>: MustacheParent {
        var style: String
        var content: Content

        func child(named name: String) -> Any? {
            name == "style" ? style : Mirror(reflecting: content).children.first { $0.label == name }?.value
        }
    }

    static func dataURI(_ png: Data) -> String { "data:image/png;base64," + png.base64EncodedString() }

    static func preview(_ image: Image?) -> String? {
        (try? image?.previewPNG()).map(dataURI)
    }

    struct DriftPage {
        struct Pair {
            var status: String
            var asset: String
            var copy: String
            var detail: String
            var pair: PairView
        }

        struct Item {
            var status: String
            var copy: String
            var asset: String
            var detail: String
        }

        var title: String
        var summary: String
        var pairs: [Pair]
        var items: [Item]
    }

    /// Drifted and same-picture pairs side by side with where they differ.
    package static func drift(_ report: DriftReport, configPath: String) throws -> Data {
        let project = try Project.load(configPath: configPath)
        var pairs: [DriftPage.Pair] = []
        for item in report.items where item.status == .drifted || item.status == .samePicture {
            guard let asset = item.asset, let copy = item.copy,
                  Drift.imageExtensions.contains((asset as NSString).pathExtension.lowercased()),
                  let a = try? Image(contentsOf: project.url(asset).path),
                  let b = try? Image(contentsOf: project.url(copy).path) else { continue }
            pairs.append(DriftPage.Pair(status: item.status.rawValue, asset: asset, copy: copy, detail: item.detail ?? "",
                                        pair: PairView(label: copy, old: a, new: b, oldCaption: "asset", newCaption: "copy")))
        }
        let drifted = report.items.filter(\.isDrift).count
        return try render("drift.html", DriftPage(
            title: project.config.title,
            summary: drifted == 0 ? "No drift in \(report.items.count) files" : "\(drifted) of \(report.items.count) files not in sync",
            pairs: pairs,
            items: report.items.map { DriftPage.Item(status: $0.status.rawValue, copy: $0.copy ?? "", asset: $0.asset ?? "", detail: $0.detail ?? "") }))
    }

    /// One picture before and after (or an asset and its copy), with their
    /// sizes and, when the sizes match, where they differ: the one way both
    /// pages show a pair (Templates/html/pair.html.mustache).
    struct PairView {
        /// What the pair shows; with the captions, the pictures' accessible names.
        var label: String
        var oldCaption: String
        var oldImage: String?
        var oldSize: String?
        var newCaption: String
        var newImage: String?
        var newSize: String?
        var differenceImage: String?

        init(label: String, old: Image?, new: Image?, oldCaption: String = "before", newCaption: String = "after", photo: Int? = nil) {
            func shown(_ image: Image?) -> String? {
                guard let image else { return nil }
                if let photo { return (try? image.previewJPEG(side: photo)).map { "data:image/jpeg;base64," + $0.base64EncodedString() } }
                return preview(image)
            }
            self.label = label
            self.oldCaption = oldCaption
            self.newCaption = newCaption
            oldImage = shown(old)
            newImage = shown(new)
            oldSize = old.map { "\($0.width) x \($0.height)" }
            newSize = new.map { "\($0.width) x \($0.height)" }
            if let old, let new, old.width == new.width, old.height == new.height {
                differenceImage = shown(try? old.differenceImage(to: new))
            }
        }
    }

    struct DiffPage {
        struct ClauseRow {
            var clause: String
            var field: String
            var kind: String
            /// The change, escaped, with <del> and <ins> around what changed.
            var html: String
        }

        struct OtherRow {
            var component: String
            var kind: String
            var subject: String
            var old: String
            var new: String
            var detail: String
        }

        var old: String
        var new: String
        var summary: String
        /// None or one: a mustache section over an optional does not open it.
        var document: [DocumentView]
        var hasClauses: Bool
        var clauses: [ClauseRow]
        var overlays: [OverlayView]
        var hasImages: Bool
        var images: [PairView]
        var hasOthers: Bool
        var others: [OtherRow]
    }

    /// Clause text diffs highlighted, the document's visible changes mapped,
    /// moved overlays drawn, changed pictures before and after.
    package static func diff(_ report: DiffReport, old: String, new: String) throws -> Data {
        let paths = Set(report.changes.compactMap(\.path).filter(isShownPicture))
        return try diff(report, oldFiles: BagFiles.read(paths, of: old), newFiles: BagFiles.read(paths, of: new))
    }

    /// Pictures the page shows before and after, as each input says.
    static func isShownPicture(_ path: String) -> Bool {
        Inputs.owner(of: path)?.showsOnDiffPage(path) == true
    }

    /// Whether the input that made `change` lists its changes as text diffs.
    static func isTextRow(_ change: Change) -> Bool {
        Inputs.named(change.component)?.diffPageRows == .texts
    }

    /// The page, with the changed pictures' bytes from each version.
    static func diff(_ report: DiffReport, oldFiles before: [String: Data], newFiles after: [String: Data]) throws -> Data {
        let imagePaths = report.changes.compactMap(\.path).filter(isShownPicture)
        let images = imagePaths.map { path in
            PairView(label: path, old: before[path].flatMap { try? Image(data: $0) }, new: after[path].flatMap { try? Image(data: $0) })
        }
        let clauses = report.changes.filter(isTextRow).map { change in
            let html: String
            if let words = change.words {
                html = words.map { segment in
                    switch segment.kind {
                    case .kept, .elided: return escape(segment.text)
                    case .removed: return "<del>\(escape(segment.text))</del>"
                    case .inserted: return "<ins>\(escape(segment.text))</ins>"
                    }
                }.joined(separator: " ")
            } else {
                html = [change.old.map { "<del>\(escape($0))</del>" }, change.new.map { "<ins>\(escape($0))</ins>" }]
                    .compactMap { $0 }.joined(separator: " ")
            }
            return DiffPage.ClauseRow(clause: change.clause ?? "", field: change.field ?? "", kind: change.kind, html: html)
        }
        let shownTiles = documentComparison(report) != nil
        let others = report.changes.filter { change in
            !isTextRow(change) && !imagePaths.contains(change.path ?? "") && !(shownTiles && change.tiles != nil)
        }.map { change in
            let subject = [change.category.map { "category \($0)" }, change.field, change.path].compactMap { $0 }.joined(separator: " ")
            return DiffPage.OtherRow(component: change.component, kind: change.kind, subject: subject.isEmpty ? change.kind : subject,
                                     old: change.old ?? "", new: change.new ?? "", detail: change.detail ?? "")
        }
        var document: [DocumentView] = []
        var overlays: [OverlayView] = []
        let moved = report.changes.contains { $0.rectangles != nil }
        if var tiles = documentComparison(report), !tiles.levels.isEmpty || moved {
            let view = try DocumentView(tiles: &tiles)
            // A moved overlay alone is drawn on the document, not mapped.
            document = tiles.levels.isEmpty ? [] : [view]
            overlays = OverlayView.views(report.changes, tiles: tiles, image: view.newImage)
        }
        // Archives by file name: the page reads the same wherever the two
        // were kept, and says nothing of the folders of the machine it was made on.
        return try render("diff.html", DiffPage(
            old: (report.old as NSString).lastPathComponent, new: (report.new as NSString).lastPathComponent, summary: report.summary, document: document,
            hasClauses: !clauses.isEmpty, clauses: clauses, overlays: overlays,
            hasImages: !images.isEmpty, images: images,
            hasOthers: !others.isEmpty, others: others))
    }

    /// Writes a page atomically where the user asked.
    package static func write(_ page: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try OutputFile.write(page, to: url)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
