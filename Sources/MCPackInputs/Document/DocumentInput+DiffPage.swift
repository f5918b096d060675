import Foundation
import MCPackSchema
import Imaging

extension TileComparison {
    /// The document's changed tiles and moved overlays, each drawn on it,
    /// shown in its own section of the page; they are not rows of the
    /// table of other changes.
    package func showsOnDiffPage(_ change: Change) -> Bool { change.tiles != nil }

    /// Its section of the diff page (Templates/html/document.html): nil
    /// when no tile changed and no overlay moved.
    package func diffPage(_ changes: [Change], templates: TemplateSet) throws -> String? {
        let moved = changes.contains { $0.rectangles != nil }
        guard !levels.isEmpty || moved else { return nil }
        var tiles = self
        let view = try DocumentView(tiles: &tiles)
        let overlays = OverlayView.views(changes, tiles: tiles, image: view.newImage)
        // A moved overlay alone is drawn on the document, not mapped.
        return try templates.render(page: "document.html", Section(document: tiles.levels.isEmpty ? [] : [view],
                                                                   hasOverlays: !overlays.isEmpty, overlays: overlays))
    }

    struct Section {
        /// None or one: a mustache section over an optional does not open it.
        var document: [DocumentView]
        var hasOverlays: Bool
        var overlays: [OverlayView]
    }

    /// The document on the diff page: old and new side by side, the new one
    /// again with its visibly changed areas marked as links, and each area
    /// at full size before and after. Every picture is made from tiles, a
    /// low level's for the overview, the changed area's for the rest; the
    /// master is never held whole.
    struct DocumentView {
        struct Area {
            var id: String
            var label: String
            var left: String
            var top: String
            var width: String
            var height: String
        }

        struct Region {
            var id: String
            var title: String
            var pair: PairView
        }

        struct Level {
            var level: Int
            var size: String
            var changed: Int
            var visible: Int
        }

        var caption: String
        var oldImage: String
        var newImage: String
        var oldSize: String
        var newSize: String
        var oldLabel = "the document before, whole"
        var newLabel = "the document after, whole"
        var markedLabel = "the document after, its visibly changed areas marked"
        var hasAreas: Bool
        var areas: [Area]
        var regions: [Region]
        var moreRegions: String?
        var levels: [Level]
        var method = "Only tiles with other bytes are decoded. Each pair is compared in 8 x 8 px blocks: a tile changed visibly "
            + "when some block's mean moved by more than \(Int(TileComparison.threshold)) of 255 in a colour. Saving a JPEG again at "
            + "the same quality moves block means less than that; a retouch moves them more."

        /// At most this many areas are shown at full size, so the page stays a size a mail can carry.
        static let shownRegions = 12
        /// An area larger than this either way is shown from a lower level.
        static let regionSide = 1024

