import MCPackInputs
import FileIO
import Foundation
import Hashing
import Imaging

/// One asset and its copy in the app folder, or a copy with no asset.
package struct DriftItem: Sendable, Encodable, Equatable {
    package enum Status: String, Sendable, Encodable {
        /// The same bytes.
        case inSync = "in-sync"
        /// Other bytes, the same decoded pixels (exported again, optimised).
        case samePicture = "same-picture"
        /// The content differs.
        case drifted
        /// No copy where a [[copies]] pair says one belongs.
        case missing
        /// A file in a copies folder with no asset behind it.
        case orphan
    }

    /// Project-relative paths.
    package var asset: String?
    package var copy: String?
    package var status: Status
    /// Which side was modified later: "asset", "copy" or "same".
    package var newer: String?
    /// For images that differ: the fraction of pixels changed (0...1) and
    /// the mean difference per band (0...255).
    package var changedFraction: Double?
    package var meanDifference: Double?
    package var detail: String?
    /// What --fix did: "updated", "created", "kept", "moved-to-backup".
    package var action: String?

    enum CodingKeys: String, CodingKey {
        case asset, copy, status, newer, detail, action
        case changedFraction = "changed_fraction"
        case meanDifference = "mean_difference"
    }

    /// Drift is what a handover must not carry: drifted, missing, orphan.
    package var isDrift: Bool { status == .drifted || status == .missing || status == .orphan }
}

package struct DriftReport: Sendable, Encodable {
    package var items: [DriftItem]
    /// Where --fix put the files it replaced or moved, if anywhere.
    package var backup: String?

    package var drift: Bool { items.contains { $0.isDrift && $0.action != "updated" && $0.action != "created" && $0.action != "moved-to-backup" } }

    enum CodingKeys: String, CodingKey { case items, backup, drift }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encodeIfPresent(backup, forKey: .backup)
        try container.encode(drift, forKey: .drift)
    }
}

