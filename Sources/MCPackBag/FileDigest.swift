import FileIO
import Foundation
import Hashing

extension Digest {
    /// Hashes a file in 1 MiB reads; returns the SHA-256 and the byte count.
    package static func hexOfFile(_ path: String) throws -> (sha256: String, bytes: Int) {
        let hasher = Digest()
        let total = try FileChunks.read(path) { hasher.update($0) }
        return (hasher.finish(), total)
    }

    package static func hexOfFile(_ url: URL) throws -> (sha256: String, bytes: Int) {
        try hexOfFile(url.path)
    }
}
