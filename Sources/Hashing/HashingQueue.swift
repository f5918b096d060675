import Foundation

/// Hashes on a second core what the archive writer streams on the first:
/// the writer reads, CRCs and writes, this queue runs SHA-256 over the
/// files copied in and the archive coming out. Work runs in the order
/// given, handed over in batches of about 1 MiB: one hand-over per tile
/// woke the hashing thread 34,000 times per rebuild. At most `slots`
/// batches wait at once, so memory stays bounded if hashing falls behind.
///
/// One thread gives it work (`update`, `finish`, `drain`); the queue's
/// own thread does the hashing.
public final class HashingQueue: @unchecked Sendable {
    private let queue = DispatchQueue(label: "mcpack.hashing")
    private let slots: DispatchSemaphore
    private var batch: [Work] = []
    private var batchBytes = 0
    private static let batchLimit = 1 << 20
    private static let batchCount = 256

    /// A digest and what to do with it. Digest is not thread-safe; it is
    /// safe here because, once handed over, only the (serial) queue touches
    /// it until `drain()` returns.
    private enum Work: @unchecked Sendable {
        case update(Digest, Data)
        case finish(Digest, @Sendable (String) -> Void)
        case finishInto(Digest, DigestTable, Int)
    }

    public init(slots: Int = 8) {
        self.slots = DispatchSemaphore(value: slots)
    }

    /// Adds `data` to `digest` later.
    public func update(_ digest: Digest, with data: Data) {
        batch.append(.update(digest, data))
        batchBytes += data.count
        if batchBytes >= Self.batchLimit || batch.count >= Self.batchCount { send() }
    }

    /// Finishes `digest` after every update given so far and hands its hex
    /// to `done`, on the queue.
    public func finish(_ digest: Digest, _ done: @escaping @Sendable (String) -> Void) {
        batch.append(.finish(digest, done))
        if batch.count >= Self.batchCount { send() }
    }

    /// Finishes `digest` after every update given so far into `table`, as
    /// its `index`th, on the queue.
    public func finish(_ digest: Digest, into table: DigestTable, at index: Int) {
        batch.append(.finishInto(digest, table, index))
        if batch.count >= Self.batchCount { send() }
    }

    /// Returns once everything given so far has run.
    public func drain() {
        send()
        queue.sync {}
    }

    private func send() {
        guard !batch.isEmpty else { return }
        let work = batch
        batch = []
        batchBytes = 0
        slots.wait()
        queue.async {
            for item in work {
                switch item {
                case .update(let digest, let data): digest.update(data)
                case .finish(let digest, let done): done(digest.finish())
                case .finishInto(let digest, let table, let index): table.finish(digest, at: index)
                }
            }
            self.slots.signal()
        }
    }
}
