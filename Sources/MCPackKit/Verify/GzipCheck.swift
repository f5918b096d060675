import CZlib
import Foundation

/// The gzip trailer of a .tar.gz: its CRC-32 and length. libarchive's gzip
/// reader skips them, so a damaged trailer passed verify while `gzip -t` and
/// tar refuse the file (the corruption campaign found it). zlib checks both
/// when it inflates; this runs on a second core beside the entry stream.
enum GzipCheck {
    static func isGzip(_ path: String) -> Bool {
        FileHandle(forReadingAtPath: path).flatMap { try? $0.read(upToCount: 2) } == Data([0x1F, 0x8B])
    }

    static func check(_ path: String) -> Problem? {
        let name = (path as NSString).lastPathComponent
        func problem(_ message: String) -> Problem { Problem(name, "gzip-stream", message + "; gzip -t and tar refuse it") }

        var stream = z_stream()
        // windowBits 15 + 16: a gzip wrapper, whose trailer zlib checks.
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return problem("zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: 1 << 18)
        var ended = false
        var found: Problem?
        do {
            _ = try FileChunks.read(path) { chunk in
                var input = UnsafeMutableRawBufferPointer(mutating: chunk)
                while !input.isEmpty {
                    if ended {
                        // Another member may follow (gzip allows it); anything else is not gzip.
                        guard input.first == 0x1F else {
                            found = problem("holds bytes after the end of the gzip stream")
                            throw CancellationError()
                        }
                        inflateReset(&stream)
                        ended = false
                    }
                    stream.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                    stream.avail_in = uInt(input.count)
                    let status = output.withUnsafeMutableBufferPointer { out -> Int32 in
                        stream.next_out = out.baseAddress
                        stream.avail_out = uInt(out.count)
                        return inflate(&stream, Z_NO_FLUSH)
                    }
                    let used = input.count - Int(stream.avail_in)
                    if used == 0 && Int(stream.avail_out) == output.count && status != Z_STREAM_END {
                        found = problem("the gzip stream is damaged (zlib makes no progress)")
                        throw CancellationError()
                    }
                    input = UnsafeMutableRawBufferPointer(rebasing: input[used...])
                    switch status {
                    case Z_STREAM_END: ended = true
                    case Z_OK, Z_BUF_ERROR: break
                    default:
                        let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                        found = problem("the gzip stream is damaged (zlib: \(reason))")
                        throw CancellationError()
                    }
                }
            }
        } catch is CancellationError {
            return found
        } catch {
            return problem("cannot be read to check (\(error))")
        }
        return ended ? nil : problem("the gzip stream ends early")
    }
}
