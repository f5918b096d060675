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
    /// values are looked up in `content`, the style beside it. `set`: the
    /// templates when the caller has loaded them already.
    static func render<Content>(_ name: String, _ content: Content, set: TemplateSet? = nil) throws -> Data {
        let set = try set ?? TemplateSet.load("html")
        let style = String(decoding: set.render([String: String]()).first { $0.path == "style.css" }?.data ?? Data(), as: UTF8.self)
        return Data(try set.render(page: name, Flattened(style: style, content: content)).utf8)
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

    struct DiffPage {
        /// An input's changes as text diffs, under its own heading.
        struct TextSection {
            var title: String
            /// The first column's heading.
            var column: String
            var rows: [TextRow]
        }

        struct TextRow {
            var subject: String
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
        /// The inputs' own sections (the document's map of what changed visibly), HTML.
        var sections: [String]
        var texts: [TextSection]
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
        if case .texts = Inputs.named(change.component)?.diffPageRows { return true }
        return false
    }

    /// Each text change, words marked.
    static func textRow(_ change: Change) -> DiffPage.TextRow {
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
        return DiffPage.TextRow(subject: change.clause ?? change.path ?? "", field: change.field ?? "", kind: change.kind, html: html)
    }

    /// The page, with the changed pictures' bytes from each version.
    static func diff(_ report: DiffReport, oldFiles before: [String: Data], newFiles after: [String: Data]) throws -> Data {
        let imagePaths = report.changes.compactMap(\.path).filter(isShownPicture)
        let images = imagePaths.map { path in
            PairView(label: path, old: before[path].flatMap { try? Image(data: $0) }, new: after[path].flatMap { try? Image(data: $0) })
        }
        var texts: [DiffPage.TextSection] = []
        for input in Inputs.all {
            guard case .texts(let title, let column) = input.diffPageRows else { continue }
            let rows = report.changes.filter { $0.component == input.component }.map(textRow)
            if !rows.isEmpty { texts.append(DiffPage.TextSection(title: title, column: column, rows: rows)) }
        }
        let others = report.changes.filter { change in
            !isTextRow(change) && !imagePaths.contains(change.path ?? "") && !report.closer.contains { $0.showsOnDiffPage(change) }
        }.map { change in
            let subject = [change.category.map { "category \($0)" }, change.field, change.path].compactMap { $0 }.joined(separator: " ")
            return DiffPage.OtherRow(component: change.component, kind: change.kind, subject: subject.isEmpty ? change.kind : subject,
                                     old: change.old ?? "", new: change.new ?? "", detail: change.detail ?? "")
        }
        let templates = try TemplateSet.load("html")
        let sections = try report.closer.compactMap { try $0.diffPage(report.changes, templates: templates) }
        // Archives by file name: the page reads the same wherever the two
        // were kept, and says nothing of the folders of the machine it was made on.
        return try render("diff.html", DiffPage(
            old: (report.old as NSString).lastPathComponent, new: (report.new as NSString).lastPathComponent, summary: report.summary, sections: sections,
            texts: texts,
            hasImages: !images.isEmpty, images: images,
            hasOthers: !others.isEmpty, others: others), set: templates)
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
