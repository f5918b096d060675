import Foundation
import Hashing
import Testing

/// OpenSSL's digests behind `Digest`, without the kit.
@Suite struct HashingTests {
    /// FIPS 180-2 and RFC 1321 test vectors for "abc".
    @Test(arguments: [
        (DigestAlgorithm.md5, "900150983cd24fb0d6963f7d28e17f72"),
        (.sha1, "a9993e364706816aba3e25717850c26c9cd0d89d"),
        (.sha256, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (.sha512, "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
    ])
    func knownVectors(algorithm: DigestAlgorithm, hex: String) throws {
        let digest = try Digest(algorithm)
        digest.update(Data("abc".utf8))
        #expect(digest.finish() == hex)
    }

    @Test func sha256IsTheDefaultAndChunksDoNotMatter() {
        #expect(Digest.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let chunked = Digest()
        var offset = 0
        for size in [1, 0, 63, 64, 65, 4096, 99_999] where offset < bytes.count {
            let end = min(offset + size, bytes.count)
            bytes[offset..<end].withUnsafeBytes { chunked.update($0) }
            offset = end
        }
        #expect(offset == bytes.count)
        #expect(chunked.finish() == Digest.hex(bytes))
        #expect(Digest.hex(Data("abd".utf8)) != Digest.hex(Data("abc".utf8)))
    }

    @Test func hexIsLowerCaseTwoDigitsAByte() {
        #expect(Digest.hexString([0x00, 0x0F, 0xA0, 0xFF]) == "000fa0ff")
    }

    /// Work handed to the queue runs in order, on another thread, and is
    /// all done once `drain` returns.
    @Test func hashingQueueKeepsOrderAndDrains() {
        let queue = HashingQueue(slots: 2)
        let results = Results()
        var expected: [String] = []
        for n in 0..<300 {
            let digest = Digest()
            var whole = Data()
            for part in 0..<3 {
                let block = Data("\(n)-\(part);".utf8)
                whole.append(block)
                queue.update(digest, with: block)
            }
            expected.append(Digest.hex(whole))
            queue.finish(digest) { results.append($0) }
        }
        queue.drain()
        #expect(results.values == expected)
    }
}

private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ value: String) { lock.withLock { storage.append(value) } }
    var values: [String] { lock.withLock { storage } }
}
