import Foundation

/// What an input finds looking closer at its changed files than their
/// digests (`diff --pixels`, and the diff page, which decodes them): the
/// document's tiles compared block by block. Inputs with nothing to look
/// at closer have none.
package protocol CloseComparison: Sendable {
    /// Adds what it found to the changes (a level's visibly changed tiles).
    func annotate(_ changes: inout [Change])
    /// The areas that changed visibly, for the summary line and the JSON
    /// report's `regions`.
    var regions: [ChangedRegion] { get }
    /// Its section of the diff page, HTML from its own template of
    /// `templates` (Templates/html), or nil for none.
    func diffPage(_ changes: [Change], templates: TemplateSet) throws -> String?
    /// Whether its section shows `change`, which the page's table of other
    /// changes then leaves out.
    func showsOnDiffPage(_ change: Change) -> Bool
}

/// An area of the document that changed visibly, in master pixels, and the
/// full-size tiles it spans (`column_row`).
package struct ChangedRegion: Sendable, Encodable, Equatable {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int
    package var tiles: [String]
}
