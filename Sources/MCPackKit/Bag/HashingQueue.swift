import Foundation

/// Hashes on a second core what the archive writer streams on the first:
/// the writer reads, CRCs and writes, this queue runs SHA-256 over the
/// files copied in and the archive coming out. Work runs in the order
/// given. At most `slots` blocks wait at once, so memory stays bounded if
/// hashing falls behind.
final class HashingQueue: @unchecked Sendable {
    private let queue = DispatchQueue(label: "mcpack.hashing")
    private let slots: DispatchSemaphore

    /// A digest handed to the queue. Digest is not thread-safe; it is safe
    /// here because, once handed over, only the (serial) queue touches it
    /// until `drain()` returns.
    private struct HandedOver: @unchecked Sendable {
        let digest: Digest
    }

    init(slots: Int = 16) { self.slots = DispatchSemaphore(value: slots) }

    /// Adds `bytes` to `digest` later; the bytes are copied now, as the
    /// caller's buffer is reused.
    func update(_ digest: Digest, with bytes: UnsafeRawBufferPointer) {
        update(digest, with: Data(bytes))
    }

    /// Adds `data` to `digest` later.
    func update(_ digest: Digest, with copy: Data) {
        let handed = HandedOver(digest: digest)
        slots.wait()
        queue.async {
            handed.digest.update(copy)
            self.slots.signal()
        }
    }

    /// Finishes `digest` after every update given so far and hands its hex
    /// to `done`, on the queue.
    func finish(_ digest: Digest, _ done: @escaping @Sendable (String) -> Void) {
        let handed = HandedOver(digest: digest)
        queue.async { done(handed.digest.finish()) }
    }

    /// Returns once everything given so far has run.
    func drain() { queue.sync {} }
}
