import FileIO
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// The POSIX file work behind `FileIO`, without the kit.
@Suite struct FileIOTests {
    @Test func outputFileAppearsOnlyWhenCommitted() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let final = folder.url.appendingPathComponent("out.zip")
        do {
            let file = OutputFile(final: final)
            #expect(file.temporary == OutputFile.temporary(for: final))
            #expect(file.temporary.lastPathComponent == ".out.zip\(OutputFile.marker)\(ProcessInfo.processInfo.processIdentifier)")
            try Data("half".utf8).write(to: file.temporary)
            #expect(!FileManager.default.fileExists(atPath: final.path))
            // Released uncommitted, as when a build fails.
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)

        let file = OutputFile(final: final)
        try Data("whole".utf8).write(to: file.temporary)
        try file.commit()
        #expect(try Data(contentsOf: final) == Data("whole".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["out.zip"])
    }

    /// As getcwd(3) gives a folder reached through a link (a Mac's /tmp and
    /// /var are links to /private/...), with a tail that does not exist yet
    /// (an output folder) kept as given.
    @Test func aCanonicalPathResolvesEveryLinkAndKeepsAMissingTail() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let real = folder.url.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: real.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("link"), withDestinationPath: real.path)
        let physical = FileSystem.canonical(real)
        #expect(FileSystem.canonical(URL(fileURLWithPath: folder.path("link/sub"))).path == physical.path + "/sub")
        #expect(FileSystem.canonical(URL(fileURLWithPath: folder.path("link/dist/out"))).path == physical.path + "/dist/out")
        #expect(FileSystem.canonical(URL(fileURLWithPath: folder.path("link/sub/../sub"))).path == physical.path + "/sub")
        #expect(!physical.path.contains("/link"))
    }

    @Test func aFailedWriteLeavesNothingAtTheFinalPath() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let final = folder.url.appendingPathComponent("sub/out.sha256")  // sub/ does not exist
        let error = #expect(throws: FileError.self) { try OutputFile.write(Data("x".utf8), to: final) }
        #expect(error?.path == final.path)
        #expect(!FileManager.default.fileExists(atPath: final.path))

        // A commit that cannot rename: the temporary was never made.
        let other = folder.url.appendingPathComponent("b.txt")
        #expect(throws: FileError.self) { try OutputFile(final: other).commit() }
        #expect(!FileManager.default.fileExists(atPath: other.path))

        try OutputFile.write(Data("y".utf8), to: other)
        #expect(try Data(contentsOf: other) == Data("y".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["b.txt"])
    }

    /// A temporary of a process that is gone is removed; this process's is not.
    @Test func abandonedTemporariesAreRemoved() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/sh")
        gone.arguments = ["-c", "exit 0"]
        try gone.run()
        gone.waitUntilExit()
        let dead = ".a.zip\(OutputFile.marker)\(gone.processIdentifier)"
        let mine = ".b.zip\(OutputFile.marker)\(ProcessInfo.processInfo.processIdentifier)"
        for name in [dead, mine, "c.zip", ".d.zip.partial-notapid"] {
            try Data().write(to: folder.url.appendingPathComponent(name))
        }
        #expect(OutputFile.removeAbandoned(in: folder.url) == [dead])
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path)) == [mine, "c.zip", ".d.zip.partial-notapid"])
    }

    @Test func chunkedReadsSeeEveryByte() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("f")
        let data = Data.pattern(FileChunks.readSize * 2 + 123)
        try data.write(to: URL(fileURLWithPath: path))
        var read = Data()
        var chunks = 0
        #expect(try FileChunks.read(path) { read.append(contentsOf: $0); chunks += 1 } == data.count)
        #expect(read == data && chunks == 3)

        var owned = Data()
        #expect(try FileChunks.readOwned(path, expected: 10) { owned.append($0) } == data.count)
        #expect(owned == data)

        let error = #expect(throws: FileError.self) { try FileChunks.read(folder.path("missing")) { _ in } }
        #expect(error?.path == folder.path("missing"))
        #expect(error?.message.hasPrefix("cannot open for reading") == true)
    }

    /// A bag's files are read through one buffer a worker, as regular
    /// files only: a FIFO or a device in a listed file's place is refused
    /// at once, where opening a FIFO with no writer would wait for ever.
    @Test func readsOfRegularFilesRefuseTheRestWithoutWaiting() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("f")
        let data = Data.pattern(300)
        try data.write(to: URL(fileURLWithPath: path))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 128, alignment: 16)
        defer { buffer.deallocate() }
        var read = Data()
        #expect(try FileChunks.read(regular: path, through: buffer) { read.append(contentsOf: $0) } == data.count)
        #expect(read == data)

        let fifo = folder.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        for other in [fifo, "/dev/null"] {
            let error = #expect(throws: FileError.self) { try FileChunks.read(regular: other, through: buffer) { _ in } }
            #expect(error?.path == other)
            #expect(error?.message == "not a regular file")
        }
    }

    @Test func positionedReads() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("f")
        try Data("0123456789".utf8).write(to: URL(fileURLWithPath: path))
        let file = try FileReader(path: path)
        #expect(file.size == 10)
        #expect(file.read(at: 3, count: 4) == Array("3456".utf8))
        #expect(file.read(at: 8, count: 2) == Array("89".utf8))
        #expect(file.read(at: 8, count: 3) == nil)
        #expect(file.read(at: 100, count: 1) == nil)
        #expect(file.read(at: 0, count: 0) == [])
    }

    @Test func fileWriterWritesAndSyncs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("w")
        do {
            let writer = try FileWriter(path: path)
            try Data("abc".utf8).withUnsafeBytes { try writer.write($0) }
            try Data.pattern(100_000).withUnsafeBytes { try writer.write($0) }
            try writer.sync()
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("abc".utf8) + Data.pattern(100_000))
        #expect(throws: FileError.self) { try FileWriter(path: folder.path("no/such/folder")) }
    }

    @Test func regularFilesAreListedInByteOrder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for name in ["b/z.txt", "b/a/1.txt", "B.txt", "a.txt", "é.txt", ".hidden"] {
            let url = folder.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data().write(to: url)
        }
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("empty"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("link"), withDestinationPath: "a.txt")
        #expect(try FileSystem.regularFiles(under: folder.url) == [".hidden", "B.txt", "a.txt", "b/a/1.txt", "b/z.txt", "é.txt"])
        #expect(throws: FileError.self) { try FileSystem.regularFiles(under: folder.url.appendingPathComponent("missing")) }

        try FileSystem.removeFile(folder.path("a.txt"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("a.txt")))
        let error = #expect(throws: FileError.self) { try FileSystem.removeFile(folder.path("a.txt")) }
        #expect(error?.message.hasPrefix("cannot remove") == true)
    }

    @Test func entriesAreWhatLstatSays() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (name, size) in [("a.txt", 3), ("b/c/d.bin", 1000), ("é.txt", 0)] {
            let url = folder.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(repeating: 7, count: size).write(to: url)
        }
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("empty"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("to-file"), withDestinationPath: "a.txt")
        try FileManager.default.createSymbolicLink(atPath: folder.path("b/to-folder"), withDestinationPath: "..")
        #expect(mkfifo(folder.path("pipe"), 0o600) == 0)
        // Names that are not UTF-8: a file, and a folder not walked into.
        for name: [UInt8] in [[0x62, 0x61, 0x64, 0xFF], [0x64, 0x69, 0x72, 0xC3]] {
            let path = Array(folder.url.path.utf8) + [0x2F] + name
            let made = path.withUnsafeBufferPointer { bytes in
                (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { name == [0x62, 0x61, 0x64, 0xFF] ? open($0.baseAddress!, O_CREAT | O_WRONLY, 0o600) : mkdir($0.baseAddress!, 0o700) }
            }
            #expect(made >= 0)
            if name == [0x62, 0x61, 0x64, 0xFF] { close(made) }
        }

        func described(_ entry: FileSystem.Entry?) -> String? { entry.map { "\($0.path) \($0.kind) \($0.size)" } }
        #expect(FileSystem.entries(under: folder.url.path).compactMap(described).sorted() == [
            "a.txt regular 3", "b/c/d.bin regular 1000", "b/to-folder symbolicLink 0", "bad\\xFF notUTF8 0", "dir\\xC3 notUTF8 0", "pipe other 0",
            "to-file symbolicLink 0", "é.txt regular 0",
        ])
        // The same, in order (the list above is in the byte order of its UTF-8).
        #expect(FileSystem.entriesInOrder(under: folder.url.path).compactMap(described) == [
            "a.txt regular 3", "b/c/d.bin regular 1000", "b/to-folder symbolicLink 0", "bad\\xFF notUTF8 0", "dir\\xC3 notUTF8 0", "pipe other 0",
            "to-file symbolicLink 0", "é.txt regular 0",
        ])
        #expect(described(FileSystem.entry("b/c/d.bin", under: folder.url.path)) == "b/c/d.bin regular 1000")
        #expect(FileSystem.entry("b", under: folder.url.path) == nil)
        #expect(FileSystem.entry("missing", under: folder.url.path) == nil)
        #expect(FileSystem.entries(under: folder.path("missing")).isEmpty)
    }

    @Test func entriesInOrderAreInTheByteOrderOfTheirPaths() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A folder sorts as its name and "/": "a-b" ("-") and "a.txt" (".")
        // before the folder a's files, "a0" ("0") after them.
        var made = ["Z", "a-b", "a.txt", "a/x", "a/y/z", "a0", "b/a", "é"]
        // More files in one folder than one thread is asked to lstat, each
        // of its own size, so that a size given to another name shows.
        made += (0..<700).map { "many/f\($0)" }
        for name in made {
            let url = folder.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(repeating: 1, count: name.hasPrefix("many/f") ? Int(name.dropFirst("many/f".count))! : 1).write(to: url)
        }
        let listed = FileSystem.entriesInOrder(under: folder.url.path)
        #expect(listed.map(\.path) == made.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(listed.prefix(7).map(\.path) == ["Z", "a-b", "a.txt", "a/x", "a/y/z", "a0", "b/a"])
        #expect(listed.last?.path == "é")
        let wrongSizes = listed.filter { $0.path.hasPrefix("many/f") && $0.size != Int64($0.path.dropFirst("many/f".count))! }
        #expect(wrongSizes.isEmpty)
        // The same entries as the unordered listing.
        #expect(Set(listed.map(\.path)) == Set(FileSystem.entries(under: folder.url.path).map(\.path)))
        #expect(FileSystem.entriesInOrder(under: folder.path("missing")).isEmpty)
    }

    @Test func aSilentAgentTimesOutNamingItsSocket() throws {
        let path = Self.socketPath()
        let server = try listeningSocket(path)
        defer { close(server); unlink(path) }
        // The connection waits in the backlog, never answered.
        let error = #expect(throws: FileError.self) { try UnixSocket.exchange(path: path, message: [11], timeout: 1) }
        #expect(error?.description == "\(path): no reply from the agent on this socket within 1 s")
    }

    @Test func anAgentClosingEarlyIsAnErrorNotSIGPIPE() throws {
        let path = Self.socketPath()
        let server = try listeningSocket(path)
        defer { close(server); unlink(path) }
        let closer = Thread { let peer = accept(server, nil, nil); if peer >= 0 { close(peer) } }
        closer.start()
        // More than a socket buffer holds: the write is still going when the peer closes.
        let error = #expect(throws: FileError.self) { try UnixSocket.exchange(path: path, message: [UInt8](repeating: 1, count: 8 << 20), timeout: 5) }
        #expect(error?.path == path)
    }

    /// Under /tmp, not the temporary folder: a Mac's is deep under
    /// /var/folders, past the 104 bytes of sun_path.
    private static func socketPath() -> String { "/tmp/mcpack-agent-\(UInt32.random(in: 0...UInt32.max)).sock" }

    private func listeningSocket(_ path: String) throws -> Int32 {
        #if os(Linux)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // Checked first: copying a longer path into sun_path traps.
        try #require(path.utf8.count < MemoryLayout.size(ofValue: address.sun_path), "\(path) is too long for a socket's address")
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8))
            raw[path.utf8.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(fd >= 0 && bound == 0 && listen(fd, 4) == 0)
        return fd
    }
}
