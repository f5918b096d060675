import Foundation

/// What a long build tells a person watching it.
public enum BuildEvent: Sendable {
    /// Tiling the master: libvips's percent done and estimate of seconds left.
    case tiling(percent: Int, secondsLeft: Int, tiles: Int, elapsed: TimeInterval)
    /// Something worth a line, e.g. a damaged cache entry being remade.
    case note(String)
}
