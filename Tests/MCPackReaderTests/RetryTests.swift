import Foundation
import MCPackReader
import Testing

/// When a tile that failed to load is drawn again: CATiledLayer leaves it
/// empty until told its part needs display, so the view asks, after the
/// delay the policy answers.
@Suite struct RetryTests {
    static let key = TileKey(level: 14, column: 3, row: 2)

    @Test func theDelaysDoubleUpToTheLongest() {
        let retry = TileRetry(firstDelay: 0.25, longestDelay: 8, attempts: 6)
        #expect((1...8).map { retry.delay(afterFailure: $0) } == [0.25, 0.5, 1, 2, 4, 8, 8, 8])
        #expect(retry.delay(afterFailure: 0) == 0.25)
        #expect(retry.delay(afterFailure: 1000) == 8)
    }

    /// A tile that always fails: a redraw after each failure, the delays
    /// doubling, until the attempts are spent; then none, however long the
    /// layer goes on asking. A failure while a redraw is pending is not
    /// counted (the layer may ask for the tile from several threads).
    @Test func aTileThatKeepsFailingIsAskedForAgainAFewTimesThenLeft() {
        let retry = TileRetry(firstDelay: 0.25, longestDelay: 8, attempts: 6)
        let key = Self.key
        #expect(retry.failed(key, at: 0) == 0.25)
        #expect(retry.failed(key, at: 0.1) == nil)  // pending until 0.25
        #expect(retry.failures(of: key) == 1)
        #expect(retry.failed(key, at: 0.25) == 0.5)
        #expect(retry.failed(key, at: 0.75) == 1)
        #expect(retry.failed(key, at: 1.75) == 2)
        #expect(retry.failed(key, at: 3.75) == 4)
        #expect(retry.failures(of: key) == 5)
        #expect(retry.failed(key, at: 7.75) == nil)  // the sixth: no more
        #expect(retry.failures(of: key) == 6)
        #expect(retry.failed(key, at: 1000) == nil)
        #expect(retry.failures(of: key) == 6)
        // A load at last forgets it; a later failure starts again.
        retry.succeeded(key)
        #expect(retry.failures(of: key) == 0 && retry.count == 0)
        #expect(retry.failed(key, at: 2000) == 0.25)
    }

    /// The view's loop, simulated: each failure answered with a delay is a
    /// redraw at that time, which fails again. The redraws are bounded and
    /// spaced as the policy says; a tile that loads on the third redraw
    /// stops them and is forgotten.
    @Test func theViewsRedrawsAreBounded() {
        for loadsOnRedraw in [Int?.none, 3] {
            let retry = TileRetry()
            var now = 10.0, redraws: [Double] = []
            var due: Double? = retry.failed(Self.key, at: now).map { now + $0 }
            while let time = due {
                now = time
                redraws.append(now)
                if redraws.count == loadsOnRedraw {
                    retry.succeeded(Self.key)
                    due = nil
                } else {
                    due = retry.failed(Self.key, at: now).map { now + $0 }
                }
            }
            if let loadsOnRedraw {
                #expect(redraws.count == loadsOnRedraw)
                #expect(retry.count == 0)
            } else {
                #expect(redraws.count == retry.attempts - 1)
                #expect(redraws == [10.25, 10.75, 11.75, 13.75, 17.75])
                #expect(retry.failures(of: Self.key) == retry.attempts)
            }
        }
    }

    @Test func tilesAreCountedApart() {
        let retry = TileRetry()
        let other = TileKey(level: 14, column: 4, row: 2)
        #expect(retry.failed(Self.key, at: 0) == 0.25)
        #expect(retry.failed(other, at: 0) == 0.25)
        #expect(retry.failed(Self.key, at: 1) == 0.5)
        #expect(retry.failures(of: other) == 1 && retry.count == 2)
        retry.succeeded(other)
        #expect(retry.failures(of: Self.key) == 2 && retry.count == 1)
        retry.removeAll()
        #expect(retry.count == 0)
    }

    /// draw(in:) runs on several threads: the same tile failing on all of
    /// them at once is one failure and one redraw; many tiles failing at
    /// once are each counted once.
    @Test func failuresFromManyThreadsAtOnceAreEachCountedOnce() {
        let retry = TileRetry()
        let answers = Answers()
        DispatchQueue.concurrentPerform(iterations: 1000) { _ in
            answers.add(retry.failed(Self.key, at: 5))
        }
        #expect(answers.delays == [0.25])
        #expect(retry.failures(of: Self.key) == 1)

        let many = TileRetry(), manyAnswers = Answers()
        DispatchQueue.concurrentPerform(iterations: 64 * 16) { i in
            let key = TileKey(level: 10, column: i % 64, row: 0)
            manyAnswers.add(many.failed(key, at: 0))
            if i % 3 == 0 { _ = many.failures(of: key) }
        }
        #expect(manyAnswers.delays.count == 64)
        #expect(many.count == 64)
        #expect((0..<64).allSatisfy { many.failures(of: TileKey(level: 10, column: $0, row: 0)) == 1 })
    }

    /// The delays answered, from any thread.
    final class Answers: @unchecked Sendable {
        private let lock = NSLock()
        private var answered: [Double] = []

        func add(_ delay: Double?) {
            guard let delay else { return }
            lock.lock()
            answered.append(delay)
            lock.unlock()
        }

        var delays: [Double] {
            lock.lock()
            defer { lock.unlock() }
            return answered
        }
    }
}
