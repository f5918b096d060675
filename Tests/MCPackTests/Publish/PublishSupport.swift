import Foundation
import MCPackSchema
import Testing

/// A small project with two versions built, 1.0.0 and 1.1.0 (clause 40's
/// translation edited), a minisign key pair, and channels in its folder.
struct Publishing {
    let project: TestProject
    static let v1 = "dist/test-bundle-1.0.0.zip"
    static let v2 = "dist/test-bundle-1.1.0.zip"

    var root: URL { project.root }
    func url(_ relative: String) -> URL { project.url(relative) }

    static func make(secondVersion: Bool = true) throws -> Publishing {
        let found = try MCPackBinary.tool("sh", ["-c", "command -v minisign"], in: URL(fileURLWithPath: "/"))
        try #require(found.status == 0, "minisign is missing: scripts/install-deps.sh --test installs it")
        let publishing = Publishing(project: try TestProject.make())
        let made = try publishing.shell("minisign -G -W -p k.pub -s k.key")
        try #require(made.status == 0, "\(made.stdout)")
        let first = try publishing.run(["build"])
        try #require(first.status == 0, "\(first.stderr)")
        if secondVersion { try publishing.buildSecond() }
        return publishing
    }

    /// 1.1.0: one clause's translation edited, nothing else.
    func buildSecond(version: String = "1.1.0", translation: String = "To no one will we sell, deny or delay right or justice.") throws {
        try project.edit("bundle.toml", #"version = "1.0.0""#, #"version = "\#(version)""#)
        try project.edit("assets/clauses.toml", "To no one will we sell, to no one deny or delay right or justice.", translation)
        let built = try run(["build"])
        try #require(built.status == 0, "\(built.stderr)")
        try project.edit("bundle.toml", #"version = "\#(version)""#, #"version = "1.0.0""#)
        try project.edit("assets/clauses.toml", translation, "To no one will we sell, to no one deny or delay right or justice.")
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> RunResult {
        try MCPackBinary.run(arguments, in: root, environment: environment)
    }

    /// `mcpack publish ARGUMENTS --channel CHANNEL --sign-key k.key --json`,
    /// its JSON object (on success).
    func publish(_ arguments: [String], channel: String = "channel", key: String = "k.key") throws -> (RunResult, [String: Any]) {
        let result = try run(["publish"] + arguments + ["--channel", channel, "--sign-key", key, "--json"])
        let object = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any] ?? [:]
        return (result, object)
    }

    func shell(_ command: String) throws -> RunResult {
        try MCPackBinary.tool("sh", ["-c", command], in: root)
    }

    func index(_ channel: String = "channel") throws -> ChannelIndex {
        try ChannelIndex.decode(try Data(contentsOf: url(channel + "/index.json")))
    }

    func list(_ version: ChannelIndex.Version, channel: String = "channel") throws -> ChannelFileList {
        try ChannelFileList.decode(try Data(contentsOf: url(channel + "/" + version.list.path)), for: version)
    }

    /// The channel's objects, relative to it.
    func objects(_ channel: String = "channel") -> Set<String> {
        let folder = url(channel + "/objects")
        let found = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return Set(found.filter { !$0.hasSuffix("/") && $0.contains("/") }.map { "objects/" + $0 })
    }

    /// minisign's own verdict on the channel's index and its signature.
    func minisign(_ channel: String = "channel", key: String = "k.pub") throws -> RunResult {
        try shell("minisign -V -p \(key) -m \(channel)/index.json")
    }

    /// Every file of an archive and its SHA-256, by path inside the bag,
    /// from unzip and sha256sum: nothing of mcpack's.
    func contents(_ archive: String) throws -> [String: String] {
        let folder = "unzipped-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(at: url(folder)) }
        let unzipped = try shell("mkdir \(folder) && cd \(folder) && unzip -q ../\(archive) && find . -type f -print0 | xargs -0 sha256sum")
        try #require(unzipped.status == 0, "\(unzipped.stdout)")
        var files: [String: String] = [:]
        for line in unzipped.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            // "./test-bundle-1.0.0/data/x": the top folder dropped.
            let path = parts[1].trimmingCharacters(in: .whitespaces).split(separator: "/", maxSplits: 2)[2]
            files[String(path)] = String(parts[0])
        }
        return files
    }
}

extension Publishing {
    /// Whether the channel is one a reader would accept: minisign admits
    /// the index, and every object each version names (its list, its
    /// files) is there with the SHA-256 of its name, by sha256sum. Nil when
    /// valid, else what is wrong.
    func problem(_ channel: String = "channel") throws -> String? {
        let checked = try minisign(channel)
        guard checked.status == 0 else { return "minisign: \(checked.stdout)" }
        let index = try self.index(channel)
        var named: [String: Int64] = [:]
        for version in index.versions {
            named[version.list.path] = version.list.size
            for file in try list(version, channel: channel).all { named[file.object.path] = file.size }
        }
        let sums = try shell("cd \(channel) && sha256sum \(named.keys.sorted().joined(separator: " "))")
        guard sums.status == 0 else { return "sha256sum: \(sums.stdout)" }
        for line in sums.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2, parts[1].hasSuffix("/" + parts[0]) else { return "object \(line) is not named by its SHA-256" }
        }
        return nil
    }
}
