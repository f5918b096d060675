import Foundation

/// What a long build tells a person watching it.
package enum BuildEvent: Sendable {
    /// A long task of an input under way (the document's "tiling" of
    /// `total` "tiles"): its percent done and estimate of seconds left.
    case progress(task: String, unit: String, percent: Int, secondsLeft: Int, total: Int, elapsed: TimeInterval)
    /// Something worth a line, e.g. a damaged cache entry being remade.
    case note(String)
}
