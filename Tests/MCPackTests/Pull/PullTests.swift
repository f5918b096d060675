import Foundation
import Imaging
@testable import MCPackReader
import MCPackSchema
import Testing

/// `mcpack pull` against a channel `mcpack publish` wrote, served by nginx
/// on loopback: what is fetched (nginx's own log), what is installed
/// (sha256sum against unzip of the archive), and what is refused with the
/// installed bundle untouched (`mcpack verify` of it, and its bytes).
@Suite(.serialized) struct PullTests {
    struct Pulling {
        let publishing: Publishing
        let server: WebServer

        static func make() throws -> Pulling {
            let publishing = try Publishing.make()
            let (published, _) = try publishing.publish([Publishing.v1])
            try #require(published.status == 0, "\(published.stderr)")
            return Pulling(publishing: publishing, server: try WebServer(root: publishing.url("channel")))
        }

        func pull(_ extra: [String] = [], server: WebServer? = nil) throws -> (RunResult, [String: Any]) {
            let result = try publishing.run(["pull", (server ?? self.server).url, "--into", "kiosk", "--public-key", "k.pub", "--json"] + extra)
            let object = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any] ?? [:]
            return (result, object)
        }

        /// Every file behind the kiosk link (or another) and its SHA-256, by
        /// sha256sum.
        func installed(_ link: String = "kiosk") throws -> [String: String] {
            let sums = try publishing.shell("cd \(link)/ && find . -type f -print0 | xargs -0 sha256sum")
            try #require(sums.status == 0, "\(sums.stdout)")
            var files: [String: String] = [:]
            for line in sums.stdout.split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 1)
                files[String(parts[1].trimmingCharacters(in: .whitespaces).dropFirst(2))] = String(parts[0])
            }
            return files
        }

        /// The objects fetched since `mark` requests, as channel paths.
        func fetched(since mark: Int) -> [String] {
            server.requests().dropFirst(mark).map { String($0.path.dropFirst()) }
        }

        func verifies() throws -> Bool { try publishing.run(["verify", "kiosk"]).status == 0 }

        /// An object of the channel holding `path` of the archive's version.
        func object(of path: String, in archive: String) throws -> URL {
            let sha256 = try #require(try publishing.contents(archive)[path])
            return publishing.url("channel/" + ChannelObject.path(sha256))
        }
    }

    @Test func installsThenFetchesOnlyWhatChanged() throws {
        let pulling = try Pulling.make()
        let publishing = pulling.publishing
        let (first, firstJSON) = try pulling.pull()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(firstJSON["outcome"] as? String == "installed" && firstJSON["version"] as? String == "1.0.0")
        #expect(try pulling.installed() == publishing.contents(Publishing.v1))
        #expect(try pulling.verifies())

        // 1.1.0, one clause's translation edited: the index, its signature,
        // the new list, and the objects of files whose bytes changed.
        #expect(try publishing.publish([Publishing.v2]).0.status == 0)
        let v1 = try publishing.contents(Publishing.v1), v2 = try publishing.contents(Publishing.v2)
        var mark = pulling.server.requests().count
        let (second, secondJSON) = try pulling.pull()
        #expect(second.status == 0, "\(second.stderr)")
        // The payload manifest is not fetched either: made from the
        // installed one with the signed checksums, it has the signed bytes.
        let manifest = try #require(v2["manifest-sha256.txt"])
        let changed = Set(v2.values).subtracting(v1.values).subtracting([manifest])
        let list = try #require(try publishing.index().version("1.1.0")).list
        #expect(Set(pulling.fetched(since: mark)) == Set(["index.json", "index.json.minisig", list.path] + changed.map(ChannelObject.path)))
        #expect(changed.count < v2.count / 4, "a one-clause update changed \(changed.count) of \(v2.count) files")
        #expect(secondJSON["filesFetched"] as? Int == changed.count && secondJSON["previousVersion"] as? String == "1.0.0")
        #expect(try pulling.installed() == v2)
        #expect(try pulling.verifies())

        // Nothing newer: the index and its signature, nothing else.
        mark = pulling.server.requests().count
        let (again, againJSON) = try pulling.pull()
        #expect(again.status == 0 && againJSON["outcome"] as? String == "current", "\(again.stdout)\(again.stderr)")
        #expect(pulling.fetched(since: mark) == ["index.json", "index.json.minisig"])

        // A retouched master: only the tiles whose bytes changed.
        let project = publishing.project
        let master = try Image(data: try Data(contentsOf: project.url("assets/document/master.png")))
        let patch = try Image.solid(width: 40, height: 30, ink: [200, 40, 40])
        try project.write("assets/document/master.png",
                          try Image.assembled(width: TestProject.masterWidth, height: TestProject.masterHeight, pieces: [(master, 0, 0), (patch, 500, 300)]).pngData())
        try project.edit("bundle.toml", #"version = "1.0.0""#, #"version = "1.2.0""#)
        try #require(try publishing.run(["build"]).status == 0)
        let v3archive = "dist/test-bundle-1.2.0.zip"
        #expect(try publishing.publish([v3archive]).0.status == 0)
        let v3 = try publishing.contents(v3archive)
        mark = pulling.server.requests().count
        #expect(try pulling.pull().0.status == 0)
        let retouched = Set(v3.values).subtracting(v2.values).subtracting([try #require(v3["manifest-sha256.txt"])])
        let fetchedObjects = Set(pulling.fetched(since: mark).filter { $0.hasPrefix("objects/") })
        let list3 = try #require(try publishing.index().version("1.2.0")).list
        #expect(fetchedObjects == Set([list3.path] + retouched.map(ChannelObject.path)))
        // The full-size level's tiles: only those the patch touches.
        let levels = v3.keys.filter { $0.contains("_files/") }.map { $0.split(separator: "/").dropLast().joined(separator: "/") }
        let top = try #require(levels.max { Int($0.split(separator: "/").last!) ?? 0 < Int($1.split(separator: "/").last!) ?? 0 })
        let tiles = v3.keys.filter { $0.hasPrefix(top + "/") }
        let fetchedTiles = tiles.filter { retouched.contains(v3[$0]!) }
        #expect(!fetchedTiles.isEmpty && fetchedTiles.count < tiles.count, "\(fetchedTiles.count) of the \(tiles.count) tiles of \(top) fetched")
        #expect(try pulling.installed() == v3)
        #expect(try pulling.verifies())
    }

    @Test func refusesWhatTheSenderDidNotSignAndKeepsTheInstalledVersion() throws {
        let pulling = try Pulling.make()
        let publishing = pulling.publishing
        #expect(try pulling.pull().0.status == 0)
        let v1 = try publishing.contents(Publishing.v1)
        let oldIndex = try Data(contentsOf: publishing.url("channel/index.json"))
        let oldSignature = try Data(contentsOf: publishing.url("channel/index.json.minisig"))
        #expect(try publishing.publish([Publishing.v2]).0.status == 0)
        let v2only = try #require(try publishing.contents(Publishing.v2).first { $0.key.hasPrefix("data/") && v1[$0.key] != $0.value }?.key)
        let object = try pulling.object(of: v2only, in: Publishing.v2)
        let good = try Data(contentsOf: object)

        func refused(_ expected: Int32, _ words: String, _ what: String) throws {
            let (result, json) = try pulling.pull()
            #expect(result.status == expected, "\(what): \(result.stdout)\(result.stderr)")
            let problems = (json["problems"] as? [String] ?? []).joined(separator: "\n")
            #expect(problems.contains(words), "\(what): \(problems)")
            #expect(try pulling.installed() == v1, "\(what): the installed version changed")
            #expect(try pulling.verifies(), "\(what)")
        }

        // A tampered object: same size, other bytes.
        var tampered = good
        tampered[tampered.count / 2] ^= 0xFF
        try tampered.write(to: object)
        try refused(1, "not the one the signed index names", "tampered object")
        // More bytes than the index lists (endless data).
        try (good + Data(repeating: 0x41, count: 4096)).write(to: object)
        try refused(1, "more than the \(good.count) bytes", "longer object")
        // A truncated object, then one gone: could not, try again.
        try good.prefix(good.count / 2).write(to: object)
        try refused(2, "sent \(good.count / 2) of its \(good.count) bytes", "truncated object")
        try FileManager.default.removeItem(at: object)
        try refused(2, "HTTP 404", "missing object")
        try good.write(to: object)

        // An index signed by a key the kiosk does not trust.
        let currentIndex = try Data(contentsOf: publishing.url("channel/index.json.minisig"))
        #expect(try publishing.shell("minisign -G -W -p other.pub -s other.key && minisign -S -l -s other.key -m channel/index.json").status == 0)
        try refused(1, "not a trusted key", "another key")
        // A tampered index under a good signature.
        try currentIndex.write(to: publishing.url("channel/index.json.minisig"))
        let index = try Data(contentsOf: publishing.url("channel/index.json"))
        try Data(String(decoding: index, as: UTF8.self).replacingOccurrences(of: "\"sequence\" : 2", with: "\"sequence\" : 9").utf8)
            .write(to: publishing.url("channel/index.json"))
        try refused(1, "does not match", "tampered index")
        try index.write(to: publishing.url("channel/index.json"))

        // The good channel installs 1.1.0, resuming from what was fetched.
        let (installed, _) = try pulling.pull()
        #expect(installed.status == 0, "\(installed.stderr)")
        #expect(try pulling.installed() == publishing.contents(Publishing.v2))

        // Then the older, validly signed index served again.
        try oldIndex.write(to: publishing.url("channel/index.json"))
        try oldSignature.write(to: publishing.url("channel/index.json.minisig"))
        let (older, olderJSON) = try pulling.pull()
        #expect(older.status == 1 && (olderJSON["problems"] as? [String] ?? []).joined().contains("older than sequence 2"), "\(older.stdout)")
        // And an older version in a newer index: a rollback, refused
        // unless asked for.
        #expect(try publishing.installedVersion(pulling) == "1.1.0")
    }

    @Test func anOpenBundleKeepsItsVersionAndThePreviousOneCanComeBack() throws {
        let pulling = try Pulling.make()
        let publishing = pulling.publishing
        #expect(try pulling.pull().0.status == 0)
        // Opened through the link, as an app opens BundleStore.link.
        let opened = try KioskBundle(folder: publishing.url("kiosk"))
        #expect(try publishing.publish([Publishing.v2]).0.status == 0)
        #expect(try pulling.pull().0.status == 0)
        #expect(opened.version == "1.0.0" && opened.folder.lastPathComponent == "test-bundle-1.0.0")
        #expect(FileManager.default.fileExists(atPath: opened.folder.appendingPathComponent(BundleJSON.path).path), "the version on screen was removed")
        #expect(try KioskBundle(folder: publishing.url("kiosk")).version == "1.1.0")

        let store = BundleStore(folder: publishing.url("kiosk.mcpack"), link: publishing.url("kiosk"))
        #expect(try store.rollBack().lastPathComponent == "test-bundle-1.0.0")
        #expect(try pulling.installed() == publishing.contents(Publishing.v1))
        #expect(try pulling.verifies())
        // 1.1.0 was installed once and left: held back, not refused, and
        // nothing fetched but the index and its signature.
        let mark = pulling.server.requests().count
        let (again, json) = try pulling.pull()
        #expect(again.status == 0 && json["outcome"] as? String == "heldBack" && json["version"] as? String == "1.0.0"
                && json["heldBack"] as? String == "1.1.0", "\(again.stdout)\(again.stderr)")
        #expect(pulling.fetched(since: mark) == ["index.json", "index.json.minisig"])
        #expect(try pulling.installed() == publishing.contents(Publishing.v1))
        // Unless asked for.
        let (asked, askedJSON) = try pulling.pull(["--allow-rollback"])
        #expect(asked.status == 0 && askedJSON["outcome"] as? String == "installed" && askedJSON["version"] as? String == "1.1.0",
                "\(asked.stdout)\(asked.stderr)")
        #expect(store.loadState().rolledBackFrom == nil)
    }

    @Test func theVersionRolledBackFromIsHeldBackUntilANewerOneIsPublished() throws {
        let pulling = try Pulling.make()
        let publishing = pulling.publishing
        #expect(try pulling.pull().0.status == 0)
        #expect(try publishing.publish([Publishing.v2]).0.status == 0)
        #expect(try pulling.pull().0.status == 0)
        let store = BundleStore(folder: publishing.url("kiosk.mcpack"), link: publishing.url("kiosk"))
        #expect(try store.rollBack().lastPathComponent == "test-bundle-1.0.0")
        #expect(store.loadState().rolledBackFrom == "1.1.0")
        // As a person reads it: said, and exit 0.
        let plain = try publishing.run(["pull", pulling.server.url, "--into", "kiosk", "--public-key", "k.pub"])
        #expect(plain.status == 0 && plain.stdout.contains("held back: kiosk holds 1.0.0, rolled back to from 1.1.0"), "\(plain.stdout)\(plain.stderr)")
        #expect(plain.stderr.isEmpty, "\(plain.stderr)")

        // A second rollBack() goes forward again: nothing held back, and
        // the channel's newest is the current one.
        #expect(try store.rollBack().lastPathComponent == "test-bundle-1.1.0")
        #expect(store.loadState().rolledBackFrom == nil)
        #expect(try pulling.pull().1["outcome"] as? String == "current")
        try store.rollBack()

        // A newer version ends it: installed over the one rolled back to.
        try publishing.buildSecond(version: "1.2.0", translation: "To no one will we sell, or deny, or delay right or justice.")
        #expect(try publishing.publish(["dist/test-bundle-1.2.0.zip"]).0.status == 0)
        let (newer, newerJSON) = try pulling.pull()
        #expect(newer.status == 0 && newerJSON["outcome"] as? String == "installed" && newerJSON["version"] as? String == "1.2.0"
                && newerJSON["previousVersion"] as? String == "1.0.0", "\(newer.stdout)\(newer.stderr)")
        #expect(newerJSON["heldBack"] == nil)
        #expect(store.loadState().rolledBackFrom == nil)
        #expect(try pulling.installed() == publishing.contents("dist/test-bundle-1.2.0.zip"))
        #expect(try pulling.verifies())
    }

    /// A kill after the link switched and before the state was written (as
    /// `make pull-crash-safety`'s slowed mode lands one) leaves the new
    /// version current under the old state, its downloads kept: the next
    /// pull finds it current and finishes that update.
    @Test func anUpdateKilledAfterTheSwitchIsFinishedByTheNextPull() throws {
        let pulling = try Pulling.make()
        let publishing = pulling.publishing
        #expect(try pulling.pull().0.status == 0)
        #expect(try publishing.publish([Publishing.v2]).0.status == 0)
        #expect(try pulling.pull().0.status == 0)
        let store = BundleStore(folder: publishing.url("kiosk.mcpack"), link: publishing.url("kiosk"))
        var state = store.loadState()
        state.highestVersion = "1.0.0"
        state.rolledBackFrom = "1.1.0"
        try store.saveState(state)
        try FileManager.default.createDirectory(at: store.downloads, withIntermediateDirectories: true)
        try Data("partial".utf8).write(to: store.downloads.appendingPathComponent("0123.part"))

        let (again, json) = try pulling.pull()
        #expect(again.status == 0 && json["outcome"] as? String == "current" && json["version"] as? String == "1.1.0",
                "\(again.stdout)\(again.stderr)")
        #expect(store.loadState().highestVersion == "1.1.0")
        #expect(store.loadState().rolledBackFrom == nil)
        #expect(!FileManager.default.fileExists(atPath: store.downloads.path), "the interrupted update's downloads are left")
        #expect(try pulling.installed() == publishing.contents(Publishing.v2))
        #expect(try pulling.verifies())
    }

    /// A state.json written before `rolledBackFrom` existed still reads, as
    /// nothing rolled back, and keeps what it held.
    @Test func anOlderStateFileStillReads() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcpack-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let old = #"{"channel":"magna-carta","highestVersion":"1.1.0","indexSHA256":"ab","previous":"magna-carta-1.1.0","sequence":7}"#
        try Data(old.utf8).write(to: folder.appendingPathComponent("state.json"))
        let state = BundleStore(folder: folder).loadState()
        #expect(state == BundleStore.State(channel: "magna-carta", sequence: 7, indexSHA256: "ab", highestVersion: "1.1.0",
                                           previous: "magna-carta-1.1.0", rolledBackFrom: nil))
    }

    /// The bundle shipped inside the app, given as `localBundles` to a store
    /// with nothing installed: the first update fetches only what differs
    /// from it, as an update of an installed version would; a file of it
    /// whose bytes are not its manifest's is fetched, never used.
    @Test func aFirstUpdateReusesTheBundleShippedInTheApp() async throws {
        let publishing = try Publishing.make()
        #expect(try publishing.publish([Publishing.v2]).0.status == 0)
        let server = try WebServer(root: publishing.url("channel"))
        let pulling = Pulling(publishing: publishing, server: server)
        try #require(try publishing.shell("mkdir shipped && cd shipped && unzip -q ../\(Publishing.v1)").status == 0)
        let shipped = publishing.url("shipped/test-bundle-1.0.0")
        var options = UpdateOptions(channel: URL(string: server.url)!,
                                    trustedKeys: [try ChannelKey(minisignPublicKey: String(contentsOf: publishing.url("k.pub"), encoding: .utf8))])
        options.localBundles = [shipped]

        let v1 = try publishing.contents(Publishing.v1), v2 = try publishing.contents(Publishing.v2)
        let list = try #require(try publishing.index().version("1.1.0")).list
        let manifest = try #require(v2["manifest-sha256.txt"])
        let changed = Set(v2.values).subtracting(v1.values)
        #expect(changed.contains(manifest))
        let store = BundleStore(folder: publishing.url("app.mcpack"), link: publishing.url("app"))
        var mark = server.requests().count
        let result = try await BundleUpdater(store: store, options: options).update()
        #expect(result.outcome == .installed && result.version == "1.1.0" && result.previousVersion == nil)
        // The payload manifest too is made from the shipped one.
        let expected = Set(["index.json", "index.json.minisig", list.path] + changed.subtracting([manifest]).map(ChannelObject.path))
        #expect(Set(pulling.fetched(since: mark)) == expected)
        #expect(result.filesFetched == expected.count - 3 && result.filesReused > v2.count / 2, "\(result)")
        #expect(try pulling.installed("app") == v2)
        #expect(try publishing.run(["verify", "app"]).status == 0)

        // A damaged copy: one file unchanged since 1.0.0, its bytes changed
        // and its size kept, so only its SHA-256 tells.
        try #require(try publishing.shell("cp -R shipped/test-bundle-1.0.0 damaged").status == 0)
        let counts = Dictionary(grouping: v2.keys, by: { v2[$0]! })
        // A tile: the bundle still opens, and its manifest still offers it.
        let victim = try #require(v2.keys.sorted().first { $0.contains("_files/") && v1[$0] == v2[$0] && counts[v2[$0]!]!.count == 1 })
        var bytes = try Data(contentsOf: publishing.url("damaged/" + victim))
        bytes[bytes.count / 2] ^= 0x20
        try bytes.write(to: publishing.url("damaged/" + victim))
        options.localBundles = [publishing.url("damaged")]
        let second = BundleStore(folder: publishing.url("other.mcpack"), link: publishing.url("other"))
        mark = server.requests().count
        let repaired = try await BundleUpdater(store: second, options: options).update()
        #expect(repaired.outcome == .installed)
        #expect(Set(pulling.fetched(since: mark)) == expected.union([ChannelObject.path(v2[victim]!)]))
        #expect(try pulling.installed("other") == v2)
        #expect(try publishing.run(["verify", "other"]).status == 0)
        #expect(try Data(contentsOf: publishing.url("damaged/" + victim)) == bytes, "the damaged copy was written to")

        // The command's way to name it: a version handed over before.
        mark = server.requests().count
        let reused = try publishing.run(["pull", server.url, "--into", "kiosk", "--public-key", "k.pub", "--reuse", "shipped/test-bundle-1.0.0"])
        #expect(reused.status == 0, "\(reused.stderr)")
        #expect(Set(pulling.fetched(since: mark)) == expected)
        #expect(try pulling.installed() == v2)
        let notBag = try publishing.run(["pull", server.url, "--into", "elsewhere", "--public-key", "k.pub", "--reuse", "channel"])
        #expect(notBag.status == 2 && notBag.stderr.contains("--reuse channel: not an unpacked bag"), "\(notBag.stderr)")
    }

    @Test func anExpiredIndexAndAFullDiskAreRefusedBeforeAnyFile() async throws {
        let pulling = try Pulling.make()
        let publishing = pulling.publishing
        var options = UpdateOptions(channel: URL(string: pulling.server.url)!,
                                    trustedKeys: [try ChannelKey(minisignPublicKey: String(contentsOf: publishing.url("k.pub"), encoding: .utf8))])
        options.clockGrace = 86_400
        let store = BundleStore(folder: publishing.url("store"))
        let later = BundleUpdater(store: store, options: options, now: { Date().addingTimeInterval(32 * 86_400) }, freeSpace: { _ in nil })
        await #expect { try await later.update() } throws: { error in
            (error as? UpdateError)?.kind == .refused && "\(error)".contains("expired at")
        }
        let full = BundleUpdater(store: store, options: options, now: { Date() }, freeSpace: { _ in 10_000 })
        let mark = pulling.server.requests().count
        await #expect { try await full.update() } throws: { error in
            (error as? UpdateError)?.kind == .couldNotUpdate && "\(error)".contains("10000 bytes free")
        }
        // The list is read to know the size; no file of the bag is.
        #expect(pulling.fetched(since: mark).filter { $0.hasPrefix("objects/") }.count == 1)
        #expect(store.current == nil)
        let done = try await BundleUpdater(store: store, options: options).update()
        #expect(done.outcome == .installed && done.version == "1.0.0")
        #expect(try KioskBundle(folder: store.link).version == "1.0.0")
    }

    @Test func aCutConnectionResumesWhereItStopped() throws {
        let publishing = try Publishing.make(secondVersion: false)
        #expect(try publishing.publish([Publishing.v1]).0.status == 0)
        // Slow enough that every object takes seconds: one is partly there
        // whenever the cut comes.
        let slow = try WebServer(root: publishing.url("channel"), rate: 2_048)
        let process = Process()
        process.executableURL = MCPackBinary.url
        process.arguments = ["pull", slow.url, "--into", "kiosk", "--public-key", "k.pub"]
        process.currentDirectoryURL = publishing.root
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Cut once some object is partly there.
        let downloads = publishing.url("kiosk.mcpack/downloads")
        var partial = false
        for _ in 0..<400 where !partial {
            Thread.sleep(forTimeInterval: 0.05)
            let parts = ((try? FileManager.default.contentsOfDirectory(atPath: downloads.path)) ?? []).filter { $0.hasSuffix(".part") }
            partial = parts.contains { ((try? FileManager.default.attributesOfItem(atPath: downloads.appendingPathComponent($0).path))?[.size] as? Int ?? 0) > 0 }
        }
        slow.stop()
        process.waitUntilExit()
        #expect(partial)
        let parts = ((try? FileManager.default.contentsOfDirectory(atPath: downloads.path)) ?? []).filter {
            $0.hasSuffix(".part") && ((try? FileManager.default.attributesOfItem(atPath: downloads.appendingPathComponent($0).path))?[.size] as? Int ?? 0) > 0
        }
        try #require(!parts.isEmpty, "the cut left no partly fetched object to resume")
        #expect(process.terminationStatus == 2)
        #expect(!FileManager.default.fileExists(atPath: publishing.url("kiosk").path))

        let server = try WebServer(root: publishing.url("channel"))
        let result = try publishing.run(["pull", server.url, "--into", "kiosk", "--public-key", "k.pub"])
        #expect(result.status == 0, "\(result.stderr)")
        let resumed = Set(server.requests().filter { $0.status == 206 }.map { $0.path.split(separator: "/").last.map(String.init) ?? "" })
        #expect(parts.allSatisfy { resumed.contains(String($0.dropLast(".part".count))) }, "not resumed with a Range request: \(parts), 206 for \(resumed)")
        let pulling = Pulling(publishing: publishing, server: server)
        #expect(try pulling.installed() == publishing.contents(Publishing.v1))
        #expect(try pulling.verifies())
    }

    @Test func refusesBadArgumentsWithExitTwo() throws {
        let publishing = try Publishing.make(secondVersion: false)
        let noKey = try publishing.run(["pull", "http://127.0.0.1:9/", "--into", "kiosk"])
        #expect(noKey.status == 2 && noKey.stderr.contains("--public-key"))
        let notHTTP = try publishing.run(["pull", "channel", "--into", "kiosk", "--public-key", "k.pub"])
        #expect(notHTTP.status == 2 && notHTTP.stderr.contains("http://"))
        try FileManager.default.createDirectory(at: publishing.url("taken/x"), withIntermediateDirectories: true)
        let taken = try publishing.run(["pull", "http://127.0.0.1:9/", "--into", "taken", "--public-key", "k.pub"])
        #expect(taken.status == 2 && taken.stderr.contains("mcpack pull did not make"), "\(taken.stderr)")
        let unreachable = try publishing.run(["pull", "http://127.0.0.1:9/", "--into", "kiosk", "--public-key", "k.pub"])
        #expect(unreachable.status == 2, "\(unreachable.stderr)")
        #expect(FileManager.default.fileExists(atPath: publishing.url("taken/x").path))
    }
}

extension Publishing {
    func installedVersion(_ pulling: PullTests.Pulling) throws -> String? {
        BundleUpdater.version(of: url("kiosk"))
    }
}
