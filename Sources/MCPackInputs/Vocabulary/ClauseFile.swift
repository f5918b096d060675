import Foundation
import MCPackSchema

/// clauses.toml, typed: the categories of the side menu and the clauses
/// with their overlays on the master scan. The clauses input reads it
/// (Clauses/ClauseFile+Read.swift) and publishes it as the `ClauseList`
/// fact, which the inputs after it (the category icons, the IIIF manifest,
/// the preview page) are handed.
package struct ClauseFile: Sendable, Equatable {
    package var categories: [ClauseCategory]
    package var clauses: [Clause]
    /// False when a [[category]] could not be read, so the icons cannot be
    /// matched one to one against the categories.
    package var categoriesComplete = true

    package init(categories: [ClauseCategory], clauses: [Clause], categoriesComplete: Bool = true) {
        self.categories = categories
        self.clauses = clauses
        self.categoriesComplete = categoriesComplete
    }

    /// A project's clause file when it has none.
    package static let empty = ClauseFile(categories: [], clauses: [])
}
