import Foundation
import MCPackSchema

extension KioskBundle {
    /// The clauses a menu entry shows: every clause for no entry or the
    /// "all" filter, none for the "none" filter ("Hide Overlays"), and
    /// otherwise those tagged with the category; in clauses.json's order.
    public func clauses(showing category: ClauseCategory?) -> [Clause] {
        guard let category else { return clauses }
        switch category.filter {
        case "all": return clauses
        case "none": return []
        default: return clauses.filter { $0.categories.contains(category.name) }
        }
    }

    /// The clauses whose overlays hold `point` (master pixels), topmost
    /// first: overlays are drawn in clauses.json's order, so a later
    /// clause lies over an earlier one and takes the tap. Only the clauses
    /// `category` shows can be hit. A rectangle holds its left and top
    /// edges, not its right and bottom ones (`PixelRect.contains`), so two
    /// rectangles side by side never both take a point.
    public func clauses(at point: CGPoint, showing category: ClauseCategory? = nil) -> [Clause] {
        let (x, y) = (Double(point.x), Double(point.y))
        return clauses(showing: category).reversed().filter { clause in
            clause.overlays.contains { $0.contains(x: x, y: y) }
        }
    }
}
