import Foundation

/// Decoded tiles kept within a byte budget, the least recently used
/// dropped first: what keeps the app's memory bounded however long a
/// visitor pans and zooms. Generic over the decoded picture (a CGImage
/// in the app, anything in a test); the caller says what each one costs,
/// usually `TileRef.decodedBytes`.
///
/// Safe to use from several threads at once (CATiledLayer draws on
/// several): each call takes a lock. Tiles should be immutable values,
/// as decoded images are, since they are handed between threads.
public final class TileCache<Tile>: @unchecked Sendable {
    /// The most bytes the cache holds. Settable at any time (the view
    /// learns its screen's size only once it is in a window, and a scene
    /// can move to another screen): a smaller budget drops the least
    /// recently used tiles until the rest fit.
    public var budget: Int {
        get { locked { limit } }
        set {
            precondition(newValue >= 0, "a negative budget")
            locked {
                limit = newValue
                while used > limit, oldest >= 0 { remove(oldest) }
            }
        }
    }

    private struct Entry {
        var key: TileKey
        var tile: Tile
        var bytes: Int
        var older: Int
        var newer: Int
    }

    private let lock = NSLock()
    private var limit: Int
    // A doubly linked list in an array, from the least recently used
    // (`oldest`) to the most (`newest`): every call is O(1).
    private var entries: [Entry?] = []
    private var free: [Int] = []
    private var index: [TileKey: Int] = [:]
    private var oldest = -1
    private var newest = -1
    private var used = 0

    public init(budget: Int) {
        precondition(budget >= 0, "a negative budget")
        limit = budget
    }

    /// The bytes the tiles held now take: never more than `budget`.
    public var usedBytes: Int { locked { used } }
    public var count: Int { locked { index.count } }

    /// The tile if it is held, now the most recently used.
    public func tile(for key: TileKey) -> Tile? {
        locked {
            guard let slot = index[key] else { return nil }
            touch(slot)
            return entries[slot]!.tile
        }
    }

    public func contains(_ key: TileKey) -> Bool { locked { index[key] != nil } }

    /// Holds `tile` as the most recently used, dropping the least recently
    /// used until it fits. A tile larger than the whole budget is not held.
    public func insert(_ tile: Tile, bytes: Int, for key: TileKey) {
        locked {
            if let slot = index[key] { remove(slot) }
            guard bytes <= limit else { return }
            while used + bytes > limit, oldest >= 0 { remove(oldest) }
            let entry = Entry(key: key, tile: tile, bytes: bytes, older: newest, newer: -1)
            let slot: Int
            if let reused = free.popLast() {
                slot = reused
                entries[slot] = entry
            } else {
                slot = entries.count
                entries.append(entry)
            }
            if newest >= 0 { entries[newest]!.newer = slot } else { oldest = slot }
            newest = slot
            index[key] = slot
            used += bytes
        }
    }

    /// The tile for `ref`, from the cache or else made by `load` (decoding
    /// its file) and held at `ref.decodedBytes`. Two threads asking for the
    /// same missing tile at once may both load it; one copy is kept.
    public func tile(for ref: TileRef, load: (TileRef) throws -> Tile) rethrows -> Tile {
        if let held = tile(for: ref.key) { return held }
        let tile = try load(ref)
        insert(tile, bytes: ref.decodedBytes, for: ref.key)
        return tile
    }

    public func removeValue(for key: TileKey) {
        locked { if let slot = index[key] { remove(slot) } }
    }

    /// Drops every tile (as on a memory warning).
    public func removeAll() {
        locked {
            entries.removeAll()
            free.removeAll()
            index.removeAll()
            (oldest, newest, used) = (-1, -1, 0)
        }
    }

    /// The keys held, least recently used first.
    public var keysByAge: [TileKey] {
        locked {
            var keys: [TileKey] = []
            var slot = oldest
            while slot >= 0 {
                keys.append(entries[slot]!.key)
                slot = entries[slot]!.newer
            }
            return keys
        }
    }

    // NSLock's own withLock is newer than the iOS this package supports.
    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    // The lock is held in these.

    private func unlink(_ slot: Int) {
        let entry = entries[slot]!
        if entry.older >= 0 { entries[entry.older]!.newer = entry.newer } else { oldest = entry.newer }
        if entry.newer >= 0 { entries[entry.newer]!.older = entry.older } else { newest = entry.older }
    }

    private func touch(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        entries[slot]!.older = newest
        entries[slot]!.newer = -1
        entries[newest]!.newer = slot
        newest = slot
    }

    private func remove(_ slot: Int) {
        unlink(slot)
        let entry = entries[slot]!
        index[entry.key] = nil
        used -= entry.bytes
        entries[slot] = nil
        free.append(slot)
    }
}