/// `mcpack drift`: the app folder's copies against the assets they came
/// from. Assets are the source of truth; nothing is written unless asked.
package enum Drift {
    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "tif", "tiff", "webp", "gif"]

    private struct FileInfo {
        var path: String
        var sha256: String
        var modified: Date
    }

    package static func check(configPath: String) throws -> DriftReport {
        let project = try Project.load(configPath: configPath)
        return try check(project)
    }

    static func check(_ project: Project) throws -> DriftReport {
        var items: [DriftItem] = []
        var claimed = Set<String>()
        var assetsByHash: [String: String] = [:]
        var assetsByName: [String: String] = [:]
        var appFolders: [String] = []

        for pair in project.config.copies {
            if !appFolders.contains(pair.app) { appFolders.append(pair.app) }
            let assetURL = project.url(pair.assets)
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: assetURL.path, isDirectory: &isFolder)
            let assets: [(asset: String, copy: String)] = isFolder.boolValue
                ? try files(under: pair.assets, in: project).map { ("\(pair.assets)/\($0)", "\(pair.app)/\($0)") }
                : [(pair.assets, "\(pair.app)/\((pair.assets as NSString).lastPathComponent)")]
            for (asset, copy) in assets {
                let assetInfo = try info(asset, project)
                assetsByHash[assetInfo.sha256] = assetsByHash[assetInfo.sha256] ?? asset
                assetsByName[(asset as NSString).lastPathComponent] = assetsByName[(asset as NSString).lastPathComponent] ?? asset
                if FileManager.default.fileExists(atPath: project.url(copy).path) {
                    claimed.insert(copy)
                    items.append(try compare(asset: assetInfo, copy: try info(copy, project), project))
                } else {
                    items.append(DriftItem(asset: asset, copy: copy, status: .missing, detail: "no copy at \(copy)"))
                }
            }
        }

        // Copies no pair names: same bytes or same name as an asset, under
        // another name or in a nested folder; anything else is an orphan.
        for folder in appFolders {
            for relative in try files(under: folder, in: project) {
                let copy = "\(folder)/\(relative)"
                guard !claimed.contains(copy) else { continue }
                claimed.insert(copy)
                let copyInfo = try info(copy, project)
                if let asset = assetsByHash[copyInfo.sha256] {
                    var item = DriftItem(asset: asset, copy: copy, status: .inSync, newer: nil, detail: "a copy under another name or folder")
                    if let index = items.firstIndex(where: { $0.asset == asset && $0.status == .missing }) {
                        item.detail = "a copy under another name or folder than the pair expects (\(items[index].copy ?? ""))"
                        items.remove(at: index)
                    }
                    items.append(item)
                } else if let asset = assetsByName[(copy as NSString).lastPathComponent] {
                    var item = try compare(asset: try info(asset, project), copy: copyInfo, project)
                    item.detail = [item.detail, "a copy in another folder"].compactMap { $0 }.joined(separator: "; ")
                    items.append(item)
                } else {
                    items.append(DriftItem(asset: nil, copy: copy, status: .orphan, detail: "no asset behind this file"))
                }
            }
        }
        return DriftReport(items: items)
    }

    /// Brings drifted and missing copies up to date from their assets:
    /// each copy written atomically, each replaced file kept in a backup
    /// folder first. A copy newer than its asset is left alone unless
    /// `preferAssets`. Orphans move to the backup only with `removeOrphans`.
    package static func fix(configPath: String, preferAssets: Bool, removeOrphans: Bool, now: Date = Date()) throws -> DriftReport {
        let project = try Project.load(configPath: configPath)
        var report = try check(project)
        let stamp: String = {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyyMMdd-HHmmss"
            return formatter.string(from: now)
        }()
        let backup = ".mcpack-drift-backup/\(stamp)"
        var usedBackup = false

        func keep(_ relative: String) throws {
            let target = project.url("\(backup)/\(relative)")
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: project.url(relative), to: target)
            usedBackup = true
        }

        for index in report.items.indices {
            let item = report.items[index]
            switch item.status {
            case .drifted:
                guard let asset = item.asset, let copy = item.copy else { continue }
                if item.newer == "copy" && !preferAssets {
                    report.items[index].action = "kept"
                    report.items[index].detail = [item.detail, "the copy is newer than its asset; --prefer assets replaces it"].compactMap { $0 }.joined(separator: "; ")
                    continue
                }
                try keep(copy)
                try replace(copy, with: asset, project)
                report.items[index].action = "updated"
            case .missing:
                guard let asset = item.asset, let copy = item.copy else { continue }
                try replace(copy, with: asset, project)
                report.items[index].action = "created"
            case .orphan:
                guard removeOrphans, let copy = item.copy else { continue }
                try keep(copy)
                try FileManager.default.removeItem(at: project.url(copy))
                report.items[index].action = "moved-to-backup"
            case .inSync, .samePicture:
                continue
            }
        }
        report.backup = usedBackup ? project.display(backup) : nil
        return report
    }

    /// Writes the asset's bytes over the copy: a temporary file beside it,
    /// then a rename, so the copy is never half-written.
    private static func replace(_ copy: String, with asset: String, _ project: Project) throws {
        guard let data = FileManager.default.contents(atPath: project.url(asset).path) else {
            throw FileError(path: project.display(asset), message: "cannot read")
        }
        let target = project.url(copy)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try OutputFile.write(data, to: target)
    }

    private static func compare(asset: FileInfo, copy: FileInfo, _ project: Project) throws -> DriftItem {
        let newer = asset.modified == copy.modified ? "same" : (asset.modified > copy.modified ? "asset" : "copy")
        if asset.sha256 == copy.sha256 {
            return DriftItem(asset: asset.path, copy: copy.path, status: .inSync)
        }
        var item = DriftItem(asset: asset.path, copy: copy.path, status: .drifted, newer: newer)
        let ext = (asset.path as NSString).pathExtension.lowercased()
        // Compared as a person sees them, upright in sRGB: a copy saved
        // again with another colour profile is the same picture.
        if imageExtensions.contains(ext),
           let fileA = try? Image(contentsOf: project.url(asset.path).path),
           let fileB = try? Image(contentsOf: project.url(copy.path).path),
           case let (a, b) = (PictureImport.displayed(fileA), PictureImport.displayed(fileB)),
           let difference = try? a.pixelDifference(to: b) {
            if difference.identical {
                return DriftItem(asset: asset.path, copy: copy.path, status: .samePicture, newer: newer,
                                 changedFraction: 0, meanDifference: 0, detail: "other bytes, the same pixels")
            }
            let profiles = (fileA.pictureFacts.profile?.description, fileB.pictureFacts.profile?.description)
            if difference.sameSize && profiles.0 != profiles.1 && difference.largestDifference <= PictureImport.conversionRounding {
                return DriftItem(asset: asset.path, copy: copy.path, status: .samePicture, newer: newer,
                                 changedFraction: difference.changedFraction, meanDifference: difference.meanDifference,
                                 detail: "other bytes, the same picture in another colour profile (\(profiles.0 ?? "none") and \(profiles.1 ?? "none"))")
            }
            if difference.sameSize {
                item.changedFraction = difference.changedFraction
                item.meanDifference = difference.meanDifference
                item.detail = String(format: "%.1f%% of pixels changed, mean difference %.1f", difference.changedFraction * 100, difference.meanDifference)
            } else {
                item.detail = "\(a.width) x \(a.height) px asset, \(b.width) x \(b.height) px copy"
            }
        } else {
            item.detail = "content differs"
        }
        item.detail! += "; the \(newer == "same" ? "two were modified at the same time" : "\(newer) is newer")"
        return item
    }

    private static func info(_ relative: String, _ project: Project) throws -> FileInfo {
        let url = project.url(relative)
        let (sha, _) = try Digest.hexOfFile(url.path)
        let modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date ?? .distantPast
        return FileInfo(path: relative, sha256: sha, modified: modified)
    }

    /// Regular files under a project folder, relative to it, in byte order,
    /// without hidden files (.DS_Store and the like).
    private static func files(under folder: String, in project: Project) throws -> [String] {
        let root = project.url(folder)
        guard FileManager.default.fileExists(atPath: root.path) else { return [] }
        return try FileSystem.regularFiles(under: root).filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
    }
}
