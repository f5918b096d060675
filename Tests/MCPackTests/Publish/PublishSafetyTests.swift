import Foundation
import MCPackSchema
@testable import MCPackKit
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Two publishers, and a publisher stopped anywhere: the channel a reader
/// sees stays valid, and the next publisher completes.
@Suite struct PublishSafetyTests {
    /// A publisher started in the background, its output read as it comes.
    final class Background: @unchecked Sendable {
        let process = Process()
        private let lock = NSLock()
        private var errText = ""
        private var outText = ""

        init(_ arguments: [String], in directory: URL) throws {
            process.executableURL = MCPackBinary.url
            process.arguments = arguments
            process.currentDirectoryURL = directory
            var environment = ProcessInfo.processInfo.environment
            environment["NO_COLOR"] = "1"
            environment["SWIFT_BACKTRACE"] = "enable=no"
            process.environment = environment
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            out.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                self?.lock.withLock { self?.outText += String(decoding: data, as: UTF8.self) }
            }
            err.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                self?.lock.withLock { self?.errText += String(decoding: data, as: UTF8.self) }
            }
            try process.run()
        }

        var stderr: String { lock.withLock { errText } }
        var stdout: String { lock.withLock { outText } }

        /// Polls until `condition` holds or `seconds` pass.
        func wait(seconds: Double, until condition: () -> Bool) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if condition() { return true }
                usleep(20_000)
            }
            return condition()
        }

        func finish() -> Int32 {
            process.waitUntilExit()
            // The last of the output, read by the handlers after the exit.
            usleep(100_000)
            return process.terminationStatus
        }
    }

    @Test func aSecondPublisherWaitsForTheLock() throws {
        let publishing = try Publishing.make(secondVersion: false)
        defer { publishing.project.destroy() }
        try FileManager.default.createDirectory(at: publishing.url("channel"), withIntermediateDirectories: true)
        // This test holds the lock, as a publisher would, with a pid in it.
        let fd = open(publishing.url("channel/.lock").path, O_RDWR | O_CREAT, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX) == 0)
        _ = write(fd, "4242\n", 5)

        let waiting = try Background(["publish", Publishing.v1, "--channel", "channel", "--sign-key", "k.key"], in: publishing.root)
        #expect(waiting.wait(seconds: 60) { waiting.stderr.contains("waiting for") }, "\(waiting.stderr)")
        #expect(waiting.stderr.contains("waiting for channel/.lock: another mcpack publish (pid 4242) is changing this channel"), "\(waiting.stderr)")
        usleep(300_000)
        #expect(waiting.process.isRunning)
        #expect(!FileManager.default.fileExists(atPath: publishing.url("channel/index.json").path))
        #expect(publishing.objects().isEmpty)

        #expect(flock(fd, LOCK_UN) == 0)
        #expect(waiting.finish() == 0, "\(waiting.stderr)")
        #expect(try publishing.problem() == nil)
        #expect(try publishing.index().versions.map(\.version) == ["1.0.0"])
    }

    @Test func publishersAtOnceAreSerialisedAndBothLand() throws {
        let publishing = try Publishing.make()
        defer { publishing.project.destroy() }
        try publishing.buildSecond(version: "1.2.0", translation: "To none will we sell right or justice.")
        #expect(try publishing.publish([Publishing.v1]).0.status == 0)
        let arguments = ["--channel", "channel", "--sign-key", "k.key"]
        let two = try Background(["publish", Publishing.v2] + arguments, in: publishing.root)
        let three = try Background(["publish", "dist/test-bundle-1.2.0.zip"] + arguments, in: publishing.root)
        #expect(two.finish() == 0, "\(two.stderr)")
        #expect(three.finish() == 0, "\(three.stderr)")
        let index = try publishing.index()
        #expect(index.versions.map(\.version) == ["1.0.0", "1.1.0", "1.2.0"])
        #expect(index.sequence == 3)
        #expect(try publishing.problem() == nil)
    }

    /// The channel copied at each step of a publish, in the process: what
    /// is on disk there is what a kill there leaves. Before the switch the
    /// old index stands; between the two renames the new signature stands
    /// beside the old index (readers retry, then keep their version), and
    /// the next publisher finishes the switch.
    @Test func whatAStoppedPublisherLeavesIsValidOrFinishedByTheNext() throws {
        let publishing = try Publishing.make()
        defer { publishing.project.destroy() }
        #expect(try publishing.publish([Publishing.v1]).0.status == 0)
        let channel = publishing.url("channel")
        let snapshot: @Sendable (String) -> Void = { name in
            try? FileManager.default.copyItem(at: channel, to: channel.deletingLastPathComponent().appendingPathComponent(name))
        }
        let key = try Publisher.loadKey(publishing.url("k.key").path, password: { "" })
        let options = PublishOptions(channel: channel.path, action: .publish(archive: publishing.url(Publishing.v2).path, prune: nil),
                                     hooks: PublishHooks(afterObjects: { snapshot("after-objects") }, beforeSwitch: { snapshot("before-switch") },
                                                         betweenRenames: { snapshot("between-renames") }))
        let result = try Publisher.run(options, key: key)
        #expect(result.outcome == .published && result.sequence == 2)
        // A killed publisher's pid is gone; this test's is not: its staged
        // files are renamed to a pid no process has.
        for name in ["after-objects", "before-switch", "between-renames"] {
            for file in try FileManager.default.contentsOfDirectory(atPath: publishing.url(name).path) where file.contains(".partial-") {
                let dead = file.replacingOccurrences(of: "\(getpid())", with: "2147483646")
                try FileManager.default.moveItem(at: publishing.url("\(name)/\(file)"), to: publishing.url("\(name)/\(dead)"))
            }
        }

        // Before the switch: the old index, valid; the new objects unnamed.
        for name in ["after-objects", "before-switch"] {
            #expect(try publishing.problem(name) == nil, "\(name)")
            #expect(try publishing.index(name).sequence == 1)
            let again = try publishing.publish([Publishing.v2], channel: name)
            #expect(again.0.status == 0, "\(again.0.stderr)")
            // Every object was there already but the list, in before-switch too.
            #expect(again.1["objectsWritten"] as? Int == 0, "\(name): \(again.1)")
            #expect(try publishing.problem(name) == nil)
            #expect(try FileManager.default.contentsOfDirectory(atPath: publishing.url(name).path).allSatisfy { !$0.contains(".partial-") })
        }

        // Between the renames: minisign refuses the pair until the next
        // publisher finishes the switch it finds staged.
        #expect(try publishing.minisign("between-renames").status != 0)
        let next = try publishing.publish([Publishing.v2], channel: "between-renames")
        #expect(next.0.status == 0, "\(next.0.stderr)")
        #expect(next.0.stderr.contains("note: between-renames/index.json: a publisher was stopped between writing the signature and the index; its index is now in place"), "\(next.0.stderr)")
        #expect(next.1["outcome"] as? String == "unchanged")
        #expect(try publishing.index("between-renames") == (try publishing.index()))
        #expect(try publishing.problem("between-renames") == nil)
    }

    /// The binary itself killed (SIGKILL) at moments spread over a publish,
    /// each time from the same channel of 1.0.0: what it leaves is valid, or
    /// a switch the next publisher finishes; and the next one completes.
    @Test func killedAnywhereTheChannelStaysValid() throws {
        let publishing = try Publishing.make()
        defer { publishing.project.destroy() }
        #expect(try publishing.publish([Publishing.v1], channel: "pristine").0.status == 0)
        var landed = (before: 0, after: 0, between: 0)
        for step in 0..<20 {
            try? FileManager.default.removeItem(at: publishing.url("channel"))
            try FileManager.default.copyItem(at: publishing.url("pristine"), to: publishing.url("channel"))
            let process = try Background(["publish", Publishing.v2, "--channel", "channel", "--sign-key", "k.key"], in: publishing.root)
            usleep(useconds_t(step * 15_000))
            kill(process.process.processIdentifier, SIGKILL)
            _ = process.finish()
            if try publishing.minisign().status == 0 {
                #expect(try publishing.problem() == nil, "step \(step)")
                if try publishing.index().sequence == 1 { landed.before += 1 } else { landed.after += 1 }
            } else {
                landed.between += 1
            }
            let next = try publishing.publish([Publishing.v2])
            #expect(next.0.status == 0, "step \(step): \(next.0.stderr)")
            #expect(try publishing.problem() == nil, "step \(step)")
            #expect(try publishing.index().versions.map(\.version) == ["1.0.0", "1.1.0"])
        }
        // Kills before the switch at least; the rest is timing.
        #expect(landed.before > 0, "\(landed)")
    }
}
