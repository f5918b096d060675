import CZlib
import FileIO
import Foundation

/// A gzip file's whole stream checked through zlib, trailer included: its
/// CRC-32 and length. libarchive's gzip reader skips the trailer, so a
/// damaged one passes it while `gzip -t` and tar refuse the file.
public enum GzipStream {
    /// What is wrong with the gzip stream in `path`, or nil if zlib reads
    /// every member to its end and the file holds nothing after them.
    public static func damage(in path: String) -> String? {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip wrapper, whose trailer zlib checks.
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return "zlib could not start"
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: 1 << 18)
        var ended = false
        var found: String?
        do {
            _ = try FileChunks.read(path) { chunk in
                var input = UnsafeMutableRawBufferPointer(mutating: chunk)
                while !input.isEmpty {
                    if ended {
                        // Another member may follow (gzip allows it); anything else is not gzip.
                        guard input.first == 0x1F else {
                            found = "holds bytes after the end of the gzip stream"
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
                        found = "the gzip stream is damaged (zlib makes no progress)"
                        throw CancellationError()
                    }
                    input = UnsafeMutableRawBufferPointer(rebasing: input[used...])
                    switch status {
                    case Z_STREAM_END: ended = true
                    case Z_OK, Z_BUF_ERROR: break
                    default:
                        let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                        found = "the gzip stream is damaged (zlib: \(reason))"
                        throw CancellationError()
                    }
                }
            }
        } catch is CancellationError {
            return found
        } catch {
            return "cannot be read to check (\(error))"
        }
        return ended ? nil : "the gzip stream ends early"
    }
}
