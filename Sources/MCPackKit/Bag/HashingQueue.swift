import Foundation

/// Hashes on a second core what the archive writer streams on the first:
/// the writer reads, CRCs and writes, this queue runs SHA-256 over the
/// files copied in and the archive coming out. Work runs in the order
/// given. At most `slots` blocks wait at once, so memory stays bounded if
/// hashing falls behind.
final class HashingQueue: @unchecked Sendable {
    private let queue = DispatchQueue(label: "mcpack.hashing")
    private let slots: DispatchSemaphore

    init(slots: Int = 16) { self.slots = DispatchSemaphore(value: slots) }

    /// Adds `bytes` to `digest` later; the bytes are copied now, as the
    /// caller's buffer is reused.
    func update(_ digest: Digest, with bytes: UnsafeRawBufferPointer) {
        let copy = Data(bytes)
        slots.wait()
        queue.async {
            digest.update(copy)
            self.slots.signal()
        }
    }

    /// Runs `work` after every update given so far.
    func then(_ work: @escaping @Sendable () -> Void) { queue.async(execute: work) }

    /// Returns once everything given so far has run.
    func drain() { queue.sync {} }
}

extension Digest: @unchecked Sendable {}
