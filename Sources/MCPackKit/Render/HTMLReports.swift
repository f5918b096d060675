import FileIO
import Foundation
import Imaging

/// The pages a client opens: `drift --html` and `diff --html`, rendered
/// from Templates/html with the pictures inlined, so the page is one file.
public enum HTMLReports {
    static func render(_ name: String, _ context: [String: Any]) throws -> Data {
        let set = try TemplateSet.load("html")
        var context = context
        context["style"] = String(decoding: set.render([:]).first { $0.path == "style.css" }?.data ?? Data(), as: UTF8.self)
        guard let template = set.templates.first(where: { $0.path == name }) else {
            throw FileError(path: "Templates/html/\(name).mustache", message: "template not found")
        }
        return Data(template.template.render(context).utf8)
    }

    static func dataURI(_ png: Data) -> String { "data:image/png;base64," + png.base64EncodedString() }

    static func preview(_ image: Image?) -> String? {
        (try? image?.previewPNG()).map(dataURI)
    }

    /// Drifted and same-picture pairs side by side with where they differ.
    public static func drift(_ report: DriftReport, configPath: String) throws -> Data {
        let project = try Project.load(configPath: configPath)
        var pairs: [[String: Any]] = []
        for item in report.items where item.status == .drifted || item.status == .samePicture {
            guard let asset = item.asset, let copy = item.copy,
                  Drift.imageExtensions.contains((asset as NSString).pathExtension.lowercased()),
                  let a = try? Image(contentsOf: project.url(asset).path),
                  let b = try? Image(contentsOf: project.url(copy).path) else { continue }
            var pair: [String: Any] = ["status": item.status.rawValue, "asset": asset, "copy": copy, "detail": item.detail ?? ""]
            pair["assetImage"] = preview(a) ?? ""
            pair["copyImage"] = preview(b) ?? ""
            if a.width == b.width && a.height == b.height, let difference = preview(try? a.differenceImage(to: b)) {
                pair["differenceImage"] = difference
            }
            pairs.append(pair)
        }
        let drifted = report.items.filter(\.isDrift).count
        return try render("drift.html", [
            "title": project.config.title,
            "summary": drifted == 0 ? "No drift in \(report.items.count) files" : "\(drifted) of \(report.items.count) files not in sync",
            "pairs": pairs,
            "items": report.items.map { ["status": $0.status.rawValue, "copy": $0.copy ?? "", "asset": $0.asset ?? "", "detail": $0.detail ?? ""] },
        ])
    }

    /// Clause text diffs highlighted; changed icons and launch previews
    /// before and after.
    public static func diff(_ report: DiffReport, old: String, new: String) throws -> Data {
        let imagePaths = report.changes.compactMap(\.path).filter {
            ($0.hasPrefix("data/icons/") || $0.hasPrefix("data/launch/preview/") || $0.hasPrefix("data/categories/")) && $0.hasSuffix(".png")
        }
        let before = try BagSnapshot.files(Set(imagePaths), of: old)
        let after = try BagSnapshot.files(Set(imagePaths), of: new)
        let images: [[String: Any]] = imagePaths.map { path in
            [
                "path": path,
                "oldImage": before[path].flatMap { preview(try? Image(data: $0)) } as Any,
                "newImage": after[path].flatMap { preview(try? Image(data: $0)) } as Any,
            ]
        }
        let clauses: [[String: Any]] = report.changes.filter { $0.component == "clauses" }.map { change in
            var html: String
            if let detail = change.detail {
                html = escape(detail)
                    .replacingOccurrences(of: "[-", with: "<del>").replacingOccurrences(of: "-]", with: "</del>")
                    .replacingOccurrences(of: "{+", with: "<ins>").replacingOccurrences(of: "+}", with: "</ins>")
            } else {
                html = [change.old.map { "<del>\(escape($0))</del>" }, change.new.map { "<ins>\(escape($0))</ins>" }]
                    .compactMap { $0 }.joined(separator: " ")
            }
            return ["clause": change.clause ?? "", "field": change.field ?? "", "kind": change.kind, "html": html]
        }
        let others: [[String: Any]] = report.changes.filter { $0.component != "clauses" && !imagePaths.contains($0.path ?? "") }.map { change in
            let subject = [change.category.map { "category \($0)" }, change.field, change.path].compactMap { $0 }.joined(separator: " ")
            return ["component": change.component, "kind": change.kind, "subject": subject.isEmpty ? change.kind : subject,
                    "old": change.old ?? "", "new": change.new ?? "", "detail": change.detail ?? ""]
        }
        return try render("diff.html", [
            "old": report.old, "new": report.new, "summary": report.summary,
            "hasClauses": !clauses.isEmpty, "clauses": clauses,
            "hasImages": !images.isEmpty, "images": images,
            "hasOthers": !others.isEmpty, "others": others,
        ])
    }

    /// Writes a page atomically where the user asked.
    public static func write(_ page: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try OutputFile.write(page, to: url)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
