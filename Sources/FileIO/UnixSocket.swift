import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A message exchanged over a Unix domain socket, framed as SSH's agent
/// protocol frames them (a big-endian uint32 length, then the bytes): what
/// signing through ssh-agent needs, and nothing more.
public enum UnixSocket {
    /// Sends `message` to the socket at `path` and returns the one reply.
    /// A peer that does not answer within `timeout` seconds is an error, not
    /// a hang: a stuck agent must not freeze a build.
    public static func exchange(path: String, message: [UInt8], timeout: Int = 30) throws -> [UInt8] {
        #if os(Linux)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw FileError(path: path, message: "cannot make a socket: \(lastSystemMessage())") }
        defer { close(fd) }
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        guard setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            throw FileError(path: path, message: "cannot set the socket's read timeout: \(lastSystemMessage())")
        }
        #if !os(Linux)
        // Darwin has no MSG_NOSIGNAL: a peer that closes early must give EPIPE, not kill us.
        var on: Int32 = 1
        guard setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw FileError(path: path, message: "cannot set SO_NOSIGPIPE: \(lastSystemMessage())")
        }
        #endif
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw FileError(path: path, message: "the socket's path is too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw FileError(path: path, message: "cannot connect: \(lastSystemMessage())") }
        let count = UInt32(message.count)
        try writeAll(fd, [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)] + message, path: path)
        let header = try readExactly(fd, 4, path: path, timeout: timeout)
        let length = header.reduce(0) { $0 << 8 | Int($1) }
        guard length <= 1 << 20 else { throw FileError(path: path, message: "a reply of \(length) bytes; not an agent's") }
        return try readExactly(fd, length, path: path, timeout: timeout)
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
        var sent = 0
        while sent < bytes.count {
            // send() with MSG_NOSIGNAL so a peer that closes early gives EPIPE, not SIGPIPE.
            #if os(Linux)
            let written = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            let written = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            #endif
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw FileError(path: path, message: "cannot write: \(lastSystemMessage())") }
            sent += written
        }
    }

    private static func readExactly(_ fd: Int32, _ count: Int, path: String, timeout: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = out[got...].withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                throw FileError(path: path, message: "no reply from the agent on this socket within \(timeout) s")
            }
            guard n > 0 else { throw FileError(path: path, message: n == 0 ? "the other end closed the connection" : "cannot read: \(lastSystemMessage())") }
            got += n
        }
        return out
    }
}
