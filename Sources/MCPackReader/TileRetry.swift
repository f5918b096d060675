import Foundation

/// When to ask again for a tile that could not be read or decoded.
/// CATiledLayer keeps a tile it was given nothing for empty until the layer
/// is told that part needs display again; without a retry a failure (a file
/// read while the device is short of memory, a decoder that gave up) would
/// leave a hole for as long as the app runs. The view records each failure
/// here and, when the answer is a delay, marks the tile's frame as needing
/// display after it; a tile that loads is forgotten.
///
/// The delays double from `firstDelay` up to `longestDelay`; after
/// `attempts` failures in a row no more redraws are asked for (the tile is
/// still drawn whenever the layer asks for it, and forgotten once it loads).
/// While a redraw is pending, further failures of the same tile (the layer
/// may ask for it from several threads at once) are not counted.
///
/// Safe to use from several threads at once (CATiledLayer draws on
/// several): each call takes a lock.
public final class TileRetry: @unchecked Sendable {
    /// The delay after a tile's first failure, in seconds.
    public let firstDelay: Double
    /// The longest delay, in seconds.
    public let longestDelay: Double
    /// The failures in a row after which no redraw is asked for.
    public let attempts: Int

    private struct Record {
        var failures: Int
        /// When the redraw asked for is due; failures before it are not counted.
        var due: Double
    }

    private let lock = NSLock()
    private var records: [TileKey: Record] = [:]

    public init(firstDelay: Double = 0.25, longestDelay: Double = 8, attempts: Int = 6) {
        precondition(firstDelay > 0 && longestDelay >= firstDelay && attempts > 0, "a retry policy needs a positive first delay, a longest delay no shorter and at least one attempt")
        self.firstDelay = firstDelay
        self.longestDelay = longestDelay
        self.attempts = attempts
    }

    /// The delay after the `failure`th failure in a row (1 for the first):
    /// `firstDelay` doubled for each earlier one, at most `longestDelay`.
    public func delay(afterFailure failure: Int) -> Double {
        let doublings = min(max(failure - 1, 0), 62)
        return min(firstDelay * Double(UInt64(1) << UInt64(doublings)), longestDelay)
    }

    /// Records that the tile `key` failed at `now` (seconds on a monotonic
    /// clock, such as `ProcessInfo.processInfo.systemUptime`) and answers
    /// the delay after which to draw it again; nil when no redraw should be
    /// asked for: one is already pending, or the tile has failed `attempts`
    /// times in a row.
    public func failed(_ key: TileKey, at now: Double) -> Double? {
        locked {
            var record = records[key] ?? Record(failures: 0, due: -.infinity)
            guard now >= record.due, record.failures < attempts else { return nil }
            record.failures += 1
            guard record.failures < attempts else {
                records[key] = record
                return nil
            }
            let delay = delay(afterFailure: record.failures)
            record.due = now + delay
            records[key] = record
            return delay
        }
    }

    /// Forgets the tile's failures: it loaded.
    public func succeeded(_ key: TileKey) {
        locked { _ = records.removeValue(forKey: key) }
    }

    /// The failures in a row recorded for the tile.
    public func failures(of key: TileKey) -> Int { locked { records[key]?.failures ?? 0 } }

    /// The tiles with failures recorded.
    public var count: Int { locked { records.count } }

    /// Forgets every failure (as for a new document).
    public func removeAll() { locked { records.removeAll() } }

    // NSLock's own withLock is newer than the iOS this package supports.
    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