        init(tiles: inout TileComparison) throws {
            let overview = tiles.overviewLevel
            func whole(_ side: TileComparison.Side, _ level: Int) throws -> String {
                let size = side.geometry.size(ofLevel: level)
                let picture = try side.picture(level: level, rect: PixelRect(x: 0, y: 0, width: size.width, height: size.height))
                return "data:image/jpeg;base64," + (try picture.previewJPEG(side: TileComparison.overviewSide)).base64EncodedString()
            }
            oldImage = try whole(tiles.old, overview.old)
            newImage = try whole(tiles.new, overview.new)
            oldSize = "\(tiles.old.geometry.width) x \(tiles.old.geometry.height)"
            newSize = "\(tiles.new.geometry.width) x \(tiles.new.geometry.height)"

            let master = tiles.new.geometry
            func percent(_ value: Int, of total: Int) -> String { String(format: "%.3f%%", Double(value) * 100 / Double(max(total, 1))) }
            let regions = tiles.regions
            areas = regions.enumerated().map { index, region in
                Area(id: "area-\(index + 1)",
                     label: "changed area \(index + 1): \(region.width) x \(region.height) px at \(region.x), \(region.y)",
                     left: percent(region.x, of: master.width), top: percent(region.y, of: master.height),
                     width: percent(region.width, of: master.width), height: percent(region.height, of: master.height))
            }
            hasAreas = !areas.isEmpty

            // Each area with a margin, from the deepest level where it fits.
            let margin = 16
            let shown = regions.prefix(Self.shownRegions).map { region -> (level: Int, rect: PixelRect, scale: Int) in
                var rect = PixelRect(x: max(0, region.x - margin), y: max(0, region.y - margin), width: 0, height: 0)
                rect.width = min(master.width, region.x + region.width + margin) - rect.x
                rect.height = min(master.height, region.y + region.height + margin) - rect.y
                var shift = 0
                while max(rect.width, rect.height) >> shift > Self.regionSide { shift += 1 }
                let level = master.maxLevel - shift
                let size = master.size(ofLevel: level)
                let x = rect.x >> shift, y = rect.y >> shift
                let scaled = PixelRect(x: x, y: y, width: min(size.width - x, max(1, rect.width >> shift)), height: min(size.height - y, max(1, rect.height >> shift)))
                return (level, scaled, 1 << shift)
            }
            let needed = shown.flatMap { tiles.new.tiles(level: $0.level, covering: $0.rect) }
            try tiles.old.read(needed)
            try tiles.new.read(needed)
            var views: [Region] = []
            for (index, (level, rect, scale)) in shown.enumerated() {
                let region = regions[index]
                let label = "changed area \(index + 1)"
                let at = scale == 1 ? "at full size" : "at 1/\(scale) size"
                let pair = PairView(label: "\(label), \(at)", old: try tiles.old.picture(level: level, rect: rect),
                                    new: try tiles.new.picture(level: level, rect: rect), photo: Self.regionSide)
                views.append(Region(id: "area-\(index + 1)",
                                    title: "Area \(index + 1) \(at): \(region.width) x \(region.height) px at \(region.x), \(region.y)",
                                    pair: pair))
            }
            self.regions = views
            moreRegions = regions.count > Self.shownRegions ? "\(regions.count - Self.shownRegions) more areas are marked above but not shown here." : nil

            levels = tiles.levels.keys.sorted().map { level in
                let size = master.size(ofLevel: level)
                let counts = tiles.levels[level]!
                return Level(level: level, size: "\(size.width) x \(size.height)", changed: counts.changed.count, visible: counts.visible.count)
            }
            let changed = tiles.levels.values.reduce(0) { $0 + $1.changed.count }
            let visible = tiles.levels.values.reduce(0) { $0 + $1.visible.count }
            if !tiles.sameGeometry {
                caption = "The master's size or tiling changed (\(oldSize) to \(newSize) px): the two pyramids are not compared tile by tile."
            } else if changed == 0 {
                caption = "No tile changed."
            } else {
                let areasText = regions.isEmpty ? "No area changed visibly at full size" : "\(DiffWords.plural(regions.count, "area")) changed visibly"
                caption = "\(areasText); \(visible) of \(DiffWords.plural(changed, "tile")) with other bytes look different, "
                    + "the other \(changed - visible) were only encoded again."
            }
        }
    }

    /// A clause whose overlays changed, drawn on the document: the old
    /// rectangles dashed, the new solid.
    struct OverlayView {
        struct Rectangle {
            var kind: String
            var pixels: String
            var left: String
            var top: String
            var width: String
            var height: String
        }

        var clause: String
        var label: String
        var image: String
        var rectangles: [Rectangle]

        static func views(_ changes: [Change], tiles: TileComparison, image: String) -> [OverlayView] {
            changes.compactMap { change -> OverlayView? in
                guard let moved = change.rectangles, let clause = change.clause else { return nil }
                func drawn(_ rects: [PixelRect], _ kind: String, _ master: PyramidGeometry) -> [Rectangle] {
                    rects.map { r in
                        func percent(_ value: Int, _ total: Int) -> String { String(format: "%.3f%%", Double(value) * 100 / Double(max(total, 1))) }
                        return Rectangle(kind: kind, pixels: r.values.map(String.init).joined(separator: ", "),
                                         left: percent(r.x, master.width), top: percent(r.y, master.height),
                                         width: percent(r.width, master.width), height: percent(r.height, master.height))
                    }
                }
                return OverlayView(clause: clause, label: "clause \(clause): its overlays before and after, on the document",
                                   image: image, rectangles: drawn(moved.old, "old", tiles.old.geometry) + drawn(moved.new, "new", tiles.new.geometry))
            }
        }
    }
}
