import Foundation
import MCPackSchema
import Testing

/// `mcpack publish` end to end: the channel it writes held against
/// minisign, sha256sum and unzip, which know nothing of mcpack.
@Suite struct PublishTests {
    @Test func aSecondVersionAddsOnlyTheFilesThatChanged() throws {
        let publishing = try Publishing.make()
        defer { publishing.project.destroy() }
        let v1 = try publishing.contents(Publishing.v1), v2 = try publishing.contents(Publishing.v2)

        let (first, one) = try publishing.publish([Publishing.v1])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(one["outcome"] as? String == "published")
        // Every distinct content once, and the file list.
        #expect(one["objectsWritten"] as? Int == Set(v1.values).count + 1)
        #expect(one["objectsReused"] as? Int == v1.count - Set(v1.values).count)

        let (second, two) = try publishing.publish([Publishing.v2])
        #expect(second.status == 0, "\(second.stderr)")
        let changed = Set(v2.values).subtracting(v1.values)
        // The clause edit reaches clauses.json, bundle.json (its version and
        // the clauses' digest), the preview's data, bag-info.txt and the two
        // manifests; no tile and no icon.
        #expect(!changed.isEmpty && changed.count < 10, "\(v2.filter { changed.contains($0.value) }.keys.sorted())")
        #expect(v2.filter { changed.contains($0.value) }.keys.allSatisfy { !$0.contains("_files/") && !$0.hasSuffix(".png") })
        #expect(two["objectsWritten"] as? Int == changed.count + 1)
        #expect(two["objectsReused"] as? Int == v2.count - changed.count)
        #expect(two["bytesWritten"] as? Int ?? 0 > 0)
        #expect(publishing.objects().count == Set(v1.values).union(v2.values).count + 2)

        // The index: both versions, oldest first, each list naming exactly
        // the archive's files; sequence 2.
        let index = try publishing.index()
        #expect(index.name == "test-bundle" && index.sequence == 2)
        #expect(index.versions.map(\.version) == ["1.0.0", "1.1.0"])
        #expect(index.versions.map(\.top) == ["test-bundle-1.0.0", "test-bundle-1.1.0"])
        for (version, files) in zip(index.versions, [v1, v2]) {
            let list = try publishing.list(version)
            #expect(Dictionary(uniqueKeysWithValues: list.all.map { ($0.path, $0.sha256) }) == files)
            #expect(list.all.allSatisfy { $0.path.hasPrefix("data/") == list.files.contains($0) })
            #expect(version.files == files.count)
        }
        // Written by the kit's one writer: decoding and encoding again gives the same bytes.
        #expect(index.encoded() == (try Data(contentsOf: publishing.url("channel/index.json"))))

        // minisign checks the legacy signature and shows the trusted comment.
        let checked = try publishing.minisign()
        #expect(checked.status == 0, "\(checked.stdout)")
        #expect(checked.stdout.contains("Trusted comment: channel:test-bundle sequence:2 expires:\(index.expires)"), "\(checked.stdout)")
        let signature = try String(contentsOf: publishing.url("channel/index.json.minisig"), encoding: .utf8)
        #expect(Data(base64Encoded: String(signature.split(separator: "\n")[1]))?.prefix(2) == Data("Ed".utf8))
        // minisign's own legacy signature (-l) with the same comments is the
        // same bytes (Ed25519 is deterministic): the format is minisign's.
        let lines = signature.split(separator: "\n").map(String.init)
        let theirs = try publishing.shell("minisign -S -l -s k.key -m channel/index.json -x theirs.minisig -c '\(lines[0].dropFirst("untrusted comment: ".count))' -t '\(lines[2].dropFirst("trusted comment: ".count))' </dev/null")
        #expect(theirs.status == 0, "\(theirs.stdout)")
        #expect(try String(contentsOf: publishing.url("theirs.minisig"), encoding: .utf8) == signature)

        // Every object's name is its SHA-256, as sha256sum sees it.
        let sums = try publishing.shell("cd channel && find objects -type f -print0 | xargs -0 sha256sum")
        #expect(sums.status == 0)
        for line in sums.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            #expect(parts[1].hasSuffix("/" + parts[0]) && parts[1].hasPrefix("objects/\(parts[0].prefix(2))/"), "\(line)")
        }
        #expect(sums.stdout.split(separator: "\n").count == publishing.objects().count)
        // Nothing else in the channel but its lock.
        let names = try FileManager.default.contentsOfDirectory(atPath: publishing.url("channel").path).sorted()
        #expect(names == [".lock", "index.json", "index.json.minisig", "objects"])
    }

    @Test func textOutputSaysWhatWasWritten() throws {
        let publishing = try Publishing.make(secondVersion: false)
        defer { publishing.project.destroy() }
        let result = try publishing.run(["publish", Publishing.v1, "--channel", "channel", "--sign-key", "k.key", "--expires", "12h"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("published 1.0.0 to channel: "), "\(result.stdout)")
        #expect(result.stdout.contains("index: sequence 1, expires "), "\(result.stdout)")
        let index = try publishing.index()
        let lifetime = ChannelTime.parse(index.expires)!.timeIntervalSince(ChannelTime.parse(index.published)!)
        #expect(lifetime == 12 * 3600)
    }

    @Test func pruneKeepsTheNewestAndRemovesWhatOnlyTheOthersNamed() throws {
        let publishing = try Publishing.make()
        defer { publishing.project.destroy() }
        #expect(try publishing.publish([Publishing.v1]).0.status == 0)
        #expect(try publishing.publish([Publishing.v2]).0.status == 0)
        let before = try publishing.index()
        let (pruned, json) = try publishing.publish(["--prune", "1"])
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(json["outcome"] as? String == "pruned")
        #expect(json["pruned"] as? [String] == ["1.0.0"])

        let index = try publishing.index()
        #expect(index.sequence == 3 && index.versions == [before.versions[1]])
        // What is left is exactly what 1.1.0 names: its files and its list.
        let list = try publishing.list(index.versions[0])
        #expect(publishing.objects() == Set(list.all.map(\.object.path) + [index.versions[0].list.path]))
        #expect(json["objectsRemoved"] as? Int == Set(try publishing.contents(Publishing.v1).values).subtracting(try publishing.contents(Publishing.v2).values).count + 1)
        #expect(try publishing.minisign().status == 0)

        // Nothing more to prune: the index stays as it is.
        let (again, nothing) = try publishing.publish(["--prune", "1"])
        #expect(again.status == 0)
        #expect(nothing["outcome"] as? String == "unchanged")
        #expect(try publishing.index().sequence == 3)
    }

    @Test func renewSignsAgainWithALaterExpiryAndChangesNothingElse() throws {
        let publishing = try Publishing.make(secondVersion: false)
        defer { publishing.project.destroy() }
        #expect(try publishing.publish([Publishing.v1, "--expires", "7d"]).0.status == 0)
        let before = try publishing.index()
        let objects = publishing.objects()
        let (renewed, json) = try publishing.publish(["--renew", "--expires", "30d"])
        #expect(renewed.status == 0, "\(renewed.stderr)")
        #expect(json["outcome"] as? String == "renewed")
        let after = try publishing.index()
        #expect(after.sequence == before.sequence + 1)
        #expect(ChannelTime.parse(after.expires)! > ChannelTime.parse(before.expires)!)
        #expect(after.versions == before.versions && after.published == before.published && after.name == before.name)
        #expect(publishing.objects() == objects)
        let checked = try publishing.minisign()
        #expect(checked.status == 0 && checked.stdout.contains("sequence:2 expires:\(after.expires)"), "\(checked.stdout)")
    }

    @Test func anArchiveThatDoesNotVerifyIsRefusedWithEveryProblem() throws {
        let publishing = try Publishing.make(secondVersion: false)
        defer { publishing.project.destroy() }
        // A tile's bytes changed where the zip keeps them: its CRC and the
        // manifest both disagree now, and the .sha256 beside it.
        var bytes = try Data(contentsOf: publishing.url(Publishing.v1))
        let tile = try #require(bytes.range(of: Data("_files/10/0_0.jpeg".utf8)))
        bytes[tile.upperBound + 200] ^= 0xFF
        try bytes.write(to: publishing.url(Publishing.v1))
        let result = try publishing.run(["publish", Publishing.v1, "--channel", "channel", "--sign-key", "k.key"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("archive-checksum"), "\(result.stderr)")
        #expect(result.stderr.contains("does not verify: nothing was published"))
        #expect(result.stderr.contains("refused: channel is unchanged."))
        #expect(!FileManager.default.fileExists(atPath: publishing.url("channel").path))

        let json = try publishing.publish([Publishing.v1]).1
        #expect(json["ok"] as? Bool == false)
        #expect((json["problems"] as? [[String: Any]])?.count ?? 0 >= 2)
    }

    @Test func aVersionPublishedAgainIsNothingToDoUnlessItsFilesChanged() throws {
        let publishing = try Publishing.make(secondVersion: false)
        defer { publishing.project.destroy() }
        #expect(try publishing.publish([Publishing.v1]).0.status == 0)
        let index = try Data(contentsOf: publishing.url("channel/index.json"))
        let objects = publishing.objects()

        let (same, json) = try publishing.publish([Publishing.v1])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(json["outcome"] as? String == "unchanged" && json["objectsWritten"] as? Int == 0)
        let text = try publishing.run(["publish", Publishing.v1, "--channel", "channel", "--sign-key", "k.key"])
        #expect(text.stdout.contains("unchanged: channel already holds 1.0.0 with the same files; nothing written"), "\(text.stdout)")

        // 1.0.0 rebuilt with a clause changed: refused, naming what
        // differs, and nothing written.
        try publishing.project.edit("assets/clauses.toml", "Still law in England.", "Still law in England and Wales.")
        #expect(try publishing.run(["build", "--overwrite"]).status == 0)
        let changed = try publishing.run(["publish", Publishing.v1, "--channel", "channel", "--sign-key", "k.key"])
        #expect(changed.status == 1)
        #expect(changed.stderr.contains("version 1.0.0 is already in the channel with other files ("), "\(changed.stderr)")
        #expect(changed.stderr.contains("data/clauses.json"), "\(changed.stderr)")
        #expect(changed.stderr.contains("a published version never changes"))
        #expect(try Data(contentsOf: publishing.url("channel/index.json")) == index)
        #expect(publishing.objects() == objects)
    }

    @Test func keyProblemsStopBeforeAnythingIsWritten() throws {
        let publishing = try Publishing.make(secondVersion: false)
        defer { publishing.project.destroy() }
        let missing = try publishing.run(["publish", Publishing.v1, "--channel", "channel", "--sign-key", "gone.key"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("gone.key: --sign-key: no such file"), "\(missing.stderr)")

        let publicKey = try publishing.run(["publish", Publishing.v1, "--channel", "channel", "--sign-key", "k.pub"])
        #expect(publicKey.status == 2)
        #expect(publicKey.stderr.contains("k.pub: a minisign public key: sign with the secret key"), "\(publicKey.stderr)")

        // An encrypted key (minisign's default scrypt parameters), the wrong password.
        let made = try publishing.shell("printf 'horse battery\\nhorse battery\\n' | minisign -G -p e.pub -s e.key")
        try #require(made.status == 0, "\(made.stdout)")
        let wrong = try publishing.run(["publish", Publishing.v1, "--channel", "channel", "--sign-key", "e.key"],
                                       environment: ["MCPACK_KEY_PASSWORD": "horse staple"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("e.key: wrong password"), "\(wrong.stderr)")
        #expect(!FileManager.default.fileExists(atPath: publishing.url("channel").path))

        // The right one signs an index minisign accepts.
        let right = try publishing.run(["publish", Publishing.v1, "--channel", "channel", "--sign-key", "e.key"],
                                       environment: ["MCPACK_KEY_PASSWORD": "horse battery"])
        #expect(right.status == 0, "\(right.stderr)")
        #expect(try publishing.minisign(key: "e.pub").status == 0)

        // Then another key may not sign this channel: kiosks trust e.pub.
        try publishing.buildSecond()
        let other = try publishing.run(["publish", Publishing.v2, "--channel", "channel", "--sign-key", "k.key"])
        #expect(other.status == 1)
        #expect(other.stderr.contains("channel/index.json.minisig: channel: signed by minisign key"), "\(other.stderr)")
        #expect(other.stderr.contains("kiosks that trust"))

        // An OpenSSH key cannot sign a channel.
        #expect(try publishing.shell("ssh-keygen -q -t ed25519 -N '' -f ssh.key").status == 0)
        let ssh = try publishing.run(["publish", Publishing.v1, "--channel", "channel", "--sign-key", "ssh.key"])
        #expect(ssh.status == 2)
        #expect(ssh.stderr.contains("ssh.key: an OpenSSH key: a channel is signed with a minisign secret key"), "\(ssh.stderr)")
    }

    @Test func usageMistakesExitTwo() throws {
        let publishing = try Publishing.make(secondVersion: false)
        defer { publishing.project.destroy() }
        for (arguments, message) in [
            (["--channel", "c", "--sign-key", "k.key"], "give an archive to publish, --prune KEEP or --renew"),
            ([Publishing.v1, "--channel", "c", "--sign-key", "k.key", "--expires", "soon"], "--expires soon: give a whole number"),
            ([Publishing.v1, "--channel", "c", "--sign-key", "k.key", "--prune", "0"], "--prune 0: keep at least one version"),
            ([Publishing.v1, "--channel", "c", "--sign-key", "k.key", "--renew"], "--renew re-signs the index alone"),
            (["--renew", "--channel", "c", "--sign-key", "k.key"], "c/index.json: no such file: c is not a channel yet"),
        ] {
            let result = try publishing.run(["publish"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
    }

    @Test func anIndexThatDoesNotMatchItsSignatureIsADamagedChannel() throws {
        let publishing = try Publishing.make(secondVersion: false)
        defer { publishing.project.destroy() }
        #expect(try publishing.publish([Publishing.v1]).0.status == 0)
        let index = publishing.url("channel/index.json"), signature = publishing.url("channel/index.json.minisig")
        let original = try Data(contentsOf: index), signed = try Data(contentsOf: signature)
        func renew() throws -> RunResult { try publishing.run(["publish", "--renew", "--channel", "channel", "--sign-key", "k.key"]) }

        // The expiry moved by hand, as if to keep a channel alive unsigned.
        try Data(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "\"expires\" : \"2", with: "\"expires\" : \"3").utf8).write(to: index)
        var result = try renew()
        #expect(result.status == 1)
        #expect(result.stderr.contains("channel/index.json: channel: does not match its signature index.json.minisig: the channel is damaged"), "\(result.stderr)")

        // A signature cut short.
        try original.write(to: index)
        try Data(String(decoding: signed, as: UTF8.self).split(separator: "\n").prefix(2).joined(separator: "\n").utf8).write(to: signature)
        result = try renew()
        #expect(result.status == 1)
        #expect(result.stderr.contains("channel/index.json.minisig: channel: line 3: the trusted comment is missing"), "\(result.stderr)")

        // No signature at all.
        try FileManager.default.removeItem(at: signature)
        result = try renew()
        #expect(result.status == 1)
        #expect(result.stderr.contains("channel/index.json.minisig: channel: missing"), "\(result.stderr)")
        #expect(try Data(contentsOf: index) == original)

        // Put back, the channel renews.
        try signed.write(to: signature)
        #expect(try renew().status == 0)
        #expect(try publishing.problem() == nil)
    }

    @Test func aDamagedObjectIsReportedAndNeverOverwritten() throws {
        let publishing = try Publishing.make()
        defer { publishing.project.destroy() }
        #expect(try publishing.publish([Publishing.v1]).0.status == 0)
        // A tile 1.1.0 shares with 1.0.0, its bytes changed in the channel.
        let list = try publishing.list(try publishing.index().versions[0])
        let tile = try #require(list.files.first { $0.path.hasSuffix("0_0.jpeg") })
        let object = publishing.url("channel/" + tile.object.path)
        var bytes = try Data(contentsOf: object)
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: object)
        let objects = publishing.objects()

        let result = try publishing.run(["publish", Publishing.v2, "--channel", "channel", "--sign-key", "k.key"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("channel/\(tile.object.path): channel-object: holds bytes whose SHA-256 is"), "\(result.stderr)")
        #expect(result.stderr.contains("the channel is damaged (move the file away, then publish again an archive that holds data/"))
        #expect(try Data(contentsOf: object) == bytes)
        #expect(publishing.objects() == objects)
        #expect(try publishing.index().sequence == 1)

        // Moved away as the message says, 1.0.0 published again writes it anew.
        try FileManager.default.moveItem(at: object, to: publishing.url("damaged-object"))
        let (restored, json) = try publishing.publish([Publishing.v1])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(json["outcome"] as? String == "unchanged" && json["objectsWritten"] as? Int == 1, "\(json)")
        #expect(try publishing.problem() == nil)
        #expect(try publishing.publish([Publishing.v2]).0.status == 0)
        #expect(try publishing.problem() == nil)
    }
}
