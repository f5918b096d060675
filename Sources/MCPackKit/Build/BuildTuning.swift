/// The speed tricks a build uses, all on by default. `make bench` turns each
/// off in turn (Tests/Tuning, scripts/bench-tricks.sh) to show what it is
/// worth in the figures a user sees; bench/results.md has the answer. Two
/// more are outside this type: the extra dzsave worker (Imaging; off with
/// VIPS_CONCURRENCY set to the number of cores) and the malloc arena cap
/// (`MCPackProcess.prepare(boundMemory:)`).
public struct BuildTuning: Sendable {
    /// The master is hashed on another core while the inputs after it are checked.
    public var hashAhead = true
    /// How many launch screens are made at once; nil: two, or one on one core.
    public var launchLanes: Int?
    /// A square launch background is resized once per screen size and
    /// cropped for both orientations.
    public var squareResizeOnce = true
    /// The archive's entries and its own SHA-256 are hashed on a second core
    /// while it is written.
    public var hashWhileWriting = true

    public init() {}
}
